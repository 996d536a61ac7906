#pragma once

#include <optional>

#include "chain.hpp"

// The outer search of the planner: which bottleneck bound to give the
// dynamic program (see docs/planner.md for the proof that it is exact).
namespace heteropipe::plan_detail {

// The least bottleneck over every split that fits memory (nullopt: none fits).
std::optional<double> least_bottleneck(const Chain& chain);

// The split that minimizes fill + (M - 1) * bottleneck, with the bottleneck
// made of the chain's stage costs (tau: T_async; sigma: T_block); among equal
// values, the one with the smaller bottleneck. nullopt when no split fits.
// If `balanced` is given, it receives the search's first probe: the split
// least_bottleneck_split returns, found on the way.
std::optional<Bounds> least_makespan(const Chain& chain, double M, Bounds* balanced = nullptr);

// The split with the least bottleneck and, among those, the least fill.
std::optional<Bounds> least_bottleneck_split(const Chain& chain);


}  // namespace heteropipe::plan_detail
