// Calibration from llama-bench records (docs/planner.md#calibration): which
// devices a record names, and that a record's factor makes the estimate for
// its own model on its device equal its measured avg_ts.
//
// The records are the two published in llama.cpp's tools/llama-bench/README.md
// ("JSON" output, build 8cf427ff: Qwen2.5-7B-Instruct Q4_K_M on an RTX 4080,
// pp512 7100.002165 t/s and tg128 118.881588 t/s), ggml-org/llama.cpp at
// commit 08d0baaca6745ecaec3a75cccf63b533646ead22; tests/cli/plans/bench_4080.json
// holds them whole.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <heteropipe/limits.hpp>
#include <heteropipe/plan/calibration.hpp>
#include <heteropipe/plan/read_json.hpp>
#include <heteropipe/plan/report.hpp>
#include <heteropipe/text/error_text.hpp>
#include <heteropipe/text/numbers.hpp>

using namespace heteropipe;

namespace {

constexpr double kModelSize = 4677120000, kParams = 7615616512;
constexpr double kDecodeTs = 118.881588, kPrefillTs = 7100.002165;

// A record of that run, with `extra` keys; test "tg" (n_gen 128) or "pp" (n_prompt 512).
std::string record(const std::string& gpu_info, const std::string& test, const std::string& extra = "") {
  const bool tg = test == "tg";
  return R"({"gpu_info": ")" + gpu_info + R"(", "model_type": "qwen2 7B Q4_K - Medium", "model_size": 4677120000,
      "model_n_params": 7615616512, "n_prompt": )" + (tg ? "0" : "512") + R"(, "n_gen": )" + (tg ? "128" : "0") +
         R"(, "avg_ts": )" + (tg ? "118.881588" : "7100.002165") + extra + "}";
}

EstimateInput input_of(const std::string& text) {
  const PlanJson read = read_plan_json(text);
  for (const Error& e : read.errors) INFO(text::describe(e));
  REQUIRE(read.errors.empty());
  return std::get<EstimateInput>(read.request);
}

// The devices a gpu_info names among catalog devices `ids`.
Result<std::vector<std::int64_t>> named(const std::vector<std::string>& ids, const std::string& gpu_info,
                                        const std::string& device = "") {
  EstimateInput in;
  for (const std::string& id : ids) in.devices.push_back(DeviceChoice{id, {}, {}, {}, {}, {}, {}, {}});
  BenchRecord r;
  r.gpu_info = gpu_info;
  r.device = device;
  return devices_named(in, r, 3);
}

std::vector<std::int64_t> named_ok(const std::vector<std::string>& ids, const std::string& gpu_info) {
  auto out = named(ids, gpu_info);
  REQUIRE(out.ok());
  return out.value();
}

// The record's own model as facts: `layers` equal layers reading model_size
// and computing 2 model_n_params per token in all, nothing else.
std::string own_model(int layers) {
  std::string bytes, params;
  for (int l = 0; l < layers; ++l) {
    bytes += (l ? ", " : "") + std::to_string(kModelSize / layers);
    params += (l ? ", " : "") + std::to_string(kParams / layers);
  }
  return R"({"layers": )" + std::to_string(layers) + R"(, "n_embd": 1, "vocab_size": 0, "layer_bytes": [)" + bytes +
         R"(], "active_layer_bytes": [)" + bytes + R"(], "active_layer_params": [)" + params +
         R"(], "embedding_bytes": 0, "output_bytes": 0, "kv_bytes_per_token": 0})";
}

double speed(const std::string& text) {
  auto report = make_plan_report(PlanRequest{input_of(text)});
  REQUIRE(report.ok());
  return report.value().tokens_per_second;
}

}  // namespace

TEST_CASE("calibration: a GPU's names, as gpu_info may give them") {
  auto names = [](const std::string& id) { return gpu_names(find_gpu(id, 0).value()); };
  CHECK(names("rtx-4090") == std::vector<std::string>{"GeForce RTX 4090", "RTX 4090"});
  CHECK(names("tesla-p40") == std::vector<std::string>{"NVIDIA Tesla P40", "Tesla P40"});
  CHECK(names("rtx-3060-12gb") == std::vector<std::string>{"GeForce RTX 3060 12GB", "RTX 3060"});
  CHECK(names("apple-m1-ultra") == std::vector<std::string>{"Apple M1 Ultra (64-core GPU)", "M1 Ultra"});
  CHECK(names("rx-7900-xtx") == std::vector<std::string>{"AMD Radeon RX 7900 XTX", "Radeon RX 7900 XTX"});
}

