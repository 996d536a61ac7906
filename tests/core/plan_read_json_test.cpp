// The planner's JSON reader (read_plan_json, on the core's JSON cursor): both
// forms, and every refusal coded with its field and position.
#include <doctest/doctest.h>

#include <string>

#include <heteropipe/limits.hpp>
#include <heteropipe/plan/read_json.hpp>
#include <heteropipe/plan/report.hpp>
#include <heteropipe/text/error_text.hpp>

using namespace heteropipe;

namespace {

Error error_of(const std::string& text) {
  const PlanJson read = read_plan_json(text);
  REQUIRE(!read.errors.empty());
  return read.errors.front();
}

std::vector<std::string> sentences(const std::string& text) {
  std::vector<std::string> out;
  for (const Error& e : read_plan_json(text).errors) out.push_back(text::describe(e));
  return out;
}

// A valid explicit input with `extra` keys added at its top level.
std::string explicit_with(const std::string& extra) {
  return R"({"devices": [{"layer_times": [1], "memory_capacity": 1}], "layer_memory": [1])" + extra + "}";
}

}  // namespace

TEST_CASE("plan json: the explicit form") {
  const auto read = read_plan_json(R"({"devices": [{"layer_times": [1, 2], "memory_capacity": 5},
      {"layer_times": [2, 2], "memory_capacity": 5}], "layer_memory": [1, 1],
      "links": [{"latency": 0.5, "bandwidth": 2}], "M": 4, "objective": "blocking"})");
  REQUIRE(read.errors.empty());
  const PlanInput& in = std::get<PlanInput>(read.request);
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
  REQUIRE(request.errors.empty());
  const EstimateInput& in = std::get<EstimateInput>(request.request);
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
  CHECK(error_of("{\"devices\": [").value == 13);  // all 13 bytes read, then the text ended
  CHECK(text::describe(error_of("[1]")) == "input: has the wrong type of value (got [1])");
  // Nothing to read: empty, not bad JSON at byte 0.
  for (const char* blank : {"", " \n", "\r\n\t"}) {
    CHECK(error_of(blank).code == ErrorCode::empty);
    CHECK(error_of(blank).field == Field::input);
    CHECK(text::describe(error_of(blank)) == "input: is empty");
  }
  const Error time = error_of(R"({"devices": [{"layer_times": [1, "x"], "memory_capacity": 1}], "layer_memory": [1, 1]})");
  CHECK(time.code == ErrorCode::wrong_type);
  CHECK(time.field == Field::layer_times);
  CHECK(time.index == 0);
  const Error missing = error_of(R"({"model": "llama-3-8b", "devices": ["rtx-4090"]})");
  CHECK(missing.code == ErrorCode::missing_field);
  CHECK(text::describe(missing) == "quant: is missing");
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
        "device_class, device 1: must be one of nvidia-gddr, nvidia-hbm, apple, amd-gddr, amd-hbm, intel-gddr "
        "(got 'tpu')");
}

