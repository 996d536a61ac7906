// The catalog: every id the planner promises, every fact positive and
// plausible, every entry citing its source.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <heteropipe/plan/catalog.hpp>
#include <heteropipe/plan/estimate.hpp>
#include <heteropipe/plan/plan.hpp>
#include <heteropipe/plan/report.hpp>

using namespace heteropipe;

namespace {

template <class Entry>
std::set<std::string> ids_of(const std::vector<Entry>& entries) {
  std::set<std::string> ids;
  for (const Entry& e : entries) {
    CHECK_MESSAGE(ids.insert(std::string(e.id)).second, "duplicate id " << e.id);
    CHECK_MESSAGE(e.source.size() > 20, e.id << " cites no source");
  }
  return ids;
}

}  // namespace

TEST_CASE("catalog: every GPU the planner lists, with memory, bandwidth and FP16 throughput") {
  const std::set<std::string> expected = {
      "rtx-3060-12gb",  "rtx-3070",       "rtx-3080",         "rtx-3090",       "rtx-4060-ti-16gb",
      "rtx-4070-ti",    "rtx-4080",       "rtx-4090",         "rtx-5090",       "rtx-a6000",
      "l40s",           "a100-40gb",      "a100-80gb",        "h100-pcie",      "h100-sxm",
      "tesla-v100",     "tesla-p40",      "apple-m1-max",     "apple-m2-ultra", "apple-m3-max",
      // issue 24's additions
      "rtx-2080-ti",    "rtx-3090-ti",    "rtx-4060-ti-8gb",  "rtx-4070",       "rtx-4070-ti-super",
      "rtx-4080-super", "rtx-5060-ti-16gb", "rtx-5070-ti",    "rtx-5080",       "titan-rtx",
      "l4",             "t4",             "a40",              "h200",           "b200",
      "tesla-p100",     "rx-7900-xtx",    "rx-9070-xt",       "mi300x",         "apple-m1-ultra",
      "apple-m2-max",   "apple-m3-ultra", "apple-m4-max",     "a10g",           "arc-a770"};
  CHECK(ids_of(catalog_gpus()) == expected);
  for (const GpuSpec& g : catalog_gpus()) {
    INFO(g.id);
    CHECK(g.memory >= 8.0 * (1 << 30));
    CHECK(g.memory <= 512.0 * (1 << 30));
    CHECK(g.memory_bandwidth >= 2e11);  // GB/s, not GiB or bits
    CHECK(g.memory_bandwidth <= 1e13);
    CHECK(g.fp16_flops >= 1e13);
    CHECK(g.fp16_flops <= 3e15);
    // Bytes per FLOP: every part reads between 1/1000 and 1/10 of a byte per
    // FLOP (a unit slip of 1000 in either fact lands outside).
    CHECK(g.memory_bandwidth / g.fp16_flops > 1e-3);
    CHECK(g.memory_bandwidth / g.fp16_flops < 0.1);
  }
  // Spot checks against the vendors' figures.
  CHECK(find_gpu("rtx-4090", 0).value().memory_bandwidth == 1008e9);
  CHECK(find_gpu("rtx-3090", 0).value().memory == 24.0 * (1 << 30));
  CHECK(find_gpu("h100-sxm", 0).value().memory_bandwidth == 3350e9);
  CHECK(find_gpu("a100-80gb", 0).value().fp16_flops == 312e12);
  CHECK(find_gpu("h200", 0).value().memory == 141.0 * (1 << 30));
  CHECK(find_gpu("rx-7900-xtx", 0).value().memory_bandwidth == 960e9);
  CHECK(find_gpu("mi300x", 0).value().device_class == DeviceClass::amd_hbm);
  CHECK(find_gpu("apple-m3-ultra", 0).value().memory == 512.0 * (1 << 30));
  CHECK(find_gpu("l4", 0).value().fp16_flops == 121e12);
  CHECK(find_gpu("a10g", 0).value().memory_bandwidth == 600e9);
  CHECK(find_gpu("tesla-p40", 0).value().memory_bandwidth == 346e9);  // the datasheet's figure
  CHECK(find_gpu("arc-a770", 0).value().device_class == DeviceClass::intel_gddr);
  CHECK(find_gpu("arc-a770", 0).value().memory_bandwidth == 560e9);
}