TEST_CASE("calibration: gpu_info names a device by its longest name, ignoring case, as whole words") {
  CHECK(named_ok({"rtx-4090"}, "NVIDIA GeForce RTX 4090") == std::vector<std::int64_t>{0});
  CHECK(named_ok({"rtx-4090"}, "nvidia geforce rtx 4090") == std::vector<std::int64_t>{0});
  CHECK(named_ok({"tesla-p40"}, "Tesla P40") == std::vector<std::int64_t>{0});
  CHECK(named_ok({"apple-m1-ultra"}, "Apple M1 Ultra") == std::vector<std::int64_t>{0});
  CHECK(named_ok({"rtx-3060-12gb"}, "NVIDIA GeForce RTX 3060") == std::vector<std::int64_t>{0});
  // Not inside a longer number, and not where a longer catalog name covers it.
  CHECK(named_ok({"rtx-4090"}, "NVIDIA GeForce RTX 40900").empty());
  CHECK(named_ok({"rtx-4070"}, "NVIDIA GeForce RTX 4070 Ti").empty());
  CHECK(named_ok({"rtx-4070", "rtx-4070-ti"}, "NVIDIA GeForce RTX 4070 Ti") == std::vector<std::int64_t>{1});
  CHECK(named_ok({"rtx-4070", "rtx-4070-ti"}, "NVIDIA GeForce RTX 4070") == std::vector<std::int64_t>{0});
  CHECK(named_ok({"rtx-4080"}, "NVIDIA GeForce RTX 4080 SUPER").empty());
  CHECK(named_ok({"rtx-5090"}, "NVIDIA GeForce RTX 4080").empty());
}

TEST_CASE("calibration: repeated devices of one kind all take the record; two kinds are an error asking for device") {
  CHECK(named_ok({"rtx-3090", "rtx-4090", "rtx-3090"}, "NVIDIA GeForce RTX 3090, NVIDIA GeForce RTX 3090") ==
        std::vector<std::int64_t>{0, 2});
  auto two = named({"rtx-4090", "rtx-3090"}, "NVIDIA GeForce RTX 4090, NVIDIA GeForce RTX 3090");
  REQUIRE(!two.ok());
  CHECK(two.error().code == ErrorCode::ambiguous_device);
  CHECK(two.error().field == Field::calibration);
  CHECK(two.error().index == 3);
  CHECK(two.error().value == 0);
  CHECK(two.error().limit == 1);
  CHECK(text::describe(two.error()) ==
        "calibration, record 4: 'NVIDIA GeForce RTX 4090, NVIDIA GeForce RTX 3090' names devices 1 and 2, which "
        "differ; add \"device\": a catalog id or a device's name");
  // Both 4060 Ti cards go by "RTX 4060 Ti": ambiguous, until "device" says which.
  CHECK(named({"rtx-4060-ti-8gb", "rtx-4060-ti-16gb"}, "NVIDIA GeForce RTX 4060 Ti").error().code ==
        ErrorCode::ambiguous_device);
  CHECK(named({"rtx-4060-ti-8gb", "rtx-4060-ti-16gb"}, "NVIDIA GeForce RTX 4060 Ti", "rtx-4060-ti-16gb").value() ==
        std::vector<std::int64_t>{1});
  auto unknown = named({"rtx-4090"}, "", "rtx-9999");
  REQUIRE(!unknown.ok());
  CHECK(unknown.error().code == ErrorCode::unknown_id);
  CHECK(unknown.error().field == Field::device);
  CHECK(unknown.error().index == 3);
}

