#include "heteropipe/formulas.hpp"

namespace heteropipe {

// Every makespan is fill + (M - 1) * slope. The blocking and asynchronous
// forms share one fill term, sum(tau) + sum(d) (= sum(sigma)), so that
// T_async <= T_block holds in floating point as it does in exact arithmetic.

double makespan_free(const Pipeline& p, double M) { return (M - 1) * p.tau_max() + p.sum_tau(); }

double makespan_async(const Pipeline& p, double M) { return p.sum_tau_d() + (M - 1) * p.tau_max(); }

double makespan_blocking(const Pipeline& p, double M) { return (M - 1) * p.sigma_max() + p.sum_tau_d(); }

// (S + M - 1) tau_max, never below T_free: near M = 2^53 the count S + M - 1
// itself rounds, which would otherwise put GPipe's estimate under the exact
// makespan and its bias below zero.
double makespan_gpipe(const Pipeline& p, double M) {
  const double gpipe = (static_cast<double>(p.S()) + M - 1) * p.tau_max();
  const double free = makespan_free(p, M);
  return gpipe < free ? free : gpipe;
}

double homogeneity_bias(const Pipeline& p) { return p.sum_slack(); }

// sum(slack) - sum(d), independent of M. Under the tie rule each stage may
// carry a few units of rounding, so a bias within that of zero is zero: a
// pipeline whose latencies exactly fill its slack as typed has no bias.
double full_bias(const Pipeline& p) {
  const double bias = p.sum_slack() - p.sum_d();
  const double noise = static_cast<double>(p.S()) * p.tie_tolerance();
  return bias <= noise && bias >= -noise ? 0.0 : bias;
}

// Some d[s] > tau_max - tau[s], i.e. some sigma[s] > tau_max. Asked of the
// computed sigma (ties already resolved by Pipeline), the flag agrees bit for
// bit with the blocking slope and the sign of each link's margin.
bool phase_transition(const Pipeline& p) { return p.sigma_max() > p.tau_max(); }

// (M - 1)(sigma_max - tau_max), taken as the difference of the two makespans
// as they are reported, so that the gap, the headroom flag, the overlap ratio
// and the sandwich position all follow from the same two numbers.
double overlap_gap(const Pipeline& p, double M) { return makespan_blocking(p, M) - makespan_async(p, M); }

double effective_slope(const Pipeline& p, double rho) {
  return p.tau_max() + (1 - rho) * (p.sigma_max() - p.tau_max());
}

// From the reported T_async, T_block and gap, like overlap_ratio, which it
// inverts; the gap is zero without headroom, so then every rho gives
// T_block == T_async. Measured from the nearer end: where T_block is far above
// T_async the gap carries T_block's rounding, so T_block - 1 * gap could
// miss T_async by more than T_async's own rounding unit (even fall below it),
// while 1 - rho is exact for rho >= 1/2. Each end is thus itself (rho = 0:
// T_block, rho = 1: T_async), and the result stays in the sandwich.
double makespan_at_rho(const Pipeline& p, double M, double rho) {
  const double async = makespan_async(p, M), block = makespan_blocking(p, M), gap = overlap_gap(p, M);
  const double t = rho >= 0.5 ? async + (1 - rho) * gap : block - rho * gap;
  return t < async ? async : t > block ? block : t;
}

double asymptotic_throughput_async(const Pipeline& p) { return 1 / p.tau_max(); }

double asymptotic_throughput_blocking(const Pipeline& p) { return 1 / p.sigma_max(); }

double crossover_batches(const Pipeline& p) { return 1 + p.sum_tau_d() / p.tau_max(); }

// The full bias over T_async: the same sign as the reported full bias.
double gpipe_overestimate(const Pipeline& p, double M) { return full_bias(p) / makespan_async(p, M); }

double link_slack(const Pipeline& p, std::int64_t s) { return p.tau_max() - p.tau()[s]; }

// Under the tie rule a margin within a few ulps of zero is zero: the link's
// latency fills its slack exactly.
double link_margin(const Pipeline& p, std::int64_t s) {
  const double margin = p.tau_max() - p.sigma(s);
  return margin <= p.tie_tolerance() && margin >= -p.tie_tolerance() ? 0.0 : margin;
}

// The gap is exactly zero when sigma_max == tau_max (ties included) or M == 1,
// so this never reports headroom made of rounding noise.
bool has_overlap_headroom(const Pipeline& p, double M) { return overlap_gap(p, M) > 0; }

// From the reported T_async and T_block: inside the sandwich,
// T_async <= T_real <= T_block, so 0 <= T_block - T_real <= T_block - T_async
// and the ratio lies in [0, 1] in floating point too.
std::optional<double> overlap_ratio(const Pipeline& p, double M, double T_real) {
  if (!has_overlap_headroom(p, M)) return std::nullopt;
  return (makespan_blocking(p, M) - T_real) / overlap_gap(p, M);
}

SandwichPosition sandwich_position(const Pipeline& p, double M, double T_real) {
  if (T_real < makespan_async(p, M)) return SandwichPosition::below_async;
  if (T_real > makespan_blocking(p, M)) return SandwichPosition::above_block;
  return SandwichPosition::inside;
}

std::string_view sandwich_position_name(SandwichPosition position) {
  switch (position) {
    case SandwichPosition::below_async: return "below_async";
    case SandwichPosition::inside: return "inside";
    case SandwichPosition::above_block: return "above_block";
  }
  return "unknown";
}

}  // namespace heteropipe
