#pragma once

// Test-only helpers for the planner: random instances and a brute force that
// tries every contiguous split (and every device order), written as directly
// as possible and sharing no code with the solver beyond the closed forms.
#include <heteropipe/heteropipe.hpp>
#include <heteropipe/plan/plan.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

namespace heteropipe::testing {

// How memory constrains a random instance.
enum class MemoryCaps { none, loose, tight };

struct InstanceShape {
  std::int64_t max_layers = 14, max_devices = 4;
  MemoryCaps caps = MemoryCaps::none;
  bool allow_idle = false;
  // Dyadic values (quarters, powers-of-two bandwidths): every sum and
  // product of the model is exact, so two splits of equal value in exact
  // arithmetic have equal values in floating point too.
  bool dyadic = true;
  bool search_order = false;  // DeviceOrder::search
  // About one layer time in four replaced by a "forbid this layer" value in
  // [1e13, 1e14): prefix sums over such a value lose the small terms beside it.
  bool forbid = false;
};

// Our own transforms of the engine's bits, not std::uniform_*_distribution:
// those are implementation-defined (libstdc++ and libc++ differ), and native
// and wasm must test the same instances. mt19937_64's output itself is fixed
// by the standard. The modulo's bias is harmless for a test generator.
inline std::int64_t random_int(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
  return lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
}

// In [lo, hi): 53 random bits as a fraction, scaled.
inline double random_real(std::mt19937_64& rng, double lo, double hi) {
  return lo + static_cast<double>(rng() >> 11) * 0x1.0p-53 * (hi - lo);
}

inline PlanInput random_instance(std::mt19937_64& rng, const InstanceShape& shape, Objective objective) {
  auto pick = [&rng](std::int64_t lo, std::int64_t hi) { return random_int(rng, lo, hi); };
  auto real = [&rng](double lo, double hi) { return random_real(rng, lo, hi); };
  PlanInput in;
  const std::int64_t S = pick(1, shape.max_devices);
  const std::int64_t L = pick(shape.allow_idle ? 1 : S, shape.max_layers);
  in.objective = objective;
  in.allow_idle_devices = shape.allow_idle;
  if (shape.search_order) in.order = DeviceOrder::search;
  const double Ms[] = {1, 2, 3, 5, 8, 16, 100, 4096};
  in.M = Ms[pick(0, 7)];
  for (std::int64_t s = 0; s < S; ++s) {
    PlanDevice device;
    const double speed = shape.dyadic ? static_cast<double>(pick(1, 4)) : real(0.5, 4);
    for (std::int64_t b = 0; b < L; ++b) {
      device.layer_times.push_back(shape.dyadic ? static_cast<double>(pick(1, 12)) * speed / 4 : real(0.01, 3) * speed);
      if (shape.forbid && pick(0, 3) == 0) device.layer_times.back() = real(1e13, 1e14);
    }
    in.devices.push_back(device);
  }
  double total = 0;
  for (std::int64_t b = 0; b < L; ++b) {
    in.layer_memory.push_back(static_cast<double>(pick(1, 8)));
    total += in.layer_memory.back();
  }
  for (PlanDevice& device : in.devices) {
    switch (shape.caps) {
      case MemoryCaps::none: device.memory_capacity = 1e12; break;
      case MemoryCaps::loose: device.memory_capacity = static_cast<double>(pick(8, 8 + static_cast<std::int64_t>(total))); break;
      // Near an even share: often only a few splits fit, sometimes none.
      case MemoryCaps::tight:
        device.memory_capacity = std::max(1.0, std::floor(total / static_cast<double>(S) * real(0.8, 1.6)));
        break;
    }
  }
  for (std::int64_t i = 0; i + 1 < S; ++i) {
    const double bandwidths[] = {0.5, 1, 2, 4};
    in.links.push_back({shape.dyadic ? static_cast<double>(pick(0, 8)) / 8 : real(0, 1),
                        shape.dyadic ? bandwidths[pick(0, 3)] : real(0.3, 5)});
  }
  for (std::int64_t b = 0; b + 1 < L; ++b) {
    in.cut_bytes.push_back(shape.dyadic ? static_cast<double>(pick(0, 16)) : real(0, 10));
  }
  return in;
}

// Extreme but valid instances (S <= 4, L <= 8): each value drawn from a few
// magnitudes, one in four layer times a value shared by every device (equal
// layers, ties), each capacity the memory of some contiguous layers (exactly
// at capacity), one below it, the whole model or the limit, and M up to 2^53.
// `Magnitudes::wide` mixes 0, subnormals, 1e-300 and 1e15 (sums round);
// `huge` and `tiny` are dyadic within 53 bits, so every sum is exact, around
// 2^45 and 2^-10, and no link's d is within the tie rule's 4 units in the
// last place of a stage time (the rule would snap sigma_max to tau_max).
enum class Magnitudes { wide, huge, tiny };

inline PlanInput extreme_instance(std::mt19937_64& rng, Magnitudes magnitudes, Objective objective, bool idle,
                                  bool search) {
  auto pick = [&rng](std::int64_t lo, std::int64_t hi) { return random_int(rng, lo, hi); };
  auto one_of = [&pick](const auto& values) { return values[pick(0, std::size(values) - 1)]; };
  struct Values {
    std::vector<double> times, memory, latency, bandwidth, cuts;
  };
  static const Values kWide{{0, 5e-324, 1e-300, 0x1p-1022, 1e-15, 1e-3, 0.1, 1, 3, 1e10, 1e14, 1.25e14},
                            {0, 1e-300, 0.1, 0.7, 1, 2, 1.25e14},
                            {0, 5e-324, 1e-300, 1, 5e14},
                            {5e-324, 1e-300, 1, 3, 1e15},
                            {0, 5e-324, 1e-300, 1, 2.5e14}};
  static const Values kHuge{{0, 1, 2, 3, 0x1p20, 0x1p40, 0x1p44, 0x1p45, 0x1.8p44, 0x1p46},
                            {0, 0x1p-30, 0.25, 0.5, 1, 2, 0x1p40},
                            {0, 1, 0x1p40, 0x1p44},
                            {0x1p-4, 0.5, 1},  // whole d: no sigma within 4 ulps of tau_max
                            {0, 1, 3, 0x1p24, 0x1p40}};
  static const Values kTiny{{0, 0x1p-40, 0x1p-20, 0x1p-12, 0x1.8p-11, 0x1p-11, 0x1p-10},
                            {0, 0x1p-30, 0.25, 0.5, 1, 2, 0x1p40},
                            {0, 0x1p-20, 0x1p-12, 0x1p-11},
                            {0x1p-4, 0.5, 1, 2, 4},
                            {0, 0x1p-40, 0x1p-20, 0x1p-13, 0x1p-12}};
  const Values& v = magnitudes == Magnitudes::wide ? kWide : magnitudes == Magnitudes::huge ? kHuge : kTiny;
  PlanInput in;
  const std::int64_t S = pick(1, 4);
  const std::int64_t L = pick(idle ? 1 : S, 8);
  in.objective = objective;
  in.allow_idle_devices = idle;
  if (search) in.order = DeviceOrder::search;
  const double Ms[] = {1, 2, 3, 1e6, 9007199254740991.0, 9007199254740992.0};
  in.M = one_of(Ms);
  const double shared = one_of(v.times);
  for (std::int64_t s = 0; s < S; ++s) {
    PlanDevice device;
    for (std::int64_t b = 0; b < L; ++b) device.layer_times.push_back(pick(0, 3) == 0 ? shared : one_of(v.times));
    in.devices.push_back(device);
  }
  double total = 0;
  for (std::int64_t b = 0; b < L; ++b) {
    in.layer_memory.push_back(one_of(v.memory));
    total += in.layer_memory.back();
  }
  for (PlanDevice& device : in.devices) {
    const std::int64_t first = pick(0, L - 1), last = pick(first, L - 1);
    double some = 0;
    for (std::int64_t b = first; b <= last; ++b) some += in.layer_memory[b];
    const double capacities[] = {some, some, std::nextafter(some, 0.0), total, 1e15};
    device.memory_capacity = one_of(capacities);
  }
  for (std::int64_t i = 0; i + 1 < S; ++i) in.links.push_back({one_of(v.latency), one_of(v.bandwidth)});
  for (std::int64_t b = 0; b + 1 < L; ++b) in.cut_bytes.push_back(one_of(v.cuts));
  return in;
}

// One split as the brute force sees it: the objective value, what breaks
// its ties (the bottleneck, or T_async for throughput), what breaks those
// (the spread: each stage's (tau + d)^2, d = 0 for the last, added in chain
// order), and the stages' first layers per chain position (size S + 1).
struct BruteBest {
  double value = 0, tie = 0, spread = 0;
  std::vector<std::int64_t> bounds, order;
};

// Every split of the layers into contiguous stages, in the order given.
template <class Visit>
void for_each_split(std::int64_t S, std::int64_t L, bool idle, Visit&& visit) {
  std::vector<std::int64_t> bounds(static_cast<std::size_t>(S + 1), 0);
  bounds[S] = L;
  auto rec = [&](auto&& self, std::int64_t s) -> void {
    if (s == S) return visit(bounds);
    const std::int64_t min_len = idle ? 0 : 1;
    const std::int64_t later = idle ? 0 : S - 1 - s;  // layers the later positions need
    if (s == S - 1) {
      if (L - bounds[s] >= min_len) self(self, s + 1);
      return;
    }
    for (std::int64_t end = bounds[s] + min_len; end <= L - later; ++end) {
      bounds[s + 1] = end;
      self(self, s + 1);
    }
  };
  rec(rec, 0);
}

// The best split over every split (and device order, if asked), by the same
// closed forms analyze uses; nullopt when none fits memory.
inline std::optional<BruteBest> brute_force(const PlanInput& in) {
  const auto S = static_cast<std::int64_t>(in.devices.size());
  const auto L = static_cast<std::int64_t>(in.layer_memory.size());
  std::vector<std::int64_t> order(static_cast<std::size_t>(S));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  std::optional<BruteBest> best;
  do {
    for_each_split(S, L, in.allow_idle_devices, [&](const std::vector<std::int64_t>& bounds) {
      std::vector<double> tau, d;
      for (std::int64_t s = 0; s < S; ++s) {
        if (bounds[s] == bounds[s + 1]) continue;
        const PlanDevice& device = in.devices[order[s]];
        double t = 0, memory = 0;
        for (std::int64_t b = bounds[s]; b < bounds[s + 1]; ++b) {
          t += device.layer_times[b];
          memory += in.layer_memory[b];
        }
        if (memory > device.memory_capacity) return;
        tau.push_back(t);
        const std::int64_t last = bounds[s + 1] - 1;
        if (last + 1 < L) d.push_back(in.links[s].latency + in.cut_bytes[last] / in.links[s].bandwidth);
      }
      const Pipeline p = Pipeline::of_computed_times(tau, d).value();
      double value = 0, tie = 0, spread = 0;
      for (std::size_t k = 0; k < tau.size(); ++k) {
        const double cost = tau[k] + (k < d.size() ? d[k] : 0.0);
        spread += cost * cost;
      }
      switch (in.objective) {
        case Objective::async: value = makespan_async(p, in.M), tie = p.tau_max(); break;
        case Objective::blocking: value = makespan_blocking(p, in.M), tie = p.sigma_max(); break;
        case Objective::throughput: value = p.tau_max(), tie = makespan_async(p, in.M); break;
      }
      // Lexicographic: value, then tie-breaker, then spread.
      if (!best || value < best->value || (value == best->value && tie < best->tie) ||
          (value == best->value && tie == best->tie && spread < best->spread)) {
        best = BruteBest{value, tie, spread, bounds, order};
      }
    });
  } while (in.order == DeviceOrder::search && std::next_permutation(order.begin(), order.end()));
  return best;
}

}  // namespace heteropipe::testing