TEST_CASE("calibration: ids and names are read without the blanks around them, as the catalog reads an id") {
  // A device typed " rtx-4080" is an rtx-4080: of one kind with "rtx-4080", and named by a record's
  // "device": "rtx-4080" (it was ambiguous_device, and the record unused as no_device).
  CHECK(named_ok({" rtx-4080", "rtx-4080"}, "NVIDIA GeForce RTX 4080") == std::vector<std::int64_t>{0, 1});
  CHECK(named({" rtx-4080", "rtx-3090"}, "", "rtx-4080").value() == std::vector<std::int64_t>{0});
  CHECK(named({"rtx-4080", "rtx-3090"}, "", " rtx-4080\t").value() == std::vector<std::int64_t>{0});
  const EstimateInput in = input_of(R"({"model": "llama-3.1-8b", "quant": "Q4_K_M", "devices": ["rtx-4090",
      {"id": "rtx-4080", "name": " box a "}], "calibration": [)" + record("", "tg", R"(, "device": "box a")") + "]}");
  CHECK(devices_named(in, in.calibration[0], 0).value() == std::vector<std::int64_t>{1});
  // A device given as nothing but blanks names none: its own error, never a record read by gpu_info.
  for (const char* device : {"", "  "}) {
    const PlanJson read = read_plan_json(R"({"model": "llama-3.1-8b", "quant": "Q4_K_M", "devices": ["rtx-4080"],
        "calibration": [)" + record("NVIDIA GeForce RTX 4080", "tg", std::string(R"(, "device": ")") + device + "\"") + "]}");
    REQUIRE(read.errors.size() == 1);
    CHECK(read.errors[0].code == ErrorCode::empty);
    CHECK(read.errors[0].field == Field::device);
    CHECK(read.errors[0].index == 0);
    CHECK(text::describe(read.errors[0]) == "device, record 1: is empty");
  }
  EstimateInput direct;
  direct.model = "llama-3.1-8b";
  direct.quant = "Q4_K_M";
  direct.devices.push_back(DeviceChoice{"rtx-4080", {}, {}, {}, {}, {}, {}, {}});
  direct.calibration.push_back(BenchRecord{"NVIDIA GeForce RTX 4080", " ", kModelSize, kParams, 0, 128, kDecodeTs});
  const auto c = calibration_of(direct);
  REQUIRE(!c.ok());
  CHECK(c.error().code == ErrorCode::empty);
  CHECK(c.error().field == Field::device);
}

TEST_CASE("calibration: a custom device's name") {
  const EstimateInput in = input_of(R"({"model": "llama-3.1-8b", "quant": "Q4_K_M", "devices": ["rtx-4090",
      {"name": "Radeon Pro W7900", "memory": "48 GiB", "memory_bandwidth": "864 GB/s", "fp16_flops": 122.6e12,
       "device_class": "amd-gddr"}], "calibration": [)" + record("AMD Radeon Pro W7900", "tg") + "]}");
  CHECK(devices_named(in, in.calibration[0], 0).value() == std::vector<std::int64_t>{1});
  const Calibration c = calibration_of(in).value();
  REQUIRE(c.calibrated.size() == 1);
  CHECK(c.calibrated[0].device == 1);
  CHECK(c.factors[0] == 1);
}

TEST_CASE("calibration: the estimate for the record's own model on its device equals avg_ts, decode and prefill") {
  for (int layers : {1, 28, 80}) {
    for (const std::string test : {"tg", "pp"}) {
      const bool tg = test == "tg";
      const std::string base = R"({"model": )" + own_model(layers) + R"(, "devices": ["rtx-4080"], "M": 1, "phase": ")" +
                               (tg ? "decode" : "prefill") + R"(", "tokens": )" + (tg ? "1" : "512");
      const double measured = tg ? kDecodeTs : kPrefillTs;
      const double calibrated = speed(base + R"(, "calibration": [)" + record("NVIDIA GeForce RTX 4080", test) + "]}");
      const double estimated = speed(base + "}");
      INFO(test << " " << layers << " layers: " << calibrated << " against " << measured);
      CHECK(std::abs(calibrated / measured - 1) < 0.05);
      // Only the prompt's attention (n_embd 1 here), which the record's model lacks, differs.
      CHECK(std::abs(calibrated / measured - 1) < (tg ? 1e-12 : 1e-4));
      // The uncalibrated estimate differs from avg_ts: the record changed it. (For 28 layers,
      // the size of the record's own Qwen2.5-7B, the estimate is within 1 % of the measured
      // 118.88 tokens/s uncalibrated: 0.99 % off, where it was more than 5 % before the
      // estimator's launch cost described builds with CUDA graphs.)
      CHECK(std::abs(estimated / measured - 1) > 0.005);
    }
  }
}

