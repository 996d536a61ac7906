#pragma once

#include <cstdint>
#include <optional>

#include "heteropipe/error.hpp"
#include "heteropipe/plan/estimate.hpp"

// The estimator's input checks (estimate_check.cpp).
namespace heteropipe::plan_detail {

// A fact that must be finite and > 0 (>= 0 when may_be_zero).
std::optional<Error> check_number(double x, Field field, std::int64_t index, bool may_be_zero);

// tokens, context and the device count, before any work.
std::optional<Error> check_estimate_scalars(const EstimateInput& input);

}  // namespace heteropipe::plan_detail
