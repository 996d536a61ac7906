#pragma once

#include <cstdint>
#include <optional>

#include "heteropipe/error.hpp"

namespace heteropipe::sim {

// A time as tau, d and the measured tables take it: finite, >= 0, <=
// kMaxValue; else not_finite, negative or too_large at `index` of `field`.
std::optional<Error> check_time(double x, Field field, std::int64_t index);

}  // namespace heteropipe::sim