TEST_CASE("calibration: other models on the device scale by the same factor") {
  const std::string base = R"({"model": "llama-3.1-8b", "quant": "Q4_K_M", "devices": ["rtx-4080"], "M": 1)";
  const std::string with = base + R"(, "calibration": [)" + record("NVIDIA GeForce RTX 4080", "tg") + ", " +
                           record("NVIDIA GeForce RTX 4080", "pp") + "]}";
  const EstimateInput in = input_of(with);
  const Calibration c = calibration_of(in).value();
  REQUIRE(c.calibrated.size() == 1);
  CHECK(c.calibrated[0].record == 0);  // the tg record: the plan decodes
  REQUIRE(c.unused.size() == 1);
  CHECK(c.unused[0].record == 1);
  CHECK(c.unused[0].reason == "other_phase");
  CHECK(speed(with) / speed(base + "}") == doctest::Approx(c.calibrated[0].factor).epsilon(1e-12));
  auto report = make_plan_report(PlanRequest{in});
  REQUIRE(report.ok());
  REQUIRE(report.value().calibrated.size() == 1);
  CHECK(report.value().calibrated[0].factor == c.calibrated[0].factor);
}

TEST_CASE("calibration: repeated devices each take the record; a device's own speed wins") {
  const std::string bench = R"(, "calibration": [)" + record("NVIDIA GeForce RTX 3090, NVIDIA GeForce RTX 3090", "tg");
  const Calibration both = calibration_of(input_of(R"({"model": "llama-3.1-8b", "quant": "Q4_K_M",
      "devices": ["rtx-3090", "rtx-3090"])" + bench + "]}")).value();
  REQUIRE(both.calibrated.size() == 2);
  CHECK(both.calibrated[0].device == 0);
  CHECK(both.calibrated[1].device == 1);
  CHECK(both.calibrated[0].factor == both.calibrated[1].factor);
  CHECK(both.unused.empty());

  const std::string own = R"({"model": "llama-3.1-8b", "quant": "Q4_K_M", "devices": [{"id": "rtx-3090",
      "avg_ts": 100}])";
  const Calibration measured = calibration_of(input_of(own + bench + "]}")).value();
  CHECK(measured.calibrated.empty());
  REQUIRE(measured.unused.size() == 1);
  CHECK(measured.unused[0].reason == "measured");
  CHECK(speed(own + bench + "]}") == speed(own + "}"));
}

TEST_CASE("calibration: a record naming no device is unused, and the nearest model's record wins") {
  const std::string base = R"({"model": "llama-3.1-8b", "quant": "Q4_K_M", "devices": ["rtx-4080"])";
  const Calibration none =
      calibration_of(input_of(base + R"(, "calibration": [)" + record("NVIDIA GeForce RTX 5090", "tg") + "]}")).value();
  CHECK(none.calibrated.empty());
  REQUIRE(none.unused.size() == 1);
  CHECK(none.unused[0].reason == "no_device");
  CHECK(none.factors == std::vector<double>{1});
  // A 70B record and the 7B one: the plan's 8B model takes the 7B's (record 1).
  const std::string big = R"({"gpu_info": "NVIDIA GeForce RTX 4080", "model_size": 42520395776,
      "model_n_params": 70553706496, "n_prompt": 0, "n_gen": 128, "avg_ts": 9.5})";
  const Calibration near = calibration_of(input_of(base + R"(, "calibration": [)" + big + ", " +
                                                   record("NVIDIA GeForce RTX 4080", "tg") + "]}")).value();
  REQUIRE(near.calibrated.size() == 1);
  CHECK(near.calibrated[0].record == 1);
  REQUIRE(near.unused.size() == 1);
  CHECK(near.unused[0].record == 0);
  CHECK(near.unused[0].reason == "nearer_record");
}

