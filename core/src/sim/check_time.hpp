#pragma once

#include <cstdint>
#include <optional>

#include "heteropipe/error.hpp"

namespace heteropipe::sim {

// A time as tau, d and the measured tables take it: finite, >= 0, <=
// kMaxValue; else not_finite, negative or too_large at `index` of `field`.
std::optional<Error> check_time(double x, Field field, std::int64_t index);

// A measured service sample (service_samples at `index`): a time as above,
// and > 0 and at least kMinStageTime, as each may be drawn alone. The
// options' check and the samples file's reader (which names the cell) share it.
std::optional<Error> check_sample(double x, std::int64_t index);

}  // namespace heteropipe::sim