TEST_CASE("plan json: NaN and infinities, spelled as JavaScript and Python write them, reach the checks") {
  const auto request = read_plan_json(
      R"({"devices": [{"layer_times": [1, "NaN"], "memory_capacity": 5}], "layer_memory": [1, 1]})");
  REQUIRE(request.errors.size() == 1);
  // Quoted as typed in the JSON; the struct's own check has only the number.
  CHECK(text::describe(request.errors[0]) == "layer_times, device 1: must be a finite number (got \"NaN\")");
  const PlanInput& in = std::get<PlanInput>(request.request);
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

TEST_CASE("plan json: a wrong-typed value nested 100,000 deep is a wrong type, read without recursion") {
  const std::string deep = "{\"M\":" + std::string(100000, '[') + std::string(100000, ']') +
                           R"(,"devices":[{"layer_times":[1],"memory_capacity":1}],"layer_memory":[1]})";
  const std::vector<std::string> said = sentences(deep);
  REQUIRE(said.size() == 1);
  CHECK(said[0] == "M: has the wrong type of value (got " + std::string(40, '[') + "...)");
  // Deep text that is not JSON is still only that.
  CHECK(error_of("{\"M\":" + std::string(100000, '[')).code == ErrorCode::not_json);
}

TEST_CASE("plan json: every error names its key") {
  CHECK(sentences(explicit_with(R"(, "allow_idle_devices": "yes")")) ==
        std::vector<std::string>{"allow_idle_devices: has the wrong type of value (got \"yes\")"});
  CHECK(sentences(explicit_with(R"(, "allow_idle_devices": null)")) ==
        std::vector<std::string>{"allow_idle_devices: has the wrong type of value (got null)"});
  CHECK(sentences(R"({"model": "llama-3-8b", "quant": "F16", "devices": [{"id": 7}]})") ==
        std::vector<std::string>{"id, item 1: has the wrong type of value (got 7)"});
}

TEST_CASE("plan json: counts by the calculator's count rules, numbers past the range named by field") {
  CHECK(sentences(explicit_with(R"(, "M": 9007199254740993)")) ==
        std::vector<std::string>{"M: must be between 1 and 2^53 (got 9007199254740993)"});
  CHECK(error_of(explicit_with(R"(, "M": 0.99999999999999999)")).code == ErrorCode::not_integer);
  CHECK(error_of(R"({"model": "llama-3-8b", "quant": "F16", "devices": ["rtx-4090"], "tokens": 2.5})").field ==
        Field::tokens);
  const Error M = error_of(explicit_with(R"(, "M": 1e400)"));
  CHECK(M.code == ErrorCode::out_of_range);
  CHECK(M.limit == limits::kMaxBatches);
  CHECK(M.field == Field::M);
  const Error time = error_of(R"({"devices": [{"layer_times": [1e400], "memory_capacity": 1}], "layer_memory": [1]})");
  CHECK(text::describe(time) == "layer_times, device 1: must be at most 1e15 (got 1e400)");
  const auto fine = read_plan_json(explicit_with(R"(, "M": 9007199254740992)"));
  REQUIRE(fine.errors.empty());
  CHECK(std::get<PlanInput>(fine.request).M == 9007199254740992.0);
}

TEST_CASE("plan json: unknown keys are refused with the nearest known key") {
  CHECK(sentences(explicit_with(R"(, "objectve": "blocking")")) ==
        std::vector<std::string>{"input: unknown key 'objectve' (did you mean objective?)"});
  CHECK(sentences(explicit_with(R"(, "allow_idle_device": true)")) ==
        std::vector<std::string>{"input: unknown key 'allow_idle_device' (did you mean allow_idle_devices?)"});
  CHECK(sentences(explicit_with(R"(, "colour": 1)")) == std::vector<std::string>{"input: unknown key 'colour'"});
  CHECK(sentences(R"({"devices": [{"layer_times": [1], "memory_capacity": 1, "memory_capacty": 2}], "layer_memory": [1]})") ==
        std::vector<std::string>{"device 1: unknown key 'memory_capacty' (did you mean memory_capacity?)"});
  CHECK(sentences(R"({"model": "llama-3-8b", "quant": "F16", "devices": [{"id": "rtx-4090", "memroy": 1}]})") ==
        std::vector<std::string>{"device 1: unknown key 'memroy' (did you mean memory?)"});
  const Error unknown = error_of(explicit_with(R"(, "objectve": 1)"));
  CHECK(unknown.code == ErrorCode::unknown_key);
  CHECK(unknown.field == Field::objective);
  CHECK(unknown.value == 1);
  CHECK(unknown.token == "objectve");
}

TEST_CASE("plan json: a key of the other form, and quant without a model") {
  CHECK(sentences(R"({"model": "llama-3-8b", "quant": "F16", "devices": ["rtx-4090"], "layer_memory": [1]})") ==
        std::vector<std::string>{
            "layer_memory: is a key of the explicit form, and an input with a model is the estimate form"});
  CHECK(sentences(explicit_with(R"(, "quant": "F16")")) == std::vector<std::string>{"model: is missing"});
  CHECK(sentences(R"({"quant": "F16", "devices": ["rtx-4090"]})") ==
        std::vector<std::string>{"model: is missing", "devices, device 1: has the wrong type of value (got \"rtx-4090\")",
                                 "layer_memory: is missing"});
}

TEST_CASE("plan json: explicit links may be left out: free links") {
  const auto read = read_plan_json(R"({"devices": [{"layer_times": [1, 2], "memory_capacity": 5},
      {"layer_times": [2, 1], "memory_capacity": 5}], "layer_memory": [1, 1]})");
  REQUIRE(read.errors.empty());
  const PlanInput& in = std::get<PlanInput>(read.request);
  REQUIRE(in.links.size() == 1);
  CHECK(in.links[0].latency == 0);
  CHECK(in.cut_bytes == std::vector<double>{0});
  const auto report = make_plan_report(read.request);
  REQUIRE(report.ok());
  // Cut sizes without links would cost nothing: refused, not ignored.
  CHECK(sentences(explicit_with(R"(, "cut_bytes": [])")) == std::vector<std::string>{"links: is missing"});
}

TEST_CASE("plan json: bytes after a NUL are refused; a byte-order mark is skipped") {
  const std::string valid = explicit_with("");
  const Error nul = error_of(valid + std::string("\0garbage", 8));
  CHECK(nul.code == ErrorCode::not_json);
  CHECK(nul.value == static_cast<double>(valid.size()));
  CHECK(read_plan_json("\xEF\xBB\xBF" + valid).errors.empty());
  CHECK(error_of("\xEF\xBB\xBF").code == ErrorCode::not_json);
}

TEST_CASE("plan json: a key given twice in one object is refused at the second, never read as the last") {
  // {"M": 1, "M": 2} planned M = 2, a device's "avg_ts" given twice took the
  // second, and a record's avg_ts likewise: which value holds is not defined.
  const PlanJson twice = read_plan_json(explicit_with(R"(, "M": 1, "M": 2)"));
  REQUIRE(twice.errors.size() == 1);
  const Error e = twice.errors.front();
  CHECK(e.code == ErrorCode::duplicate_key);
  CHECK(e.field == Field::M);
  CHECK(e.index == kWholeField);
  CHECK(e.token == "M");
  CHECK(text::describe(e) == "M: key 'M' is given a second time in its object (which of its values holds is not "
                             "defined)");
  CHECK(sentences(R"({"model": "llama-3-8b", "quant": "Q4_K_M",
                      "devices": ["rtx-4090", {"id": "rtx-3090", "avg_ts": 50, "avg_ts": 60}]})") ==
        std::vector<std::string>{"avg_ts, device 2: key 'avg_ts' is given a second time in its object (which of "
                                 "its values holds is not defined)"});
  // A record's avg_ts is field calibration, the record its index.
  const CalibrationJson records = read_calibration_json(
      R"({"gpu_info": "NVIDIA GeForce RTX 4090", "model_size": 1e9, "model_n_params": 1e9, "n_prompt": 0,
          "n_gen": 128, "avg_ts": 50, "avg_ts": 60})", 0);
  REQUIRE(records.errors.size() == 1);
  CHECK(records.errors[0].code == ErrorCode::duplicate_key);
  CHECK(text::describe(records.errors[0]) == "calibration, record 1: key 'avg_ts' is given a second time in its "
                                             "object (which of its values holds is not defined)");
  // Each object keeps its own keys: two devices may both give avg_ts.
  CHECK(read_plan_json(R"({"model": "llama-3-8b", "quant": "Q4_K_M",
                           "devices": [{"id": "rtx-4090", "avg_ts": 50}, {"id": "rtx-3090", "avg_ts": 60}]})")
            .errors.empty());
}