// llama-bench's model_size is llama_model_size, the loader's n_bytes: the sum
// over every tensor of the file, taken when it opens it (llama-model-loader.cpp's
// constructor; llama_model::load_stats), which TENSOR_SKIP does not lower (it
// lowers size_data, the bytes read). A record of a file with a
// multi-token-prediction layer counts that layer's bytes, so the planned model's
// bytes count them too, and the record of the same file is the nearest.
TEST_CASE("calibration: a model's multi-token-prediction layers count in its bytes, as in model_size") {
  // 5 layers of 1e9 bytes, the last a multi-token-prediction layer.
  const std::string model = R"({"layers": 5, "nextn_predict_layers": 1, "n_embd": 1, "vocab_size": 0,
      "layer_bytes": [1e9, 1e9, 1e9, 1e9, 1e9], "active_layer_bytes": [1e9, 1e9, 1e9, 1e9, 1e9],
      "active_layer_params": [1e9, 1e9, 1e9, 1e9, 1e9], "embedding_bytes": 0, "output_bytes": 0,
      "kv_bytes_per_token": 0})";
  const auto bench = [](const std::string& model_size) {
    return R"({"gpu_info": "NVIDIA GeForce RTX 4080", "model_size": )" + model_size +
           R"(, "model_n_params": 5e9, "n_prompt": 0, "n_gen": 128, "avg_ts": 20})";
  };
  // Record 0 counts the 4 layers a run runs, record 1 every tensor of the file, as llama-bench reports it.
  const Calibration c = calibration_of(input_of(R"({"model": )" + model + R"(, "devices": ["rtx-4080"], "calibration": [)" +
                                                bench("4e9") + ", " + bench("5e9") + "]}")).value();
  REQUIRE(c.calibrated.size() == 1);
  CHECK(c.calibrated[0].record == 1);
  REQUIRE(c.unused.size() == 1);
  CHECK(c.unused[0].record == 0);
  CHECK(c.unused[0].reason == "nearer_record");
}

TEST_CASE("calibration: unknown keys inside a record are ignored, bad values are coded") {
  const std::string base = R"({"model": "llama-3.1-8b", "quant": "Q4_K_M", "devices": ["rtx-4080"], "calibration": )";
  CHECK(read_plan_json(base + "[" + record("NVIDIA GeForce RTX 4080", "tg",
                                           R"(, "samples_ts": [1, 2], "future_field": {"x": null})") + "]}")
            .errors.empty());
  // One record alone, not in a list, is read as a list of one.
  CHECK(input_of(base + record("NVIDIA GeForce RTX 4080", "tg") + "}").calibration.size() == 1);
  auto first = [&](const std::string& records) {
    const PlanJson read = read_plan_json(base + records + "}");
    REQUIRE(!read.errors.empty());
    return read.errors.front();
  };
  const std::string ok = record("NVIDIA GeForce RTX 4080", "tg");
  Error e = first("[" + ok + R"(, {"gpu_info": "x", "model_size": 1, "model_n_params": 1, "n_prompt": 0,
      "n_gen": 1, "avg_ts": -1}])");
  CHECK(e.code == ErrorCode::negative);
  CHECK(e.field == Field::calibration);
  CHECK(e.index == 1);
  CHECK(e.value == -1);
  CHECK(text::describe(e) == "calibration, record 2: avg_ts must be >= 0 (got -1)");
  e = first(R"([{"gpu_info": "x", "model_size": "big", "model_n_params": 1, "n_prompt": 0, "n_gen": 1, "avg_ts": 1}])");
  CHECK(e.code == ErrorCode::wrong_type);
  CHECK(e.field == Field::model_size);
  CHECK(e.index == 0);
  e = first(R"([{"gpu_info": "x", "model_size": 1, "model_n_params": 1, "n_prompt": 0, "n_gen": "NaN", "avg_ts": 1}])");
  CHECK(e.code == ErrorCode::not_finite);
  CHECK(e.field == Field::n_gen);
  e = first(R"([{"gpu_info": "x", "model_size": 0, "model_n_params": 1, "n_prompt": 0, "n_gen": 1, "avg_ts": 1}])");
  CHECK(e.code == ErrorCode::not_positive);
  CHECK(e.field == Field::model_size);
  e = first(R"([{"gpu_info": "x", "model_size": 1, "model_n_params": 1, "n_prompt": 0, "n_gen": 1}])");
  CHECK(e.code == ErrorCode::missing_field);
  CHECK(e.field == Field::calibration);
  CHECK(text::describe(e) == "calibration, record 1: avg_ts is missing");
  e = first(R"([{"model_size": 1, "model_n_params": 1, "n_prompt": 0, "n_gen": 1, "avg_ts": 1}])");
  CHECK(e.code == ErrorCode::missing_field);
  CHECK(e.field == Field::gpu_info);
  e = first(R"([{"gpu_info": "x", "model_size": 1, "model_n_params": 1, "n_prompt": 0, "n_gen": 1, "avg_ts": "fast"}])");
  CHECK(e.code == ErrorCode::wrong_type);
  CHECK(e.field == Field::calibration);
  CHECK(e.value == 1);  // avg_ts, not the record
  CHECK(text::describe(e) == "calibration, record 1: avg_ts has the wrong type of value (got \"fast\")");
  e = first("[3]");
  CHECK(e.code == ErrorCode::wrong_type);
  CHECK(e.field == Field::calibration);
  CHECK(e.index == 0);
  CHECK(e.value == 0);
  CHECK(text::describe(e) == "calibration, record 1: has the wrong type of value (got 3)");
  e = first("[" + record("NVIDIA GeForce RTX 4080", "tg", R"(, "device": "rtx-9999")") + "]");
  CHECK(e.code == ErrorCode::unknown_id);
  CHECK(e.field == Field::device);
  // The explicit form has no calibration: the key says the input needs a model.
  const PlanJson explicit_form = read_plan_json(R"({"devices": [{"layer_times": [1], "memory_capacity": 1}],
      "layer_memory": [1], "calibration": []})");
  REQUIRE(explicit_form.errors.size() == 1);
  CHECK(explicit_form.errors[0].code == ErrorCode::missing_field);
  CHECK(explicit_form.errors[0].field == Field::model);
}