TEST_CASE("catalog: every model with its config.json facts") {
  const std::set<std::string> expected = {
      "llama-2-7b",    "llama-2-13b",     "llama-2-70b",       "llama-3-8b",     "llama-3-70b",
      "mistral-7b",    "qwen2.5-7b",      "qwen2.5-14b",       "qwen2.5-32b",    "qwen2.5-72b",
      // issue 24's additions
      "llama-3.1-8b",  "llama-3.1-70b",   "llama-3.1-405b",    "llama-3.3-70b",  "codellama-34b",
      "mistral-small-24b", "mixtral-8x7b", "qwen3-8b",         "qwen3-14b",      "qwen3-32b",
      "qwen3-30b-a3b", "gemma-2-27b",     "gemma-3-27b",       "phi-4",          "deepseek-r1-distill-llama-70b",
      "gpt-oss-20b",   "gpt-oss-120b"};
  CHECK(ids_of(catalog_models()) == expected);
  for (const ModelSpec& m : catalog_models()) {
    INFO(m.id);
    CHECK(m.layers > 0);
    CHECK(m.layers <= 200);
    CHECK(m.heads % m.kv_heads == 0);
    CHECK(m.vocab >= 32000);
    CHECK(m.vocab <= 300000);
    CHECK(m.source.find("https://huggingface.co/") == 0);
    // The head size: given where hidden / heads is not it, and then said so in the source.
    if (m.head_size) {
      CHECK(m.head_size != m.hidden / m.heads);
      CHECK(m.source.find("head_dim " + std::to_string(m.head_size)) != std::string_view::npos);
    } else {
      CHECK(m.hidden % m.heads == 0);
    }
    CHECK(head_size_of(m) >= 64);
    CHECK(head_size_of(m) <= 256);
    // A mixture names its experts; a dense model's MLP is wider than its hidden size.
    if (m.experts) {
      CHECK(m.experts_used >= 1);
      CHECK(m.experts_used < m.experts);
      CHECK(m.source.find(std::to_string(m.experts)) != std::string_view::npos);
    } else {
      CHECK(m.experts_used == 0);
      CHECK(m.intermediate > m.hidden);
    }
    if (m.sliding_window) {
      CHECK(m.sliding_period >= 0);
      CHECK(m.source.find("sliding_window " + std::to_string(m.sliding_window)) != std::string_view::npos);
    } else {
      CHECK(m.sliding_period == 0);
    }
  }
  const ModelSpec llama3 = find_model("llama-3-70b").value();
  CHECK(llama3.layers == 80);
  CHECK(llama3.kv_heads == 8);
  CHECK(llama3.vocab == 128256);
  CHECK(head_size_of(find_model("qwen3-32b").value()) == 128);  // 64 heads of 128 in a 5,120 residual
  CHECK(find_model("llama-3.1-405b").value().layers == 126);
  const ModelSpec moe = find_model("qwen3-30b-a3b").value();
  CHECK(moe.experts == 128);
  CHECK(moe.experts_used == 8);
  CHECK(moe.intermediate == 768);
  CHECK(find_model("gemma-3-27b").value().sliding_period == 6);
}

TEST_CASE("catalog: quantizations and links") {
  CHECK(ids_of(catalog_quants()) ==
        std::set<std::string>{"F16", "Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "Q4_0",
                              // issue 24's additions
                              "Q2_K", "Q3_K_M", "Q4_K_S", "IQ4_XS", "Q5_K_S", "IQ2_XXS", "BF16", "MXFP4"});
  double previous = 2;
  for (const QuantSpec& q : catalog_quants()) {  // listed from the largest to the smallest
    INFO(q.id);
    CHECK(q.bytes_per_weight >= 2.0 / 8);  // two bits
    CHECK(q.bytes_per_weight <= previous);
    previous = q.bytes_per_weight;
  }
  CHECK(find_quant("Q4_0").value().bytes_per_weight == 0.5625);  // 18 bytes per block of 32
  CHECK(find_quant("MXFP4").value().bytes_per_weight == 17.0 / 32);  // 17 bytes per block of 32
  // llama.cpp's MXFP4 files keep every matrix outside the experts at Q8_0; every other format is one type.
  CHECK(non_ffn_bytes_per_weight(find_quant("MXFP4").value()) == 34.0 / 32);
  for (const QuantSpec& q : catalog_quants()) {
    if (q.id != "MXFP4") CHECK(non_ffn_bytes_per_weight(q) == q.bytes_per_weight);
  }
  CHECK(find_quant("BF16").value().bytes_per_weight == 2);
  CHECK(ids_of(catalog_links()) == std::set<std::string>{"pcie3-x16", "pcie4-x16", "pcie4-x4", "nvlink-3090",
                                                         "ethernet-1g", "ethernet-10g", "ethernet-25g",
                                                         "thunderbolt-4"});
  for (const LinkSpec& l : catalog_links()) {
    INFO(l.id);
    CHECK(l.latency > 0);
    CHECK(l.latency < 1e-3);
    CHECK(l.bandwidth >= 1.25e8);
  }
}

