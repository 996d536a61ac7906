// The planner's input checks and its names.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "heteropipe/parse.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/pipeline.hpp"
#include "heteropipe/plan/input.hpp"
#include "orders.hpp"

namespace heteropipe {
namespace {

constexpr Objective kObjectives[] = {Objective::async, Objective::blocking, Objective::throughput};
constexpr DeviceOrder kOrders[] = {DeviceOrder::given, DeviceOrder::search};

// A value that must be finite, >= 0 and <= kMaxValue (as tau and d are).
std::optional<Error> check_amount(double x, Field field, std::int64_t index) {
  if (std::isnan(x)) return Error{ErrorCode::not_finite, field, index, 0.0, "nan"};
  if (std::isinf(x)) return Error{ErrorCode::not_finite, field, index, 0.0, x > 0 ? "inf" : "-inf"};
  if (x < 0) return Error{ErrorCode::negative, field, index, x, {}};
  if (x > limits::kMaxValue) return Error{ErrorCode::too_large, field, index, x, {}, limits::kMaxValue};
  return std::nullopt;
}

std::optional<Error> check_amounts(const std::vector<double>& values, Field field) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (auto e = check_amount(values[i], field, static_cast<std::int64_t>(i))) return e;
  }
  return std::nullopt;
}

Error wrong_length(Field field, std::int64_t index, std::size_t length, std::int64_t expected) {
  return Error{ErrorCode::wrong_length, field, index, static_cast<double>(length), {},
               static_cast<double>(expected)};
}

// Each device's first problem: its layer times' count, one of its times,
// their sum, or its capacity.
void check_devices(const PlanInput& input, std::int64_t L, std::vector<Error>& errors) {
  const auto S = static_cast<std::int64_t>(input.devices.size());
  for (std::int64_t s = 0; s < S; ++s) {
    const PlanDevice& device = input.devices[s];
    if (static_cast<std::int64_t>(device.layer_times.size()) != L) {
      errors.push_back(wrong_length(Field::layer_times, s, device.layer_times.size(), L));
    } else {
      // One device's errors name the device; the value is the time itself.
      double sum = 0;
      std::optional<Error> bad;
      for (double t : device.layer_times) {
        if ((bad = check_amount(t, Field::layer_times, s))) break;
        sum += t;
      }
      // Every stage's tau is at most this sum, so no tau passes kMaxValue.
      if (!bad && sum > limits::kMaxValue) {
        bad = Error{ErrorCode::sum_too_large, Field::layer_times, s, sum, {}, limits::kMaxValue};
      }
      if (bad) errors.push_back(*bad);
    }
    if (auto e = check_amount(device.memory_capacity, Field::memory_capacity, s)) errors.push_back(*e);
  }
}

// Some stage of any plan runs the layer whose fastest time is largest, so
// every plan's tau_max is at least that: keep it a valid pipeline's. Only
// for devices whose times are all good.
std::optional<Error> check_fastest(const PlanInput& input, std::int64_t L) {
  double largest_fastest = 0;
  for (std::int64_t b = 0; b < L; ++b) {
    double fastest = input.devices[0].layer_times[b];
    for (const PlanDevice& device : input.devices) fastest = std::min(fastest, device.layer_times[b]);
    largest_fastest = std::max(largest_fastest, fastest);
  }
  if (largest_fastest < limits::kMinStageTime) {
    return Error{ErrorCode::too_small, Field::layer_times, kWholeField, largest_fastest, {}, limits::kMinStageTime};
  }
  return std::nullopt;
}

void check_links(const PlanInput& input, std::vector<Error>& errors) {
  const auto S = static_cast<std::int64_t>(input.devices.size());
  if (static_cast<std::int64_t>(input.links.size()) != S - 1) {
    errors.push_back(wrong_length(Field::links, kWholeField, input.links.size(), S - 1));
    return;
  }
  for (std::size_t i = 0; i < input.links.size(); ++i) {
    const auto index = static_cast<std::int64_t>(i);
    if (auto e = check_amount(input.links[i].latency, Field::latency, index)) errors.push_back(*e);
    const double bandwidth = input.links[i].bandwidth;
    if (std::isfinite(bandwidth) && bandwidth <= 0) {
      errors.push_back(Error{ErrorCode::not_positive, Field::bandwidth, index, bandwidth + 0.0, {}});
    } else if (auto e = check_amount(bandwidth, Field::bandwidth, index)) {
      errors.push_back(*e);
    }
  }
}

