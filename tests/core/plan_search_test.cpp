// The planner's internals on instances too large for the brute force: its
// dynamic program against a naive one doing the same arithmetic, and its
// pruned search against a walk through every plateau.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "plan/chain.hpp"
#include "plan/search.hpp"
#include "plan_support.hpp"

using namespace heteropipe;
using namespace heteropipe::plan_detail;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The same numbers plan.cpp lays out (given order).
Chain chain_of(const PlanInput& in, StageCost cost) {
  Chain c;
  c.S = static_cast<std::int64_t>(in.devices.size());
  c.L = static_cast<std::int64_t>(in.layer_memory.size());
  c.layer_memory = in.layer_memory;
  c.allow_idle = in.allow_idle_devices;
  c.cost = cost;
  for (std::int64_t s = 0; s < c.S; ++s) {
    c.capacity.push_back(in.devices[s].memory_capacity);
    DoubleDouble sum;
    c.prefix.push_back(sum);
    for (std::int64_t b = 0; b < c.L; ++b) {
      c.times.push_back(in.devices[s].layer_times[b]);
      c.prefix.push_back(sum = add(sum, in.devices[s].layer_times[b]));
      c.delay.push_back(b == c.L - 1 ? 0
                        : s + 1 < c.S ? in.links[s].latency + in.cut_bytes[b] / in.links[s].bandwidth
                                      : kInf);
    }
  }
  return c;
}

// Every start for every end, each stage summed afresh: O(S L^2), no deque.
std::optional<double> naive(const Chain& c, Fold fold, double bound) {
  std::vector<double> prev(static_cast<std::size_t>(c.L + 1), kInf);
  prev[0] = 0;
  for (std::int64_t s = 0; s < c.S; ++s) {
    std::vector<double> cur = c.allow_idle ? prev : std::vector<double>(prev.size(), kInf);
    const std::int64_t q_max = c.allow_idle ? c.L : c.L - (c.S - 1 - s);
    for (std::int64_t q = 1; q <= q_max; ++q) {
      for (std::int64_t a = 0; a < q; ++a) {
        if (prev[a] == kInf) continue;
        double tau = 0, used = 0;
        for (std::int64_t b = a; b < q; ++b) tau += c.time(s, b), used += c.layer_memory[b];
        const double d = c.link_delay(s, q - 1);
        const double cost = c.cost == StageCost::sigma ? tau + d : tau;
        if (tau > bound || cost > bound || used > c.capacity[s]) continue;
        // The fill as the program writes it: ((prev - P[a]) + P[q]) + d in double-double.
        const DoubleDouble* P = &c.prefix[s * (c.L + 1)];
        const double value =
            fold == Fold::fill ? add(add(add(negated(P[a]), prev[a]), P[q]), d).hi : std::max(prev[a], cost);
        cur[q] = std::min(cur[q], value);
      }
    }
    prev = cur;
  }
  if (prev[c.L] == kInf) return std::nullopt;
  return prev[c.L];
}

double makespan_dp(const Chain& c, const Bounds& bounds, double M) {
  return fill_of(c, bounds) + (M - 1) * bottleneck_of(c, bounds);
}

// Every plateau of the least fill g, from the top down: the search without
// its incumbent, cutoffs or gap order.
double exhaustive(const Chain& c, double M, double* bottleneck) {
  const double least = *least_bottleneck(c);
  double best = kInf;
  for (double t = std::numeric_limits<double>::max(); t >= least;) {
    const Split split = *best_split(c, Fold::fill, t);
    const double B = bottleneck_of(c, split.bounds);
    const double value = split.value + (M - 1) * B;
    if (value < best || (value == best && B < *bottleneck)) best = value, *bottleneck = B;
    t = std::nextafter(B, -kInf);
  }
  return best;
}

}  // namespace