TEST_CASE("calibration: a record so slow that its device's layer times overflow names its avg_ts") {
  // avg_ts 5e-324 divided every layer time by a factor of about 4e-326: inf,
  // refused as "layer_times, device 1: must be a finite number (got inf)".
  const std::string base = R"({"model": "llama-3.1-8b", "quant": "Q4_K_M", "devices": ["rtx-4080"], "calibration": )";
  double least = 0;
  // A subnormal (5e-324) is refused as any typed number below the smallest normal double is.
  {
    std::string tiny = record("NVIDIA GeForce RTX 4080", "tg");
    tiny.replace(tiny.find("118.881588"), std::strlen("118.881588"), "5e-324");
    const PlanJson read = read_plan_json(base + "[" + tiny + "]}");
    REQUIRE(read.errors.size() == 1);
    CHECK(read.errors.front().code == ErrorCode::too_small);
    CHECK(read.errors.front().limit == heteropipe::limits::kMinNormalNumber);
    CHECK(text::describe(read.errors.front()) ==
          "calibration, record 1: avg_ts is too small to read (got 5e-324): a number other than 0 must be at "
          "least 2.2250738585072014e-308 in size");
  }
  for (const char* avg_ts : {"1e-300"}) {
    CAPTURE(avg_ts);
    std::string slow = record("NVIDIA GeForce RTX 4080", "tg");
    slow.replace(slow.find("118.881588"), std::strlen("118.881588"), avg_ts);
    const PlanJson read = read_plan_json(base + "[" + slow + "]}");
    REQUIRE(read.errors.size() == 1);
    const Error e = read.errors.front();
    CHECK(e.code == ErrorCode::too_small);
    CHECK(e.field == Field::calibration);
    CHECK(e.index == 0);
    CHECK(std::isfinite(e.limit));
    CHECK(text::describe(e).find("calibration, record 1: avg_ts must be at least ") == 0);
    CHECK(text::describe(e).find("inf") == std::string::npos);
    least = e.limit;
  }
  // The least avg_ts it names is the one that plans.
  std::string at_least = record("NVIDIA GeForce RTX 4080", "tg");
  at_least.replace(at_least.find("118.881588"), std::strlen("118.881588"), text::shortest(least * 1.000001));
  CHECK(estimate(input_of(base + "[" + at_least + "]}")).ok());
  CHECK(std::fabs(least - 9.8680606659785736e-16) < 1e-27);
}

TEST_CASE("calibration: a record so fast that its device's layers take under the least stage time names its avg_ts") {
  // avg_ts 1e15 divided every layer time by about 8e12: 8.9e-17, refused as
  // "layer_times: some layer must take at least 1e-15 even on its fastest
  // device (got 8.9e-17)", a key of the explicit form and a number never typed.
  const std::string base = R"({"model": "llama-3.1-8b", "quant": "Q4_K_M", "devices": ["rtx-4080"], "calibration": )";
  std::string fast = record("NVIDIA GeForce RTX 4080", "tg");
  fast.replace(fast.find("118.881588"), std::strlen("118.881588"), "1e15");
  const PlanJson read = read_plan_json(base + "[" + fast + "]}");
  REQUIRE(read.errors.size() == 1);
  const Error e = read.errors.front();
  CHECK(e.code == ErrorCode::too_large);
  CHECK(e.field == Field::calibration);
  CHECK(e.index == 0);
  CHECK(e.value == 1e15);
  REQUIRE(std::isfinite(e.limit));
  CHECK(e.limit < 1e15);
  CHECK(text::describe(e) == "calibration, record 1: avg_ts must be at most 8.94e13 (got 1e15)");
  // The largest avg_ts it names is one that plans.
  std::string at_most = record("NVIDIA GeForce RTX 4080", "tg");
  at_most.replace(at_most.find("118.881588"), std::strlen("118.881588"), text::shortest(e.limit));
  auto planned = estimate(input_of(base + "[" + at_most + "]}"));
  REQUIRE(planned.ok());
  CHECK(make_plan(planned.value()).ok());
}

