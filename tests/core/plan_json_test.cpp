// The planner's JSON reader (plan_json): both forms, and every refusal coded
// with its field and position.
#include <doctest/doctest.h>

#include <string>

#include <heteropipe/plan_json/read_plan_json.hpp>
#include <heteropipe/text/error_text.hpp>

using namespace heteropipe;

namespace {

Error error_of(const std::string& text) { return read_plan_json(text).error(); }

}  // namespace

TEST_CASE("plan json: the explicit form") {
  const auto request = read_plan_json(R"({"devices": [{"layer_times": [1, 2], "memory_capacity": 5},
      {"layer_times": [2, 2], "memory_capacity": 5}], "layer_memory": [1, 1],
      "links": [{"latency": 0.5, "bandwidth": 2}], "M": 4, "objective": "blocking"})");
  const PlanInput& in = std::get<PlanInput>(request.value());
  CHECK(in.devices[0].layer_times == std::vector<double>{1, 2});
  CHECK(in.links[0].bandwidth == 2);
  CHECK(in.cut_bytes == std::vector<double>{0});  // absent: free cuts
  CHECK(in.M == 4);
  CHECK(in.objective == Objective::blocking);
}

TEST_CASE("plan json: the estimate form, with ids, objects, overrides and measured speeds") {
  const auto request = read_plan_json(R"({"model": "llama-3-70b", "quant": "Q4_K_M",
      "devices": ["rtx-4090", {"id": "rtx-3090", "memory_bandwidth": 9e11},
                  {"memory": 2.5e10, "memory_bandwidth": 4e11, "fp16_flops": 3e13, "device_class": "apple"},
                  {"id": "tesla-p40", "avg_ts": 5.5}],
      "links": ["pcie4-x16", {"id": "nvlink-3090", "latency": 1e-6}, {"latency": 1e-4, "bandwidth": 1.25e9}],
      "phase": "prefill", "tokens": 512, "context": 4096, "M": 2, "objective": "throughput"})");
  const EstimateInput& in = std::get<EstimateInput>(request.value());
  CHECK(in.model == "llama-3-70b");
  CHECK(in.devices.size() == 4);
  CHECK(in.devices[1].memory_bandwidth == 9e11);
  CHECK(in.devices[2].device_class == DeviceClass::apple);
  CHECK(in.devices[3].avg_ts == 5.5);
  CHECK(in.links[1].id == "nvlink-3090");
  CHECK(in.links[1].latency == 1e-6);
  CHECK(in.phase == Phase::prefill);
  CHECK(in.tokens == 512);
  CHECK(in.context == 4096);
  CHECK(in.objective == Objective::throughput);
}

TEST_CASE("plan json: refusals name the field and the position") {
  CHECK(error_of("{\"devices\": [").code == ErrorCode::not_json);
  CHECK(error_of("{\"devices\": [").value == 14);  // all 14 bytes read, then the text ended
  CHECK(text::describe(error_of("[1]")) == "input: has the wrong type of value (got [1])");
  const Error time = error_of(R"({"devices": [{"layer_times": [1, "x"], "memory_capacity": 1}], "layer_memory": [1, 1]})");
  CHECK(time.code == ErrorCode::wrong_type);
  CHECK(time.field == Field::layer_times);
  CHECK(time.index == 0);
  const Error missing = error_of(R"({"model": "llama-3-8b", "devices": ["rtx-4090"]})");
  CHECK(missing.code == ErrorCode::empty);
  CHECK(missing.field == Field::quant);
  const Error device = error_of(R"({"model": "llama-3-8b", "quant": "F16", "devices": ["rtx-4090", 7]})");
  CHECK(device.field == Field::devices);
  CHECK(device.index == 1);
  const Error bandwidth =
      error_of(R"({"model": "llama-3-8b", "quant": "F16", "devices": [{"id": "rtx-4090", "memory_bandwidth": "fast"}]})");
  CHECK(bandwidth.field == Field::memory_bandwidth);
  CHECK(bandwidth.index == 0);
  const Error phase = error_of(R"({"model": "llama-3-8b", "quant": "F16", "devices": ["rtx-4090"], "phase": "train"})");
  CHECK(text::describe(phase) == "phase: must be one of decode, prefill (got 'train')");
  const Error device_class = error_of(
      R"({"model": "llama-3-8b", "quant": "F16", "devices": [{"memory": 1, "device_class": "tpu"}]})");
  CHECK(text::describe(device_class) ==
        "device_class, device 1: must be one of nvidia-gddr, nvidia-hbm, apple (got 'tpu')");
}

TEST_CASE("plan json: NaN and infinities, spelled as JavaScript and Python write them, reach the checks") {
  const auto request = read_plan_json(
      R"({"devices": [{"layer_times": [1, "NaN"], "memory_capacity": 5}], "layer_memory": [1, 1]})");
  const PlanInput& in = std::get<PlanInput>(request.value());
  const Error e = *check_plan_input(in);
  CHECK(e.code == ErrorCode::not_finite);
  CHECK(e.field == Field::layer_times);
  CHECK(text::describe(e) == "layer_times, device 1: must be a finite number (got nan)");
}

TEST_CASE("plan json: the sentences of the estimator's errors") {
  CHECK(text::describe(Error{ErrorCode::unknown_id, Field::devices, 1, 0.0, "rtx-9090"}) ==
        "devices, device 2: 'rtx-9090' is not in the catalog");
  CHECK(text::describe(Error{ErrorCode::not_json, Field::input, kWholeField, 14.0, {}}) ==
        "input: not valid JSON (reading stopped at byte 14)");
  CHECK(text::describe(Error{ErrorCode::out_of_range, Field::tokens, kWholeField, 0.0, {}, 1}) ==
        "tokens: must be between 1 and 1,048,576 (got 0)");
}
