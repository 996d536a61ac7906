#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "double_double.hpp"

// The planner's inner problem: a validated input laid out in one device
// order, and the dynamic program over its contiguous splits (see
// docs/planner.md). Internal to the core.
namespace heteropipe::plan_detail {

// What bounds a stage in the bottleneck: its compute time tau (the
// asynchronous slope) or tau plus its outgoing link's delay, sigma (the
// blocking slope).
enum class StageCost { tau, sigma };

// What the dynamic program minimizes over the splits it allows: the fill,
// sum over stages of (tau + d), or the bottleneck, the largest stage cost.
enum class Fold { fill, bottleneck };

// The numbers of one device order. Position s holds the device at that place
// in the chain; links stay with positions (link s joins positions s and s+1).
struct Chain {
  std::int64_t S = 0, L = 0;
  std::vector<double> times;         // S x L, row s: the layer times of the device at position s
  // S x (L + 1): row s's times summed from layer 0, in order, as double-doubles
  // (double_double.hpp), so that a stage's fill, a difference of two of them,
  // keeps its small terms beside a huge layer time.
  std::vector<DoubleDouble> prefix;
  std::vector<double> capacity;      // S
  std::vector<double> layer_memory;  // L
  // S x L: d of a stage at position s whose last layer is b, i.e. the delay
  // of link s carrying cut b; 0 when b is the last layer (no link follows),
  // and infinite at the last position otherwise (no link leaves it, so a
  // stage there must end the model).
  std::vector<double> delay;
  bool allow_idle = false;
  StageCost cost = StageCost::tau;

  double time(std::int64_t s, std::int64_t b) const { return times[s * L + b]; }
  double link_delay(std::int64_t s, std::int64_t b) const { return delay[s * L + b]; }
};

// A split: position s runs layers bounds[s] .. bounds[s+1] - 1 (none when
// the two are equal, an idle device). bounds has S + 1 entries, 0 first and L
// last.
using Bounds = std::vector<std::int64_t>;

struct Split {
  double value = 0;  // the folded quantity: its fill or its bottleneck
  Bounds bounds;
};

// A stage's tau: its layer times added in layer order, the one way every
// part of the planner (and what it reports) computes it.
double stage_tau(const Chain& chain, std::int64_t s, std::int64_t begin, std::int64_t end);
// Its d (0 for an idle stage or the one running the last layer) and its cost
// in the bottleneck (tau, or tau + d).
double stage_delay(const Chain& chain, std::int64_t s, std::int64_t begin, std::int64_t end);
double stage_cost(const Chain& chain, std::int64_t s, std::int64_t begin, std::int64_t end);

// The largest stage cost of a split, and its fill as best_split computes it:
// stage by stage, ((fill - P[first]) + P[end]) + d in double-double with P
// the stage's device's prefix sums, rounded to a double after each stage:
// sum(tau) + sum(d) within a few rounding units of the fill itself, however
// large the layer times outside the split's stages.
double bottleneck_of(const Chain& chain, const Bounds& bounds);
double fill_of(const Chain& chain, const Bounds& bounds);

// Over every split whose stages fit their devices' memory and whose stage
// costs are all <= bound, the one with the least fill or the least
// bottleneck (nullopt when there is none). Exact for the floating-point
// values it computes (fill_of, bottleneck_of): each is a fixed expression
// that only grows with the value it extends, since floating-point addition
// and max are monotone, so the program's principle of optimality holds.
std::optional<Split> best_split(const Chain& chain, Fold fold, double bound);

// The spread of a split: its stages' squared costs with links, (tau + d)^2,
// added in chain order. Over splits of one fill (the sum of those costs) the
// least spread is the least variance of the stage times: the evenest split.
double spread_of(const Chain& chain, const Bounds& bounds);

// As best_split with Fold::fill, and among the splits of the least fill the
// one of least spread (spread_of), with the program's own fill: exact where
// every sum is (dyadic inputs); elsewhere splits equal in exact arithmetic
// can differ in the program's fill by a rounding, and the least rounded fill
// wins before any spread (the planner then re-splits runs of identical
// devices, see plan.cpp).
std::optional<Split> most_even_split(const Chain& chain, double bound);

}  // namespace heteropipe::plan_detail