TEST_CASE("plan json: every bad field is reported, in the order of the text") {
  CHECK(sentences(R"({"devices": [{"layer_times": [1, "x", "y"]}, 3], "M": "many", "objective": "fast",
                      "layer_memory": [true]})") ==
        std::vector<std::string>{"layer_times, device 1: has the wrong type of value (got \"x\")",
                                 "memory_capacity, device 1: is missing",
                                 "devices, device 2: has the wrong type of value (got 3)",
                                 "M: 'many' is not a number",
                                 "objective: must be one of async, blocking, throughput (got 'fast')",
                                 "layer_memory, layer 1: has the wrong type of value (got true)"});
}

TEST_CASE("plan json: the values' errors too, one per field, device and link, quoted as typed") {
  CHECK(sentences(R"({"devices": [{"layer_times": [1, -2], "memory_capacity": -1},
                                  {"layer_times": [1, 1], "memory_capacity": 2e15}],
                      "layer_memory": [1, 1], "links": [{"latency": -1e20, "bandwidth": 0}], "M": 0})") ==
        std::vector<std::string>{"M: must be between 1 and 2^53 (got 0)",
                                 "layer_times, device 1: must be >= 0 (got -2)",
                                 "memory_capacity, device 1: must be >= 0 (got -1)",
                                 "memory_capacity, device 2: must be at most 1e15 bytes (got 2e15)",
                                 "latency, link 1: must be >= 0 (got -1e20)",
                                 "bandwidth, link 1: must be > 0 (got 0)"});
  // The reader's own error on a field is its only one: 1e400 is not also "at most 1e15".
  CHECK(sentences(R"({"devices": [{"layer_times": [1e400], "memory_capacity": -1}], "layer_memory": [1]})") ==
        std::vector<std::string>{"layer_times, device 1: must be at most 1e15 (got 1e400)",
                                 "memory_capacity, device 1: must be >= 0 (got -1)"});
  // Nor is what several fields decide together judged on a stand-in (no "too_small" for the 1e400 read as 0).
  CHECK(sentences(R"({"M": 1e400, "devices": [{"layer_times": [1e400], "memory_capacity": 1}], "layer_memory": [1]})") ==
        std::vector<std::string>{"M: must be between 1 and 2^53 (got 1e400)", "layer_times, device 1: must be at most 1e15 (got 1e400)"});
  // Without the frame (no devices list) nothing else is judged.
  CHECK(sentences(R"({"devices": 3, "layer_memory": [-1]})") ==
        std::vector<std::string>{"devices: has the wrong type of value (got 3)"});
  CHECK(sentences(R"({"model": "llama-3-8b", "quant": "Q8_0",
                      "devices": [{"memory": 2e15, "memory_bandwidth": 4e11, "fp16_flops": 1.6e13},
                                  {"memory": 3.4e10, "memory_bandwidth": -1, "fp16_flops": 1.6e13}],
                      "links": [{"latency": -1, "bandwidth": 1e9}], "tokens": 0})") ==
        std::vector<std::string>{"tokens: must be between 1 and 1,048,576 (got 0)",
                                 "memory, device 1: must be at most 1e15 bytes (got 2e15)",
                                 "memory_bandwidth, device 2: must be >= 0 (got -1)",
                                 "latency, link 1: must be >= 0 (got -1)"});
  // A good input has none, and check_plan_input is the first of them.
  CHECK(read_plan_json(explicit_with("")).errors.empty());
}

TEST_CASE("plan json: a thousand bad keys give the first kMaxInputErrors errors, not a thousand") {
  std::string extra;
  for (int k = 0; k < 1000; ++k) extra += ", \"colour" + std::to_string(k) + "\": 1";
  const PlanJson read = read_plan_json(explicit_with(extra));
  REQUIRE(read.errors.size() == limits::kMaxInputErrors);
  CHECK(text::describe(read.errors.front()) == "input: unknown key 'colour0'");
  CHECK(text::describe(read.errors.back()) == "input: unknown key 'colour99'");
  // The value checks' errors stop there too: 300 devices of bad values.
  std::string devices;
  for (int s = 0; s < 300; ++s) devices += std::string(s ? ", " : "") + R"({"layer_times": [-1], "memory_capacity": -1})";
  CHECK(read_plan_json(R"({"devices": [)" + devices + R"(], "layer_memory": [1]})").errors.size() == 1);  // too_many
  devices.clear();
  for (int s = 0; s < 256; ++s) devices += std::string(s ? ", " : "") + R"({"layer_times": [-1], "memory_capacity": -1})";
  CHECK(read_plan_json(R"({"devices": [)" + devices + R"(], "layer_memory": [1]})").errors.size() == limits::kMaxInputErrors);
}

TEST_CASE("plan json: lists of millions of bad numbers report each list's first, quoted as typed") {
  // 256 devices of 8,000 negative times each: every one is out of range, and
  // the reader once kept the text of each and matched every error against all
  // of them (minutes, and a gigabyte, at 40,000 each; the time is in
  // docs/benchmarks.md, as tests assert values, not speed).
  std::string times = "-1e0";
  for (int k = 1; k < 8000; ++k) times += ", -" + std::to_string(k);
  std::string devices;
  for (int s = 0; s < 256; ++s) devices += std::string(s ? ", " : "") + R"({"layer_times": [)" + times + R"(], "memory_capacity": 1})";
  const PlanJson read = read_plan_json(R"({"devices": [)" + devices + R"(], "layer_memory": [1, 1]})");
  REQUIRE(!read.errors.empty());
  CHECK(text::describe(read.errors.front()) == "layer_times, device 1: needs L = 2 layer times, one per layer (got 8000)");
  // With the right length, each device's first bad time is quoted as typed.
  CHECK(sentences(R"({"devices": [{"layer_times": [-1e0, -2e0], "memory_capacity": 1}], "layer_memory": [-3e0, -4]})") ==
        std::vector<std::string>{"layer_times, device 1: must be >= 0 (got -1e0)", "layer_memory, layer 1: must be >= 0 (got -3e0)"});
}