TEST_CASE("calibration: a record's counts (model_size, model_n_params, n_prompt, n_gen) are whole numbers") {
  // llama-bench writes each as an integer; model_size 5e-324 (bytes) was taken and moved the plan's split
  // to 1 and 31 layers, n_prompt 512.5 read as a prefill of half a token more, both without an error.
  const std::string base = R"({"model": "llama-3.1-8b", "quant": "Q4_K_M", "devices": ["rtx-4080", "rtx-3090"], "calibration": )";
  struct Case {
    const char* from;
    const char* to;
    Field field;
  };
  for (const Case& c : {Case{"4677120000", "1e-300", Field::model_size}, Case{"7615616512", "1e-300", Field::model_n_params},
                        Case{"7615616512", "7615616512.5", Field::model_n_params}, Case{"128", "128.5", Field::n_gen}}) {
    CAPTURE(c.to);
    std::string bad = record("NVIDIA GeForce RTX 4080", "tg");
    bad.replace(bad.find(c.from), std::strlen(c.from), c.to);
    const PlanJson read = read_plan_json(base + "[" + bad + "]}");
    REQUIRE(read.errors.size() == 1);
    CHECK(read.errors[0].code == ErrorCode::not_integer);
    CHECK(read.errors[0].field == c.field);
    CHECK(read.errors[0].index == 0);
  }
  std::string half = record("NVIDIA GeForce RTX 4080", "pp");
  half.replace(half.find("\"n_prompt\": 512"), 15, "\"n_prompt\": 512.5");
  const CalibrationJson file = read_calibration_json(half, 1);
  REQUIRE(file.errors.size() == 1);
  CHECK(text::describe(file.errors[0]) == "n_prompt, record 2: must be a whole number (got 512.5)");
}

TEST_CASE("calibration: llama-bench's output read alone, numbered after the input's records") {
  const CalibrationJson one = read_calibration_json(record("NVIDIA GeForce RTX 4080", "pp"), 2);
  CHECK(one.errors.empty());
  REQUIRE(one.records.size() == 1);
  CHECK(one.records[0].gpu_info == "NVIDIA GeForce RTX 4080");
  CHECK(one.records[0].model_size == kModelSize);
  CHECK(one.records[0].model_n_params == kParams);
  CHECK(one.records[0].n_prompt == 512);
  CHECK(one.records[0].avg_ts == kPrefillTs);
  const CalibrationJson bad = read_calibration_json(R"([{"gpu_info": 1}])", 2);
  REQUIRE(!bad.errors.empty());
  CHECK(bad.errors[0].code == ErrorCode::wrong_type);
  CHECK(bad.errors[0].field == Field::gpu_info);
  CHECK(bad.errors[0].index == 2);
  const CalibrationJson broken = read_calibration_json("[{", 0);
  REQUIRE(broken.errors.size() == 1);
  CHECK(broken.errors[0].code == ErrorCode::not_json);
  CHECK(broken.errors[0].field == Field::calibration);
}

