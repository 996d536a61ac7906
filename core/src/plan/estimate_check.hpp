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

// The estimator's tokens per second for a llama-bench record's own model on
// device k alone (estimate.cpp): `layers` like layers, which read its
// model_size and compute 2 model_n_params per token in all, each adding its
// class's overhead; one token in decode, n_prompt in prefill (its phase).
Result<double> record_tokens_per_second(const EstimateInput& input, std::size_t k, const BenchRecord& record,
                                        std::int64_t layers);

}  // namespace heteropipe::plan_detail