// llama.cpp stores a matrix in its type's blocks along the rows (ggml's ne0,
// the matrix's input dimension), and a matrix whose rows are no whole number
// of them in the type its quantizer falls back to (docs/planner.md#the-estimator).
TEST_CASE("catalog: each quantization's block and fallback, and the models whose rows are not whole blocks") {
  const std::map<std::string, std::int64_t> blocks = {
      {"F16", 1}, {"BF16", 1}, {"Q8_0", 32}, {"Q4_0", 32}, {"MXFP4", 32}};
  // The fallback of each format's main type, for rows of 29,568 (Qwen2.5 72B's down projections), in bytes
  // per weight: Q6_K to Q8_0, Q5_K to Q5_1, Q4_K to Q5_0, Q3_K and Q2_K to Q4_0, the i-quants to IQ4_NL.
  const std::map<std::string, double> fallback = {{"Q6_K", 34.0 / 32},   {"Q5_K_M", 24.0 / 32}, {"Q5_K_S", 24.0 / 32},
                                                  {"Q4_K_M", 22.0 / 32}, {"Q4_K_S", 22.0 / 32}, {"IQ4_XS", 18.0 / 32},
                                                  {"Q3_K_M", 18.0 / 32}, {"Q2_K", 18.0 / 32},   {"IQ2_XXS", 18.0 / 32}};
  for (const QuantSpec& q : catalog_quants()) {
    INFO(q.id);
    REQUIRE(ggml_type_named(q.type));
    const bool k_or_i_quant = fallback.count(std::string(q.id)) > 0;
    CHECK(quant_block(q) == (k_or_i_quant ? 256 : blocks.at(std::string(q.id))));
    const double rate = non_ffn_bytes_per_weight(q);
    CHECK(stored_bytes_per_weight(q, rate, 8192) == rate);
    CHECK(stored_bytes_per_weight(q, rate, 29568) == (k_or_i_quant ? fallback.at(std::string(q.id)) : rate));
    // The LM head, rows of gpt-oss's 2,880, is Q8_0 where it cannot be in the format.
    CHECK(lm_head_bytes_per_weight(q, 2880) == (k_or_i_quant ? 34.0 / 32 : rate));
  }
  // Every dimension is a whole number of 32-weight blocks, so no matrix falls back to F16; those that are
  // not of 256 are Qwen2.5 72B's intermediate size and gpt-oss's hidden (and expert) size.
  std::set<std::string> not_whole;
  for (const ModelSpec& m : catalog_models()) {
    // Not a structured binding: INFO captures what it prints, and C++17 lambdas capture no binding.
    for (const auto& dimension : {std::pair{"hidden", m.hidden}, std::pair{"intermediate", m.intermediate},
                                  std::pair{"q_dim", m.heads * head_size_of(m)}}) {
      const std::string name = dimension.first;
      const auto rows = dimension.second;
      INFO(m.id << " " << name);
      CHECK(rows % 32 == 0);
      if (rows % 256 != 0) not_whole.insert(std::string(m.id) + " " + name);
    }
  }
  CHECK(not_whole == std::set<std::string>{"gpt-oss-120b hidden", "gpt-oss-120b intermediate", "gpt-oss-20b hidden",
                                           "gpt-oss-20b intermediate", "qwen2.5-72b intermediate"});
}

