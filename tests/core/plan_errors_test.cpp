// The planner's bad input and infeasible requests: each class with its code,
// field, index and value, and the English sentence describe() gives it.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include <heteropipe/limits.hpp>
#include <heteropipe/plan/plan.hpp>
#include <heteropipe/text/error_text.hpp>

using namespace heteropipe;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Three devices, five layers, every field valid.
PlanInput valid() {
  PlanInput in;
  in.devices = {{{1, 2, 3, 4, 5}, 100}, {{2, 2, 2, 2, 2}, 100}, {{1, 1, 1, 1, 1}, 100}};
  in.layer_memory = {10, 10, 10, 10, 10};
  in.links = {{0.5, 2}, {0.25, 4}};
  in.cut_bytes = {1, 2, 3, 4};
  in.M = 8;
  return in;
}

Error error_of(const PlanInput& in) {
  const Result<Plan> plan = make_plan(in);
  REQUIRE_FALSE(plan.ok());
  return plan.error();
}

// The plan's error is the expected one, check_plan_input reports the same
// for bad input, and describe() words it as given.
void expect(const PlanInput& in, ErrorCode code, Field field, std::int64_t index, double value,
            const std::string& sentence) {
  const Error e = error_of(in);
  CHECK(error_code_name(e.code) == error_code_name(code));
  CHECK(field_name(e.field) == field_name(field));
  CHECK(e.index == index);
  CHECK(e.value == value);
  CHECK(std::isfinite(e.value));
  CHECK(text::describe(e) == sentence);
}

}  // namespace

TEST_CASE("plan: the valid base input plans") { CHECK(make_plan(valid()).ok()); }

TEST_CASE("plan errors: devices and their layer times and capacities") {
  PlanInput in = valid();
  in.devices.clear();
  expect(in, ErrorCode::empty, Field::devices, kWholeField, 0, "devices: needs at least one value");

  in = valid();
  in.devices.assign(static_cast<std::size_t>(limits::kMaxPlanDevices) + 1, valid().devices[0]);
  expect(in, ErrorCode::too_many, Field::devices, kWholeField, 257, "devices: at most 256 values");

  in = valid();
  in.devices[1].layer_times.pop_back();
  expect(in, ErrorCode::wrong_length, Field::layer_times, 1, 4,
         "layer_times, device 2: needs L = 5 layer times, one per layer (got 4)");

  in = valid();
  in.devices[2].layer_times[3] = -1;
  expect(in, ErrorCode::negative, Field::layer_times, 2, -1, "layer_times, device 3: must be >= 0 (got -1)");

  in = valid();
  in.devices[0].layer_times[1] = kNaN;
  expect(in, ErrorCode::not_finite, Field::layer_times, 0, 0, "layer_times, device 1: must be a finite number (got nan)");
  CHECK(error_of(in).token == "nan");

  in = valid();
  in.devices[0].layer_times[4] = 2e15;
  expect(in, ErrorCode::too_large, Field::layer_times, 0, 2e15, "layer_times, device 1: must be at most 1e15 (got 2e+15)");

  in = valid();
  in.devices[1].layer_times = {4e14, 4e14, 4e14, 1, 1};
  expect(in, ErrorCode::sum_too_large, Field::layer_times, 1, 1200000000000002,
         "layer_times, device 2: the layer times add up to 1200000000000002, over the limit of 1e15");

  in = valid();
  for (PlanDevice& d : in.devices) d.layer_times = {0, 1e-16, 0, 0, 0};
  expect(in, ErrorCode::too_small, Field::layer_times, kWholeField, 1e-16,
         "layer_times: some layer must take at least 1e-15 even on its fastest device (got 1e-16)");

  in = valid();
  in.devices[2].memory_capacity = -kInf;
  expect(in, ErrorCode::not_finite, Field::memory_capacity, 2, 0,
         "memory_capacity, device 3: must be a finite number (got -inf)");
  in.devices[2].memory_capacity = -3;
  expect(in, ErrorCode::negative, Field::memory_capacity, 2, -3, "memory_capacity, device 3: must be >= 0 (got -3)");
}

