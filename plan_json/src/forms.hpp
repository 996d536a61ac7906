#pragma once

#include <optional>

#include "heteropipe/plan/estimate.hpp"
#include "json_values.hpp"

// The two forms of the planner's JSON input (read_plan_json.hpp).
namespace heteropipe::plan_json {

// The keys both forms share: M, objective, order, allow_idle_devices; each
// left as it is when absent.
struct Shared {
  double* M;
  Objective* objective;
  DeviceOrder* order;
  bool* allow_idle_devices;
};
std::optional<Error> read_shared(const json& document, Shared into);

Result<PlanInput> read_explicit(const json& document);  // explicit_form.cpp
Result<EstimateInput> read_estimate(const json& document);  // estimate_form.cpp

}  // namespace heteropipe::plan_json