TEST_CASE("plan json: a device's memory and bandwidth typed with their units, quoted as typed in errors") {
  const auto read = read_plan_json(R"({"model": "llama-3-8b", "quant": "F16",
      "devices": [{"memory": "24 GiB", "memory_bandwidth": "1008 GB/s", "fp16_flops": 8.26e13},
                  {"memory": "1.5TiB", "memory_bandwidth": " 2 TB/s ", "fp16_flops": 1e14},
                  {"memory": "512 MiB", "memory_bandwidth": "1 GiB/s", "fp16_flops": 1e12},
                  {"memory": "8e9 B", "memory_bandwidth": "5e11 B/s", "fp16_flops": 1e12}]})");
  REQUIRE(read.errors.empty());
  const EstimateInput& in = std::get<EstimateInput>(read.request);
  CHECK(in.devices[0].memory == 24.0 * 1073741824.0);
  CHECK(in.devices[0].memory_bandwidth == 1008e9);
  CHECK(in.devices[1].memory == 1.5 * 1099511627776.0);
  CHECK(in.devices[1].memory_bandwidth == 2e12);
  CHECK(in.devices[2].memory == 512.0 * 1048576.0);
  CHECK(in.devices[2].memory_bandwidth == 1073741824.0);
  CHECK(in.devices[3].memory == 8e9);
  CHECK(in.devices[3].memory_bandwidth == 5e11);
  // The same device typed in bytes plans the same.
  const auto bytes = read_plan_json(R"({"model": "llama-3-8b", "quant": "F16",
      "devices": [{"memory": 25769803776, "memory_bandwidth": 1008000000000, "fp16_flops": 8.26e13}]})");
  CHECK(std::get<EstimateInput>(bytes.request).devices[0].memory == in.devices[0].memory);
  // A value check quotes the text typed, unit and all; a bad number names the number typed; an
  // unknown unit is text of the wrong type.
  const auto one = [](const std::string& memory, const std::string& bandwidth) {
    return sentences(R"({"model": "llama-3-8b", "quant": "F16", "devices": [{"memory": )" + memory +
                     R"(, "memory_bandwidth": )" + bandwidth + R"(, "fp16_flops": 1e12}]})");
  };
  CHECK(one(R"("-1 GiB")", R"("1 TB/s")") == std::vector<std::string>{"memory, device 1: must be >= 0 (got -1 GiB)"});
  CHECK(one(R"("24 GiB")", R"("0 GB/s")") ==
        std::vector<std::string>{"memory_bandwidth, device 1: must be > 0 (got 0 GB/s)"});
  CHECK(one(R"("24 GiB")", R"("x GB/s")") == std::vector<std::string>{"memory_bandwidth, device 1: 'x' is not a number"});
  // A number in a unit the reader has not, coded unknown_unit with the text as typed; the sentence lists the
  // units it has. Text with no digit is no number; blanks alone are empty.
  CHECK(one(R"("24 parsecs")", R"("1 TB/s")") ==
        std::vector<std::string>{"memory, device 1: '24 parsecs' is in no unit heteropipe reads "
                                 "(TiB, GiB, MiB, TB, GB, MB, B)"});
  CHECK(one(R"("24 gb")", R"("1 TBps")") ==
        std::vector<std::string>{"memory, device 1: '24 gb' is in no unit heteropipe reads "
                                 "(TiB, GiB, MiB, TB, GB, MB, B)",
                                 "memory_bandwidth, device 1: '1 TBps' is in no unit heteropipe reads "
                                 "(TB/s, GB/s, MB/s, GiB/s, B/s)"});
  CHECK(one(R"("24 KiB")", R"("1 KB/s")") ==
        std::vector<std::string>{"memory, device 1: '24 KiB' is in no unit heteropipe reads "
                                 "(TiB, GiB, MiB, TB, GB, MB, B)",
                                 "memory_bandwidth, device 1: '1 KB/s' is in no unit heteropipe reads "
                                 "(TB/s, GB/s, MB/s, GiB/s, B/s)"});
  CHECK(one(R"("1e10")", R"("1 TB/s")") ==
        std::vector<std::string>{"memory, device 1: '1e10' is in no unit heteropipe reads "
                                 "(TiB, GiB, MiB, TB, GB, MB, B)"});
  CHECK(one(R"("twenty GiB")", R"("1 TB/s")") == std::vector<std::string>{"memory, device 1: 'twenty' is not a number"});
  CHECK(one(R"("-.5 kg")", R"("+1 TBps")") ==
        std::vector<std::string>{"memory, device 1: '-.5 kg' is in no unit heteropipe reads (TiB, GiB, MiB, TB, GB, MB, B)",
                                 "memory_bandwidth, device 1: '+1 TBps' is in no unit heteropipe reads "
                                 "(TB/s, GB/s, MB/s, GiB/s, B/s)"});
  // Text that does not start as a number is no quantity at all (a Python object's str(), say).
  CHECK(one(R"("lots")", R"("1 TB/s")") ==
        std::vector<std::string>{"memory, device 1: has the wrong type of value (got \"lots\")"});
  CHECK(one(R"("{1, 2}")", R"("1 TB/s")") ==
        std::vector<std::string>{"memory, device 1: has the wrong type of value (got \"{1, 2}\")"});
  CHECK(one(R"("  ")", R"("1 TB/s")") == std::vector<std::string>{"memory, device 1: is empty"});
  const auto units = read_plan_json(R"({"model": "llama-3-8b", "quant": "F16", "devices": [{"memory": " 24 kg ",
      "memory_bandwidth": "1 TB/s", "fp16_flops": 1e12}, {"id": "rtx-4090", "memory": "\uff12\uff14 GiBs"}]})");
  REQUIRE(units.errors.size() == 2);
  CHECK(units.errors[0].code == ErrorCode::unknown_unit);
  CHECK(units.errors[0].field == Field::memory);
  CHECK(units.errors[0].index == 0);
  CHECK(units.errors[0].token == "24 kg");
  CHECK(units.errors[1].code == ErrorCode::unknown_unit);
  CHECK(units.errors[1].index == 1);
  CHECK(units.errors[1].token == "\xEF\xBC\x92\xEF\xBC\x94 GiBs");
}