TEST_CASE("calibration: a bench file's values are judged by its reader and quoted as typed") {
  const std::string head = R"({"gpu_info": "x", "model_size": 1, "model_n_params": 1, "n_prompt": 0, "n_gen": 1, )";
  const CalibrationJson nan = read_calibration_json("[" + head + R"("avg_ts": "NaN"}])", 2);
  REQUIRE(nan.errors.size() == 1);
  CHECK(nan.errors[0].code == ErrorCode::not_finite);
  CHECK(nan.errors[0].field == Field::calibration);
  CHECK(nan.errors[0].index == 2);
  CHECK(text::describe(nan.errors[0]) == "calibration, record 3: avg_ts must be a finite number (got \"NaN\")");
  const CalibrationJson huge = read_calibration_json(head + R"("avg_ts": 1e308})", 0);
  REQUIRE(huge.errors.size() == 1);
  CHECK(huge.errors[0].code == ErrorCode::too_large);
  CHECK(huge.errors[0].value == 1e308);
  CHECK(text::describe(huge.errors[0]) == "calibration, record 1: avg_ts must be at most 1e15 (got 1e308)");
  // Another field's, as typed too; a record the reader faulted is not judged again.
  const CalibrationJson both =
      read_calibration_json("[" + head + R"("avg_ts": "fast"}, )" + head + R"("avg_ts": "Infinity"}])", 0);
  REQUIRE(both.errors.size() == 2);
  CHECK(text::describe(both.errors[0]) == "calibration, record 1: avg_ts has the wrong type of value (got \"fast\")");
  CHECK(text::describe(both.errors[1]) == "calibration, record 2: avg_ts must be a finite number (got \"Infinity\")");
  const CalibrationJson inf = read_calibration_json(
      R"({"gpu_info": "x", "model_size": "-Infinity", "model_n_params": 1, "n_prompt": 0, "n_gen": 1, "avg_ts": 1})", 0);
  REQUIRE(inf.errors.size() == 1);
  CHECK(text::describe(inf.errors[0]) == "model_size, record 1: must be a finite number (got \"-Infinity\")");
}

TEST_CASE("calibration: llama-bench -o jsonl, one record per line, reads as the list") {
  const std::string tg = record("NVIDIA GeForce RTX 4080", "tg"), pp = record("NVIDIA GeForce RTX 4080", "pp");
  const CalibrationJson lines = read_calibration_json(tg + "\n" + pp + "\n", 0);
  CHECK(lines.errors.empty());
  REQUIRE(lines.records.size() == 2);
  CHECK(lines.records[0].avg_ts == kDecodeTs);
  CHECK(lines.records[1].avg_ts == kPrefillTs);
  // A list is one value: another after it is no JSON, at the byte where it starts.
  const std::string list = "[" + tg + "]";
  const CalibrationJson two = read_calibration_json(list + "\n[" + pp + "]", 0);
  REQUIRE(two.errors.size() == 1);
  CHECK(two.errors[0].code == ErrorCode::not_json);
  CHECK(two.errors[0].value == static_cast<double>(list.size() + 1));
}

TEST_CASE("calibration: the input's \"calibration\" as a bench file's text (the page's), errors at its bytes") {
  const std::string tg = record("NVIDIA GeForce RTX 4080", "tg"), pp = record("NVIDIA GeForce RTX 4080", "pp");
  const std::string base = R"({"model": "llama-2-7b", "quant": "Q4_0", "devices": ["rtx-4080"], "calibration": )";
  auto quoted = [](const std::string& t) {
    std::string out = "\"";
    for (char c : t) out += c == '"' ? std::string("\\\"") : c == '\n' ? std::string("\\n") : std::string(1, c);
    return out + "\"";
  };
  // The text of a list, of one record and of JSON lines gives the records the list gives.
  const EstimateInput listed = input_of(base + "[" + tg + "," + pp + "]}");
  for (const std::string& text : {"[" + tg + "," + pp + "]", tg + "\n" + pp}) {
    const EstimateInput in = input_of(base + quoted(text) + "}");
    REQUIRE(in.calibration.size() == 2);
    CHECK(in.calibration[0].avg_ts == listed.calibration[0].avg_ts);
    CHECK(in.calibration[1].n_prompt == listed.calibration[1].n_prompt);
  }
  CHECK(input_of(base + quoted(tg) + "}").calibration.size() == 1);
  // Bad JSON: not_json at the byte of the file's text where reading stopped, not of the input's.
  const PlanJson broken = read_plan_json(base + quoted("[" + tg + ",") + "}");
  REQUIRE(broken.errors.size() == 1);
  CHECK(broken.errors[0].code == ErrorCode::not_json);
  CHECK(broken.errors[0].field == Field::calibration);
  CHECK(broken.errors[0].value == static_cast<double>(tg.size() + 2));
  // A record's bad value names the record, as in a list.
  const PlanJson bad = read_plan_json(base + quoted(tg + "\n" + R"({"gpu_info": 1})") + "}");
  REQUIRE(!bad.errors.empty());
  CHECK(bad.errors[0].field == Field::gpu_info);
  CHECK(bad.errors[0].index == 1);
}
