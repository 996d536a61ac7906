#pragma once

#include "heteropipe/plan/input.hpp"
#include "json.hpp"

// The planner's input as JSON (docs/cli.md#plan): the one place that knows
// which key holds what.
namespace heteropipe::cli {

// The first error names the field and, for a list, the device, link or
// layer; a value of the wrong JSON type is wrong_type with the value as
// token, a missing required key is empty.
Result<PlanInput> read_plan_input(const nlohmann::json& document);

}  // namespace heteropipe::cli