TEST_CASE("plan json: a device's FP16 rate typed with its unit, read by the core's parser") {
  const auto flops = [](const std::string& typed) {
    return read_plan_json(R"({"model": "llama-3-8b", "quant": "F16", "devices": [{"memory": "24 GiB",
        "memory_bandwidth": "1008 GB/s", "fp16_flops": )" + typed + "}]}");
  };
  const auto rate = [&](const std::string& typed) {
    const auto read = flops(typed);
    REQUIRE(read.errors.empty());
    return std::get<EstimateInput>(read.request).devices[0].fp16_flops;
  };
  CHECK(rate("8.26e13") == 8.26e13);
  CHECK(rate(R"("8.26e13 FLOP/s")") == 8.26e13);
  CHECK(rate(R"("165 TFLOP/s")") == 165e12);
  CHECK(rate(R"("1.5 PFLOP/s")") == 1.5e15);
  CHECK(rate(R"("900 GFLOP/s")") == 900e9);
  CHECK(rate("\"\xEF\xBC\x91\xEF\xBC\x92 TFLOP/s\"") == 12e12);  // full-width digits, as every typed number
  // As datasheets write them too.
  CHECK(rate(R"("165 TFLOPS")") == 165e12);
  CHECK(rate(R"("1.5 PFLOPS")") == 1.5e15);
  CHECK(rate(R"("900 GFLOPS")") == 900e9);
  CHECK(rate(R"("8.26e13 FLOPS")") == 8.26e13);
  // Its errors as the other facts': empty, not a number, a value check quoting the text and unit.
  const auto said = [&](const std::string& typed) {
    const auto read = flops(typed);
    REQUIRE(read.errors.size() == 1);
    return text::describe(read.errors[0]);
  };
  CHECK(said(R"(" FLOP/s")") == "fp16_flops, device 1: is empty");
  CHECK(said(R"("abc FLOP/s")") == "fp16_flops, device 1: 'abc' is not a number");
  CHECK(said(R"("-1 FLOP/s")") == "fp16_flops, device 1: must be >= 0 (got -1 FLOP/s)");
  CHECK(said(R"("1 parsec")") == "fp16_flops, device 1: '1 parsec' is in no unit heteropipe reads "
                                 "(PFLOP/s, TFLOP/s, GFLOP/s, FLOP/s, PFLOPS, TFLOPS, GFLOPS, FLOPS)");
  // NaN and the infinities as JavaScript and Python write them stay numbers the checks refuse by
  // name, for every fact that takes a unit too.
  const auto code = [](const std::string& key, const std::string& word) {
    const auto read = read_plan_json(R"({"model": "llama-3-8b", "quant": "F16", "devices": [{"id": "rtx-4090", ")" + key +
                                     R"(": ")" + word + R"("}]})");
    REQUIRE(read.errors.size() == 1);
    return read.errors[0].code;
  };
  for (const char* key : {"memory", "memory_bandwidth", "fp16_flops"}) {
    CHECK(code(key, "NaN") == ErrorCode::not_finite);
    CHECK(code(key, "Infinity") == ErrorCode::not_finite);
    CHECK(code(key, "-Infinity") == ErrorCode::not_finite);
  }
}

namespace {

// The facts `heteropipe model tests/data/gguf/gqa.gguf --json` prints (3 layers,
// 4 heads over 2 KV heads), with one key's value replaced, as the plan input's model.
std::string model_input_with(const std::string& key, const std::string& value) {
  std::string facts = R"("layers": 3, "nextn_predict_layers": 0, "n_embd": 128, "n_head": 4, "n_head_kv": 2, "context_length": 4096,
      "expert_count": 0, "expert_used_count": 0, "key_length": 64, "value_length": 64,
      "feed_forward_length": 256, "vocab_size": 128, "sliding_window": 128, "sliding_layers": [1, 0, 1],
      "attention_layers": [1, 1, 1], "kv_layers": [1, 1, 1], "recurrent_layers": [0, 0, 0],
      "layer_bytes": [209920, 209920, 209920], "active_layer_bytes": [209920, 209920, 209920],
      "active_layer_params": [196864, 196864, 196864], "embedding_bytes": 17408, "output_bytes": 17920,
      "kv_bytes_per_token": 1536, "recurrent_bytes_per_sequence": 0)";
  const std::string quoted_key = "\"" + key + "\": ";
  const std::size_t at = facts.find(quoted_key);
  REQUIRE(at != std::string::npos);
  const std::size_t begin = at + quoted_key.size();
  const std::size_t end = facts[begin] == '[' ? facts.find(']', begin) + 1 : facts.find_first_of(",", begin);
  facts.replace(begin, end - begin, value);
  return R"({"model": {)" + facts + R"(}, "devices": ["rtx-3060-12gb", "rtx-3060-12gb"], "M": 4})";
}

}  // namespace

