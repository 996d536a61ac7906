#pragma once

#include <cstdint>
#include <vector>

#include "heteropipe/plan/input.hpp"

namespace heteropipe::plan_detail {

// The device orders a plan tries: the given one, or with DeviceOrder::search
// every distinct arrangement, in lexicographic order of the devices' kinds
// (two devices with the same layer times and capacity are one kind, and
// never trade places: that would change no number). Devices of one kind take
// its places in index order. The input must have passed check_plan_input's
// size checks.
std::vector<std::vector<std::int64_t>> device_orders(const PlanInput& input);

}  // namespace heteropipe::plan_detail