TEST_CASE("catalog: an unknown id is a coded error naming the field and the position") {
  const Error e = find_gpu("rtx-9090", 2).error();
  CHECK(e.code == ErrorCode::unknown_id);
  CHECK(e.field == Field::devices);
  CHECK(e.index == 2);
  CHECK(e.token == "rtx-9090");
  CHECK(find_model("llama-4").error().field == Field::model);
  CHECK(find_quant("Q3_K").error().field == Field::quant);
  CHECK(find_link("wifi", 0).error().field == Field::links);
}

TEST_CASE("catalog: an id is a typed name, read without the blanks around it as the objective is") {
  // "objective": " throughput " was read while "devices": [" rtx-3090"] was not in the catalog.
  CHECK(find_gpu(" rtx-3090", 1).value().memory == 24.0 * (1 << 30));
  CHECK(find_model("llama-3.1-8b\n").ok());
  CHECK(find_quant("\tQ4_K_M ").ok());
  CHECK(find_link("\xEF\xBB\xBF" "pcie4-x16", 0).ok());
  // A blank inside is the id's, and the error quotes it without the blanks around it.
  const Error e = find_gpu(" rtx 3090 ", 0).error();
  CHECK(e.code == ErrorCode::unknown_id);
  CHECK(e.token == "rtx 3090");
  // Case is the id's own: Q4_K_M is not q4_k_m.
  CHECK(!find_quant("q4_k_m").ok());
}

TEST_CASE("catalog: the visitor lists the four tables, each entry with its source") {
  std::vector<std::string> names;
  visit_fields(Catalog{}, [&names](std::string_view name, const auto&) { names.emplace_back(name); });
  CHECK(names == std::vector<std::string>{"gpus", "models", "quants", "links"});
  std::vector<std::string> gpu_fields;
  visit_fields(catalog_gpus()[0], [&gpu_fields](std::string_view name, const auto&) { gpu_fields.emplace_back(name); });
  CHECK(gpu_fields == std::vector<std::string>{"id", "name", "device_class", "memory", "memory_bandwidth",
                                               "fp16_flops", "cuda_graphs", "source"});
  std::vector<std::string> quant_fields;
  visit_fields(find_quant("MXFP4").value(),
               [&quant_fields](std::string_view name, const auto&) { quant_fields.emplace_back(name); });
  CHECK(quant_fields == std::vector<std::string>{"id", "bytes_per_weight", "other_bytes_per_weight", "source"});
  std::vector<std::string> model_fields;
  visit_fields(catalog_models()[0],
               [&model_fields](std::string_view name, const auto&) { model_fields.emplace_back(name); });
  CHECK(model_fields == std::vector<std::string>{"id", "name", "layers", "hidden", "intermediate", "heads",
                                                 "kv_heads", "vocab", "tied_embeddings", "head_size", "experts",
                                                 "experts_used", "sliding_window", "sliding_period", "source"});
}

// Every entry of the catalog plans: each GPU with a small model, each model
// in each quantization on as many of the largest GPU as it needs.
TEST_CASE("catalog: every GPU, model and quantization resolves and plans") {
  for (const GpuSpec& g : catalog_gpus()) {
    INFO(g.id);
    EstimateInput in;
    in.model = "llama-3.1-8b";
    in.quant = "Q4_K_M";
    in.devices.assign(2, DeviceChoice{std::string(g.id), {}, {}, {}, {}, {}, {}});
    auto plan = make_plan(estimate(in).value());
    REQUIRE(plan);
    const double speed = tokens_per_second(plan.value(), 1);
    CHECK(speed > 1);
    CHECK(speed < 1000);
  }
  for (const ModelSpec& m : catalog_models()) {
    for (const QuantSpec& q : catalog_quants()) {
      INFO(m.id << " in " << q.id);
      EstimateInput in;
      in.model = std::string(m.id);
      in.quant = std::string(q.id);
      bool planned = false;
      for (int count = 1; count <= 8 && !planned; ++count) {
        in.devices.assign(static_cast<std::size_t>(count), DeviceChoice{"mi300x", {}, {}, {}, {}, {}, {}});
        auto plan = make_plan(estimate(in).value());
        if (!plan) {
          CHECK(plan.error().code == ErrorCode::memory_short);
          continue;
        }
        planned = true;
        CHECK(tokens_per_second(plan.value(), 1) > 1);
      }
      CHECK(planned);
    }
  }
}