TEST_CASE("read_json: a model object whose facts contradict each other is refused, naming the fact and layer") {
  CHECK(read_plan_json(model_input_with("n_head", "4")).errors.empty());
  // sliding_layers may be empty: no layer slides (the form before it was a fact).
  CHECK(read_plan_json(model_input_with("sliding_layers", "[]")).errors.empty());
  // attention_layers and recurrent_layers too: every layer attends, the state (none here) is spread over all.
  CHECK(read_plan_json(model_input_with("attention_layers", "[]")).errors.empty());
  CHECK(read_plan_json(model_input_with("recurrent_layers", "[]")).errors.empty());
  // An object written before kv_layers: attention_layers marks the layers that keep the cache.
  std::string before = model_input_with("attention_layers", "[0, 1, 0]");
  before.erase(before.find(R"("kv_layers": [1, 1, 1], )"), std::string(R"("kv_layers": [1, 1, 1], )").size());
  CHECK(read_plan_json(before).errors.empty());
  CHECK(sentences(model_input_with("attention_layers", "[0, 1, 0]")) ==
        std::vector<std::string>{"kv_layers, layer 1: must be at most attention_layers = 0 (got 1)"});
  // kv_layers absent or empty: the attending layers keep the cache; a layer may attend with none of its own.
  CHECK(read_plan_json(model_input_with("kv_layers", "[]")).errors.empty());
  CHECK(read_plan_json(model_input_with("kv_layers", "[1, 0, 0]")).errors.empty());
  struct Case {
    const char* key;
    const char* value;
    const char* sentence;
  };
  const Case cases[] = {
      {"expert_used_count", "2", "expert_used_count: must be at most expert_count = 0 (got 2)"},
      {"n_head", "0", "n_head: must be > 0 (got 0)"},
      {"n_head_kv", "8", "n_head_kv: must be at most n_head = 4 (got 8)"},
      {"n_head_kv", "3", "n_head_kv: must divide n_head = 4 (got 3)"},
      {"layer_bytes", "[209920, 209920]", "layer_bytes: needs layers = 3 values, one per layer (got 2)"},
      {"layer_bytes", "[209920, 0, 209920]", "layer_bytes, layer 2: must be > 0 (got 0)"},
      {"active_layer_bytes", "[209920, 209921, 209920]",
       "active_layer_bytes, layer 2: must be at most layer_bytes = 209920 (got 209921)"},
      {"n_embd", "0", "n_embd: must be > 0 (got 0)"},
      {"nextn_predict_layers", "3", "nextn_predict_layers: must be at most layers - 1 = 2 (got 3)"},
      {"nextn_predict_layers", "-1", "nextn_predict_layers: must be between 0 and 2^53 (got -1)"},
      {"recurrent_bytes_per_sequence", "-1", "recurrent_bytes_per_sequence: must be >= 0 (got -1)"},
      {"sliding_layers", "[1, 0]", "sliding_layers: needs layers = 3 values, one per layer, or none (got 2)"},
      {"sliding_layers", "[1, 2, 0]",
       "sliding_layers, layer 2: must be 0 (attends to every position) or 1 (slides) (got 2)"},
      {"attention_layers", "[1, 0]", "attention_layers: needs layers = 3 values, one per layer, or none (got 2)"},
      {"attention_layers", "[1, 2, 0]",
       "attention_layers, layer 2: must be 0 (does not attend) or 1 (attends) (got 2)"},
      {"attention_layers", "[1, 0, 0]",
       "kv_layers, layer 2: must be at most attention_layers = 0 (got 1)"},
      {"kv_layers", "[1, 1]", "kv_layers: needs layers = 3 values, one per layer, or none (got 2)"},
      {"kv_layers", "[1, 0.5, 0]", "kv_layers, layer 2: must be 0 (keeps no KV cache) or 1 (keeps one) (got 0.5)"},
      {"kv_layers", "[0, 0, 0]", "kv_layers: needs a 1 on at least one layer that runs, as kv_bytes_per_token is above 0"},
      {"recurrent_layers", "[0, 0, 0, 0]", "recurrent_layers: needs layers = 3 values, one per layer, or none (got 4)"},
      {"recurrent_layers", "[0, 0, 0.5]",
       "recurrent_layers, layer 3: must be 0 (holds no recurrent state) or 1 (holds one) (got 0.5)"},
      {"recurrent_bytes_per_sequence", "8",
       "recurrent_layers: needs a 1 on at least one layer that runs, as recurrent_bytes_per_sequence is above 0"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.key);
    CAPTURE(c.value);
    CHECK(sentences(model_input_with(c.key, c.value)) == std::vector<std::string>{c.sentence});
  }
  // A mixture: more experts used than it has, or none.
  std::string moe = model_input_with("expert_count", "8");
  CHECK(sentences(moe) == std::vector<std::string>{"expert_used_count: must be > 0 (got 0)"});
  moe.replace(moe.find(R"("expert_used_count": 0)"), 22, R"("expert_used_count": 9)");
  const Error e = error_of(moe);
  CHECK(e.code == ErrorCode::above_fact);
  CHECK(e.field == Field::expert_used_count);
  CHECK(e.value == 9);
  CHECK(e.token == "expert_count");
  CHECK(e.limit == 8);
  moe.replace(moe.find(R"("expert_used_count": 9)"), 22, R"("expert_used_count": 2)");
  CHECK(read_plan_json(moe).errors.empty());
  // A model without attention says so with every head fact 0.
  std::string no_heads = model_input_with("n_head", "0");
  for (const char* key : {"n_head_kv", "key_length", "value_length", "kv_bytes_per_token"}) {
    const std::string from = std::string("\"") + key + "\": ";
    const std::size_t at = no_heads.find(from) + from.size();
    no_heads.replace(at, no_heads.find_first_of(",}", at) - at, "0");
  }
  CHECK(read_plan_json(no_heads).errors.empty());
}