TEST_CASE("plan errors: layers, links and cuts") {
  PlanInput in = valid();
  in.layer_memory.clear();
  expect(in, ErrorCode::empty, Field::layer_memory, kWholeField, 0, "layer_memory: needs at least one value");

  in = valid();
  in.layer_memory.assign(static_cast<std::size_t>(limits::kMaxPlanLayers) + 1, 1);
  expect(in, ErrorCode::too_many, Field::layer_memory, kWholeField, 4097, "layer_memory: at most 4,096 values");

  in = valid();
  in.layer_memory[4] = -0.5;
  expect(in, ErrorCode::negative, Field::layer_memory, 4, -0.5, "layer_memory, layer 5: must be >= 0 (got -0.5)");

  in = valid();
  in.links.pop_back();
  expect(in, ErrorCode::wrong_length, Field::links, kWholeField, 1,
         "links: needs S-1 = 2 links, one between each two neighbouring devices (got 1)");

  in = valid();
  in.links[1].latency = kInf;
  expect(in, ErrorCode::not_finite, Field::latency, 1, 0, "latency, link 2: must be a finite number (got inf)");

  in = valid();
  in.links[0].bandwidth = 0;
  expect(in, ErrorCode::not_positive, Field::bandwidth, 0, 0, "bandwidth, link 1: must be > 0 (got 0)");
  in.links[0].bandwidth = -2;
  expect(in, ErrorCode::not_positive, Field::bandwidth, 0, -2, "bandwidth, link 1: must be > 0 (got -2)");
  in.links[0].bandwidth = kNaN;
  expect(in, ErrorCode::not_finite, Field::bandwidth, 0, 0, "bandwidth, link 1: must be a finite number (got nan)");
  in.links[0].bandwidth = 1e16;
  expect(in, ErrorCode::too_large, Field::bandwidth, 0, 1e16, "bandwidth, link 1: must be at most 1e15 bytes/s (got 1e+16)");

  in = valid();
  in.cut_bytes = {1, 2, 3};
  expect(in, ErrorCode::wrong_length, Field::cut_bytes, kWholeField, 3,
         "cut_bytes: needs L-1 = 4 values, one per cut between two layers (got 3)");

  in = valid();
  in.cut_bytes[2] = -7;
  expect(in, ErrorCode::negative, Field::cut_bytes, 2, -7, "cut_bytes, cut 3: must be >= 0 (got -7)");

  in = valid();
  in.links[1].bandwidth = 1e-12;
  in.cut_bytes[3] = 4e3;  // the largest cut
  expect(in, ErrorCode::delay_too_large, Field::links, 1, 0.25 + 4e3 / 1e-12,
         "links, link 2: carrying the largest cut takes 4e+15, over the limit of 1e15");
  in.links[1].bandwidth = 1e-310;  // a delay past any double
  const Error e = error_of(in);
  CHECK(e.code == ErrorCode::delay_too_large);
  // Never said as inf: the largest double, worded as an overflow.
  CHECK(e.token.empty());
  CHECK(e.value == std::numeric_limits<double>::max());
  CHECK(text::describe(e) == "links, link 2: carrying the largest cut takes longer than any number a double holds "
                             "(its latency plus the largest cut over its bandwidth overflows), over the limit of 1e15");
}