TEST_CASE("plan program: the deque program equals the naive one bit for bit, at any bound") {
  std::mt19937_64 rng(7);
  testing::InstanceShape shape;
  shape.max_layers = 40;
  shape.max_devices = 6;
  shape.dyadic = false;
  int feasible = 0, compared = 0;
  for (int i = 0; i < 400; ++i) {
    shape.caps = static_cast<testing::MemoryCaps>(i % 3);
    shape.allow_idle = i % 2 == 1;
    const PlanInput in = testing::random_instance(rng, shape, Objective::async);
    for (StageCost cost : {StageCost::tau, StageCost::sigma}) {
      const Chain c = chain_of(in, cost);
      const double total = c.prefix[c.L].hi;
      for (double bound : {kInf, total, total / 2, total / static_cast<double>(c.S), total / 7}) {
        for (Fold fold : {Fold::fill, Fold::bottleneck}) {
          const auto fast = best_split(c, fold, bound);
          const auto slow = naive(c, fold, bound);
          ++compared;
          REQUIRE(fast.has_value() == slow.has_value());
          if (!fast) continue;
          ++feasible;
          CHECK(fast->value == *slow);
          // The split it returns has that value and keeps the bound.
          if (fold == Fold::fill) CHECK(fill_of(c, fast->bounds) == fast->value);
          if (fold == Fold::bottleneck) CHECK(bottleneck_of(c, fast->bounds) == fast->value);
          CHECK(bottleneck_of(c, fast->bounds) <= bound);
        }
      }
    }
  }
  CHECK(compared == 8000);
  CHECK(feasible > 3000);
}

TEST_CASE("plan search: the pruned search equals a walk through every plateau") {
  std::mt19937_64 rng(11);
  testing::InstanceShape shape;
  shape.max_layers = 120;
  shape.max_devices = 10;
  shape.dyadic = false;
  int compared = 0;
  for (int i = 0; i < 240; ++i) {
    shape.caps = static_cast<testing::MemoryCaps>(i % 3);
    shape.allow_idle = i % 4 == 3;
    PlanInput in = testing::random_instance(rng, shape, Objective::async);
    for (StageCost cost : {StageCost::tau, StageCost::sigma}) {
      const Chain c = chain_of(in, cost);
      const auto bounds = least_makespan(c, in.M);
      if (!bounds) continue;
      double tie = kInf;
      const double best = exhaustive(c, in.M, &tie);
      CHECK(makespan_dp(c, *bounds, in.M) == best);
      CHECK(bottleneck_of(c, *bounds) == tie);
      ++compared;
    }
  }
  CHECK(compared > 300);
}

TEST_CASE("plan search: at M = 1 the walk-then-bisect equals a walk through every plateau") {
  // M = 1 takes its own path (settle_flat): the least fill, and among splits
  // of that fill the least bottleneck. Dyadic times tie often (many splits
  // of one fill, bottlenecks far apart: the bisection's case, most of all
  // on identical devices, where every split has one fill), arbitrary ones
  // seldom (the walk's), and "forbid this layer" times in some (sums that
  // lose their small terms); all against every plateau.
  std::mt19937_64 rng(13);
  testing::InstanceShape shape;
  shape.max_layers = 60;
  shape.max_devices = 8;
  int compared = 0, tied_below = 0;
  for (int i = 0; i < 600; ++i) {
    shape.caps = static_cast<testing::MemoryCaps>(i % 3);
    shape.allow_idle = i % 4 == 3;
    shape.dyadic = i % 2 == 0;
    shape.forbid = i % 5 == 1;
    PlanInput in = testing::random_instance(rng, shape, Objective::async);
    in.M = 1;
    if (i % 3 == 0) {
      for (PlanDevice& device : in.devices) device.layer_times = in.devices.front().layer_times;
    }
    for (StageCost cost : {StageCost::tau, StageCost::sigma}) {
      const Chain c = chain_of(in, cost);
      const auto bounds = least_makespan(c, 1);
      if (!bounds) continue;
      double tie = kInf;
      const double best = exhaustive(c, 1, &tie);
      CHECK(fill_of(c, *bounds) == best);
      CHECK(bottleneck_of(c, *bounds) == tie);
      // How often the least fill's least bottleneck lies below the unbounded pass's.
      if (tie < bottleneck_of(c, best_split(c, Fold::fill, kInf)->bounds)) ++tied_below;
      ++compared;
    }
  }
  CHECK(compared > 700);
  CHECK(tied_below > 30);
}