// The largest d any plan can have on each link: its latency plus the
// largest cut over its bandwidth.
std::optional<Error> check_delays(const PlanInput& input) {
  if (input.cut_bytes.empty()) return std::nullopt;
  double largest_cut = 0;
  for (double c : input.cut_bytes) largest_cut = std::max(largest_cut, c);
  for (std::size_t i = 0; i < input.links.size(); ++i) {
    const double delay = input.links[i].latency + largest_cut / input.links[i].bandwidth;
    if (!(delay <= limits::kMaxValue)) {
      // A delay past the double range is said as the largest double, never as inf.
      return Error{ErrorCode::delay_too_large, Field::links, static_cast<std::int64_t>(i),
                   std::isfinite(delay) ? delay : std::numeric_limits<double>::max(), {}, limits::kMaxValue};
    }
  }
  return std::nullopt;
}

}  // namespace

std::string_view objective_name(Objective objective) {
  switch (objective) {
    case Objective::async: return "async";
    case Objective::blocking: return "blocking";
    case Objective::throughput: return "throughput";
  }
  return "unknown";
}

std::string_view device_order_name(DeviceOrder order) {
  switch (order) {
    case DeviceOrder::given: return "given";
    case DeviceOrder::search: return "search";
  }
  return "unknown";
}

Result<Objective> objective_from_name(std::string_view typed) {
  const std::string_view name = typed_value(typed);
  for (Objective o : kObjectives) {
    if (objective_name(o) == name) return o;
  }
  return Error{ErrorCode::unknown_name, Field::objective, kWholeField, 0.0, std::string(name)};
}

Result<DeviceOrder> device_order_from_name(std::string_view typed) {
  const std::string_view name = typed_value(typed);
  for (DeviceOrder o : kOrders) {
    if (device_order_name(o) == name) return o;
  }
  return Error{ErrorCode::unknown_name, Field::order, kWholeField, 0.0, std::string(name)};
}

std::vector<Error> plan_input_errors(const PlanInput& input) {
  const auto S = static_cast<std::int64_t>(input.devices.size());
  const auto L = static_cast<std::int64_t>(input.layer_memory.size());
  // Without devices or layers nothing else can be judged.
  if (S == 0) return {Error{ErrorCode::empty, Field::devices, kWholeField, 0.0, {}}};
  if (S > limits::kMaxPlanDevices) {
    return {Error{ErrorCode::too_many, Field::devices, kWholeField, static_cast<double>(S), {},
                  static_cast<double>(limits::kMaxPlanDevices)}};
  }
  if (L == 0) return {Error{ErrorCode::empty, Field::layer_memory, kWholeField, 0.0, {}}};
  if (L > limits::kMaxPlanLayers) {
    return {Error{ErrorCode::too_many, Field::layer_memory, kWholeField, static_cast<double>(L), {},
                  static_cast<double>(limits::kMaxPlanLayers)}};
  }
  // Each field's (each device's, each link's) own problems, all of them.
  std::vector<Error> errors;
  check_devices(input, L, errors);
  if (auto e = check_amounts(input.layer_memory, Field::layer_memory)) errors.push_back(*e);
  check_links(input, errors);
  if (static_cast<std::int64_t>(input.cut_bytes.size()) != L - 1) {
    errors.push_back(wrong_length(Field::cut_bytes, kWholeField, input.cut_bytes.size(), L - 1));
  } else if (auto e = check_amounts(input.cut_bytes, Field::cut_bytes)) {
    errors.push_back(*e);
  }
  if (auto e = check_batches(input.M)) errors.push_back(*e);
  const auto objective = static_cast<int>(input.objective);
  if (objective < 0 || objective > static_cast<int>(Objective::throughput)) {
    errors.push_back(Error{ErrorCode::unknown_name, Field::objective, kWholeField, 0.0, std::to_string(objective)});
  }
  const auto order = static_cast<int>(input.order);
  if (order < 0 || order > static_cast<int>(DeviceOrder::search)) {
    errors.push_back(Error{ErrorCode::unknown_name, Field::order, kWholeField, 0.0, std::to_string(order)});
  }
  if (!errors.empty()) return errors;
  // What several fields decide together, once each is good.
  if (auto e = check_fastest(input, L)) return {*e};
  if (auto e = check_delays(input)) return {*e};
  if (input.order == DeviceOrder::search) {
    if (S > limits::kMaxOrderSearchDevices) {
      return {Error{ErrorCode::too_many_to_order, Field::order, kWholeField, static_cast<double>(S), {},
                    static_cast<double>(limits::kMaxOrderSearchDevices)}};
    }
    const auto orders = static_cast<double>(plan_detail::device_orders(input).size());
    const double work = orders * static_cast<double>(S) * static_cast<double>(L);
    if (work > limits::kMaxOrderSearchWork) {
      return {Error{ErrorCode::order_search_too_large, Field::order, kWholeField, work, {},
                    limits::kMaxOrderSearchWork}};
    }
  }
  return {};
}

std::optional<Error> check_plan_input(const PlanInput& input) {
  std::vector<Error> errors = plan_input_errors(input);
  if (errors.empty()) return std::nullopt;
  return errors.front();
}

}  // namespace heteropipe