TEST_CASE("plan errors: M, objective and order") {
  PlanInput in = valid();
  in.M = 0;
  expect(in, ErrorCode::out_of_range, Field::M, kWholeField, 0, "M: must be between 1 and 2^53 (got 0)");
  in.M = 2.5;
  expect(in, ErrorCode::not_integer, Field::M, kWholeField, 2.5, "M: must be a whole number (got 2.5)");

  in = valid();
  in.objective = static_cast<Objective>(7);
  expect(in, ErrorCode::unknown_name, Field::objective, kWholeField, 0,
         "objective: must be one of async, blocking, throughput (got '7')");

  in = valid();
  in.order = DeviceOrder::search;
  in.devices.assign(7, valid().devices[2]);
  in.links.assign(6, valid().links[0]);
  expect(in, ErrorCode::too_many_to_order, Field::order, kWholeField, 7,
         "order: trying every device order allows at most 6 devices (got 7)");

  // Six distinct devices: 720 orders x 6 x 243 layers is past the work bound.
  in = valid();
  in.order = DeviceOrder::search;
  in.devices.clear();
  for (int s = 0; s < 6; ++s) in.devices.push_back({std::vector<double>(243, 1.0 + s), 1e9});
  in.links.assign(5, valid().links[0]);
  in.layer_memory.assign(243, 1);
  in.cut_bytes.assign(242, 1);
  expect(in, ErrorCode::order_search_too_large, Field::order, kWholeField, 720 * 6 * 243,
         "order: trying every distinct device order takes 1,049,760 steps (orders x devices x layers), over the "
         "limit of 1,048,576");
  // Identical devices never trade places: two kinds of three give 20 orders.
  for (int s = 0; s < 6; ++s) in.devices[static_cast<std::size_t>(s)].layer_times.assign(243, s < 3 ? 1.0 : 2.0);
  CHECK(make_plan(in).ok());

  CHECK(objective_from_name("blocking").value() == Objective::blocking);
  CHECK(device_order_from_name("search").value() == DeviceOrder::search);
  const Error bad = objective_from_name("fast").error();
  CHECK((bad.code == ErrorCode::unknown_name && bad.field == Field::objective && bad.token == "fast"));
  CHECK(text::describe(bad) == "objective: must be one of async, blocking, throughput (got 'fast')");
  CHECK(text::describe(device_order_from_name("any").error()) == "order: must be one of given, search (got 'any')");
}

TEST_CASE("plan infeasible: why no split fits") {
  PlanInput in = valid();
  in.layer_memory = {1, 1};
  for (PlanDevice& d : in.devices) d.layer_times = {1, 1};
  in.cut_bytes = {1};
  expect(in, ErrorCode::fewer_layers_than_devices, Field::devices, kWholeField, 2,
         "devices: 2 layers cannot give each of the 3 devices a layer; allow idle devices or use fewer devices");
  in.allow_idle_devices = true;
  CHECK(make_plan(in).ok());
  // One layer is worded as one (a model whose other layers are multi-token-prediction ones).
  in = valid();
  in.layer_memory = {1};
  for (PlanDevice& d : in.devices) d.layer_times = {1};
  in.cut_bytes = {};
  expect(in, ErrorCode::fewer_layers_than_devices, Field::devices, kWholeField, 1,
         "devices: 1 layer cannot give each of the 3 devices a layer; allow idle devices or use fewer devices");

  in = valid();
  in.layer_memory = {10, 4, 10, 10, 10};
  in.devices[1].memory_capacity = 3.5;
  expect(in, ErrorCode::device_too_small, Field::memory_capacity, 1, 3.5,
         "memory_capacity, device 2: holds 3.5, less than the smallest layer needs (4)");
  CHECK(error_of(in).limit == 4);
  in.allow_idle_devices = true;  // the device then sits idle
  const Plan idle = make_plan(in).value();
  CHECK(idle.stages.size() == 2);

  in = valid();
  for (PlanDevice& d : in.devices) d.memory_capacity = 15;
  expect(in, ErrorCode::memory_short, Field::memory_capacity, kWholeField, 5,
         "memory_capacity: the devices together hold 5 less than the layers need (50 in all)");
  CHECK(error_of(in).limit == 50);

  // Enough memory in all, but the 30-unit layer fits only device 1, which
  // must also hold layer 1 before it: no contiguous split fits.
  in = valid();
  in.layer_memory = {10, 10, 10, 10, 30};
  in.devices[0].memory_capacity = 40;
  in.devices[1].memory_capacity = 20;
  in.devices[2].memory_capacity = 20;
  expect(in, ErrorCode::no_feasible_split, Field::memory_capacity, kWholeField, 0,
         "memory_capacity: no split of the layers into contiguous stages fits every device's memory");
  in.order = DeviceOrder::search;  // putting device 1 last makes room
  const Plan searched = make_plan(in).value();
  CHECK(searched.stages.back().device == 0);
  CHECK(searched.stages.back().last_layer == 4);
}
