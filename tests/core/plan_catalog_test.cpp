// The catalog: every id the planner promises, every fact positive and
// plausible, every entry citing its source.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include <heteropipe/plan/catalog.hpp>

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
      "rtx-3060-12gb", "rtx-3070",  "rtx-3080",  "rtx-3090",   "rtx-4060-ti-16gb", "rtx-4070-ti",  "rtx-4080",
      "rtx-4090",      "rtx-5090",  "rtx-a6000", "l40s",       "a100-40gb",        "a100-80gb",    "h100-pcie",
      "h100-sxm",      "tesla-v100", "tesla-p40", "apple-m1-max", "apple-m2-ultra", "apple-m3-max"};
  CHECK(ids_of(catalog_gpus()) == expected);
  for (const GpuSpec& g : catalog_gpus()) {
    INFO(g.id);
    CHECK(g.memory >= 8.0 * (1 << 30));
    CHECK(g.memory <= 192.0 * (1 << 30));
    CHECK(g.memory_bandwidth >= 2e11);  // GB/s, not GiB or bits
    CHECK(g.memory_bandwidth <= 4e12);
    CHECK(g.fp16_flops >= 1e13);
    CHECK(g.fp16_flops <= 1e15);
  }
  // Spot checks against the vendors' figures.
  CHECK(find_gpu("rtx-4090", 0).value().memory_bandwidth == 1008e9);
  CHECK(find_gpu("rtx-3090", 0).value().memory == 24.0 * (1 << 30));
  CHECK(find_gpu("h100-sxm", 0).value().memory_bandwidth == 3350e9);
  CHECK(find_gpu("a100-80gb", 0).value().fp16_flops == 312e12);
}

TEST_CASE("catalog: every model with its config.json facts") {
  const std::set<std::string> expected = {"llama-2-7b",  "llama-2-13b", "llama-2-70b", "llama-3-8b",  "llama-3-70b",
                                          "mistral-7b",  "qwen2.5-7b",  "qwen2.5-14b", "qwen2.5-32b", "qwen2.5-72b"};
  CHECK(ids_of(catalog_models()) == expected);
  for (const ModelSpec& m : catalog_models()) {
    INFO(m.id);
    CHECK(m.layers > 0);
    CHECK(m.intermediate > m.hidden);
    CHECK(m.hidden % m.heads == 0);
    CHECK(m.heads % m.kv_heads == 0);
    CHECK(m.vocab >= 32000);
    CHECK(m.source.find("https://huggingface.co/") == 0);
  }
  const ModelSpec llama3 = find_model("llama-3-70b").value();
  CHECK(llama3.layers == 80);
  CHECK(llama3.kv_heads == 8);
  CHECK(llama3.vocab == 128256);
}

TEST_CASE("catalog: quantizations and links") {
  CHECK(ids_of(catalog_quants()) == std::set<std::string>{"F16", "Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "Q4_0"});
  double previous = 3;
  for (const QuantSpec& q : catalog_quants()) {  // listed from the largest to the smallest
    INFO(q.id);
    CHECK(q.bytes_per_weight > 0);
    CHECK(q.bytes_per_weight < previous);
    previous = q.bytes_per_weight;
  }
  CHECK(find_quant("Q4_0").value().bytes_per_weight == 0.5625);  // 18 bytes per block of 32
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

TEST_CASE("catalog: the visitor lists the four tables, each entry with its source") {
  std::vector<std::string> names;
  visit_fields(Catalog{}, [&names](std::string_view name, const auto&) { names.emplace_back(name); });
  CHECK(names == std::vector<std::string>{"gpus", "models", "quants", "links"});
  std::vector<std::string> gpu_fields;
  visit_fields(catalog_gpus()[0], [&gpu_fields](std::string_view name, const auto&) { gpu_fields.emplace_back(name); });
  CHECK(gpu_fields == std::vector<std::string>{"id", "name", "device_class", "memory", "memory_bandwidth",
                                               "fp16_flops", "source"});
}
