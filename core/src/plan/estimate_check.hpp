#pragma once

#include <cstdint>
#include <optional>

#include "heteropipe/error.hpp"
#include "heteropipe/plan/estimate.hpp"
#include "heteropipe/plan/plan.hpp"

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

// An estimate whose layers need more memory than any device can have (the KV
// cache of tokens x context x M past limits::kMaxValue bytes in a layer):
// device_too_small of memory (device 1 and the smallest layer) when no device
// holds a layer, else memory_short of memory, as the solver says of a smaller
// need (estimate.cpp). check_plan_input would name
// layer_memory, a key of the explicit form, with a number never typed.
std::optional<Error> memory_past_every_device(const PlanInput& estimated);

}  // namespace heteropipe::plan_detail