TEST_CASE("plan json: a number past the double range is judged by its field's own check") {
  // context -1e400 said "must be at most 1e15": it is refused as -1 is, 1e400 past the field's largest.
  const std::string estimate = R"({"model": "llama-2-7b", "quant": "Q4_0", "devices": ["rtx-4090"], )";
  for (const char* key : {"context", "tokens"}) {
    const Error far = error_of(estimate + "\"" + key + "\": -1e400}");
    const Error near = error_of(estimate + "\"" + key + "\": -1}");
    CHECK(far.field == near.field);
    CHECK(far.code == near.code);
    CHECK(far.limit == near.limit);
    CHECK(far.token == "-1e400");
    const Error high = error_of(estimate + "\"" + key + "\": 1e400}");
    CHECK(high.code == ErrorCode::out_of_range);
    CHECK(high.limit == (std::string(key) == "context" ? limits::kMaxEstimateContext : limits::kMaxEstimateTokens));
  }
  CHECK(sentences(estimate + R"("context": -1e400})") ==
        std::vector<std::string>{"context: must be between 0 and 16,777,216 (got -1e400)"});
  CHECK(sentences(estimate + R"("context": 1e400})") ==
        std::vector<std::string>{"context: must be between 0 and 16,777,216 (got 1e400)"});
  const Error M = error_of(explicit_with(R"(, "M": -1e400)"));
  CHECK(M.code == error_of(explicit_with(R"(, "M": -1)")).code);
  CHECK(M.limit == limits::kMinBatches);
  CHECK(sentences(R"({"devices": [{"layer_times": [1], "memory_capacity": -1e400}], "layer_memory": [1]})") ==
        std::vector<std::string>{"memory_capacity, device 1: must be >= 0 (got -1e400)"});
  CHECK(sentences(R"({"model": "llama-2-7b", "quant": "Q4_0", "devices": [{"id": "rtx-4090", "avg_ts": -1e400}]})") ==
        std::vector<std::string>{"avg_ts, device 1: must be >= 0 (got -1e400)"});
}

TEST_CASE("plan json: a number past the double range is reported where its field's check reports any") {
  // latency -1e400 was refused while reading, so it came first; -1 comes after M and the devices.
  const std::string before = R"({"devices": [{"layer_times": [1, -2], "memory_capacity": -1},
                                 {"layer_times": [1, 1], "memory_capacity": 2e15}],
                     "layer_memory": [1, 1], "links": [{"latency": )";
  const std::string after = R"(, "bandwidth": 0}], "M": 0})";
  for (const char* far : {"-1e400", "1e400"}) {
    CAPTURE(far);
    std::vector<std::string> near = sentences(before + (far[0] == '-' ? "-1" : "2e15") + after);
    for (std::string& line : near) {
      for (const char* typed : {"(got -1)", "(got 2e15)"}) {
        if (line.find(typed) != std::string::npos && line.rfind("latency", 0) == 0) {
          line.replace(line.find(typed), std::string(typed).size(), std::string("(got ") + far + ")");
        }
      }
    }
    CHECK(sentences(before + far + after) == near);
    CHECK(near.size() == 6);
  }
  // The error holds no stand-in number: its token is what was typed, as the parser's errors' is.
  const Error e = error_of(R"({"devices": [{"layer_times": [1], "memory_capacity": 1e400}], "layer_memory": [1]})");
  CHECK(e.code == ErrorCode::too_large);
  CHECK(e.value == 0);
  CHECK(e.token == "1e400");
  CHECK(e.limit == limits::kMaxValue);
  // A device's fact typed with its unit, past the range in the core's unit, reads as one typed far out:
  // "1e300 TiB" said "must be a finite number" where "1e10 TiB" says "at most 1e15"; the bandwidth and
  // the FP16 rate, with no bound above, are infinite, as a binding's 1e400 is.
  const std::string device = R"({"model": "llama-3-8b", "quant": "Q8_0", "devices": [{"memory": )";
  const std::string facts = R"(, "memory_bandwidth": 1e12, "fp16_flops": 1e14}]})";
  CHECK(sentences(device + R"("1e300 TiB")" + facts) ==
        std::vector<std::string>{"memory, device 1: must be at most 1e15 bytes (got 1e300 TiB)"});
  CHECK(sentences(device + R"("1e400 GiB")" + facts) ==
        std::vector<std::string>{"memory, device 1: must be at most 1e15 bytes (got 1e400 GiB)"});
  CHECK(sentences(device + R"("-1e400 GiB")" + facts) ==
        std::vector<std::string>{"memory, device 1: must be >= 0 (got -1e400 GiB)"});
  CHECK(sentences(R"({"model": "llama-3-8b", "quant": "Q8_0", "devices": [{"memory": 1e10,)"
                  R"( "memory_bandwidth": "1e300 TB/s", "fp16_flops": 1e14},)"
                  R"( {"memory": 1e10, "memory_bandwidth": 1e12, "fp16_flops": 1e400}]})") ==
        std::vector<std::string>{"memory_bandwidth, device 1: must be a finite number (got 1e300 TB/s)",
                                 "fp16_flops, device 2: must be a finite number (got 1e400)"});
  // Never accepted: a bandwidth of 1e400 read as the stand-in of a bounded field (2e15) would plan.
  CHECK_FALSE(read_plan_json(R"({"model": "llama-3-8b", "quant": "Q8_0", "devices": [{"memory": 1e10,)"
                             R"( "memory_bandwidth": 1e400, "fp16_flops": 1e14}]})").errors.empty());
}

TEST_CASE("plan json: context, tokens and M may be given as text, read by the calculator's rules") {
  // The page's planner sends its fields as typed; it read context and tokens by T_real's rules
  // ("context: must be > 0 (got -1e400)", "1e400" at most 1e15).
  const std::string estimate = R"({"model": "llama-2-7b", "quant": "Q4_0", "devices": ["rtx-4090"], )";
  CHECK(sentences(estimate + R"("context": "-1e400"})") ==
        std::vector<std::string>{"context: must be between 0 and 16,777,216 (got -1e400)"});
  CHECK(sentences(estimate + R"("tokens": "1e400"})") ==
        std::vector<std::string>{"tokens: must be between 1 and 1,048,576 (got 1e400)"});
  CHECK(sentences(estimate + R"("M": " "})") == std::vector<std::string>{"M: is empty"});
  CHECK(sentences(estimate + R"("context": "abc"})") == std::vector<std::string>{"context: 'abc' is not a number"});
  CHECK(sentences(estimate + R"("tokens": "0.99999999999999999"})") ==
        std::vector<std::string>{"tokens: must be a whole number (got 0.99999999999999999)"});
  CHECK(sentences(estimate + R"("M": "NaN"})") == std::vector<std::string>{"M: must be a finite number (got \"NaN\")"});
  // Full-width digits and blanks read as the calculator reads them, to the same input as the numbers.
  const auto text = read_plan_json(estimate + R"("context": " \uFF12\uFF10\uFF14\uFF18 ", "tokens": "2", "M": "3"})");
  const auto numbers = read_plan_json(estimate + R"("context": 2048, "tokens": 2, "M": 3})");
  REQUIRE(text.errors.empty());
  REQUIRE(numbers.errors.empty());
  const auto& a = std::get<EstimateInput>(text.request);
  const auto& b = std::get<EstimateInput>(numbers.request);
  CHECK(a.context == b.context);
  CHECK(a.tokens == b.tokens);
  CHECK(a.M == b.M);
  CHECK(a.context == 2048);
  // A model object's counts stay numbers only.
  CHECK(error_of(R"({"model": {"layers": "3"}, "devices": ["rtx-4090"]})").code == ErrorCode::wrong_type);
}

TEST_CASE("plan json: a model object's layers out of range are the object's, not a GGUF file's") {
  // It said "GGUF file, byte -1: '1e20' must be between 1 and 9,007,199,254,740,992 (got 0)".
  for (const char* typed : {"1e20", "-1", "1e400", "-1e400", "9007199254740993"}) {
    CAPTURE(typed);
    const std::string model = std::string(R"({"model": {"architecture": "llama", "name": "x", "layers": )") + typed +
                              R"(}, "devices": ["rtx-4090"]})";
    const std::vector<std::string> got = sentences(model);
    REQUIRE_FALSE(got.empty());
    CHECK(got[0].rfind("layers: must be between 1 and ", 0) == 0);
    CHECK(got[0].find(std::string("(got ") + typed + ")") != std::string::npos);
  }
}

TEST_CASE("plan json: a list far past its limit keeps none of its items past it, and is refused by its count") {
  // Ten thousand times the limit of devices, links and records: each refused
  // as too_many with its true count and its limit, the items past the limit
  // skipped unread (a list of ten million would otherwise be held whole).
  const int n = 256 * 10000;
  std::string zeros;
  zeros.reserve(2 * n);
  for (int k = 0; k < n; ++k) zeros += k ? ",0" : "0";
  const PlanJson devices = read_plan_json(R"({"model": "llama-2-7b", "quant": "Q4_0", "devices": [)" + zeros + "]}");
  REQUIRE(devices.errors.size() == limits::kMaxInputErrors);
  CHECK(text::describe(devices.errors.front()) == "devices, device 1: has the wrong type of value (got 0)");
  CHECK(devices.errors.back().code == ErrorCode::too_many);
  CHECK(devices.errors.back().field == Field::devices);
  CHECK(devices.errors.back().value == n);
  CHECK(devices.errors.back().limit == limits::kMaxPlanDevices);
  CHECK(std::get<EstimateInput>(devices.request).devices.size() == static_cast<std::size_t>(limits::kMaxPlanDevices));
  // Valid items past the limit: the count alone, as the value checks said it before.
  std::string ids;
  for (int s = 0; s < 300; ++s) ids += std::string(s ? ", " : "") + "\"rtx-3090\"";
  const PlanJson many = read_plan_json(R"({"model": "llama-2-7b", "quant": "Q4_0", "devices": [)" + ids + "]}");
  REQUIRE(many.errors.size() == 1);
  CHECK(text::describe(many.errors.front()) == "devices: at most 256 values");
  const PlanJson links = read_plan_json(explicit_with(R"(, "links": [)" + zeros + "]"));
  CHECK(links.errors.back().code == ErrorCode::too_many);
  CHECK(links.errors.back().field == Field::links);
  CHECK(links.errors.back().value == n);
  CHECK(links.errors.back().limit == limits::kMaxPlanDevices - 1);
  const PlanJson records = read_plan_json(R"({"model": "llama-2-7b", "quant": "Q4_0", "devices": ["rtx-3090"],
      "calibration": [)" + zeros + "]}");
  CHECK(records.errors.back().code == ErrorCode::too_many);
  CHECK(records.errors.back().field == Field::calibration);
  CHECK(records.errors.back().value == n);
  CHECK(records.errors.back().limit == limits::kMaxCalibrationRecords);
}
