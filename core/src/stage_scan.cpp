#include "stage_scan.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "heteropipe/limits.hpp"

namespace heteropipe {
namespace {

bool in_range(double x) { return x >= 0.0 && x <= limits::kMaxValue; }

double higher(double a, double b) { return a > b ? a : b; }
double lower(double a, double b) { return a < b ? a : b; }

// Two doubles in one SIMD register (SSE2 natively, simd128 in wasm), through
// the vector extension GCC and Clang share. Written `b < a ? a : b`, a lane's
// maximum is one instruction on both (maxpd, f64x2.pmax); scalar selects
// become branches in V8's wasm code, which made this pass much slower there.
typedef double Lanes __attribute__((vector_size(16)));

Lanes load_lanes(const double* p) {
  Lanes v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
Lanes higher(Lanes a, Lanes b) { return b < a ? a : b; }
Lanes lower(Lanes a, Lanes b) { return a < b ? a : b; }
double higher_lane(Lanes v) { return higher(v[0], v[1]); }
double lower_lane(Lanes v) { return lower(v[0], v[1]); }

typedef std::uint64_t SignBits __attribute__((vector_size(16)));
SignBits sign_bits(Lanes v) {
  SignBits bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits >> 63;
}

// The largest tau, sigma and d and the smallest tau or d of a block, without
// positions: branch-free, four stages at a time in two pairs of lanes, so that
// the latency of the max chains does not set the pace (a maximum does not
// depend on the order). NaN may or may not survive a maximum; the caller
// catches it through the sums.
struct BlockExtremes {
  Lanes tau[2] = {}, sigma[2] = {}, d[2] = {}, low[2] = {};
  SignBits signs = {};  // every sign bit seen: with no negative value, a set bit is a -0

  void add_four(const double* t, const double* l) {
    for (int k = 0; k < 2; ++k) {
      const Lanes tk = load_lanes(t + 2 * k), lk = load_lanes(l + 2 * k);
      tau[k] = higher(tau[k], tk);
      d[k] = higher(d[k], lk);
      sigma[k] = higher(sigma[k], tk + lk);
      low[k] = lower(low[k], lower(tk, lk));
      signs |= sign_bits(tk) | sign_bits(lk);
    }
  }
  double tau_max() const { return higher_lane(higher(tau[0], tau[1])); }
  double sigma_max() const { return higher_lane(higher(sigma[0], sigma[1])); }
  double d_max() const { return higher_lane(higher(d[0], d[1])); }
  double low_min() const { return lower_lane(lower(low[0], low[1])); }
};

}  // namespace

std::optional<StageScan> scan_stages(const std::vector<double>& tau, const std::vector<double>& d) {
  const auto S = static_cast<std::int64_t>(tau.size());
  StageScan scan;
  StageStats& stats = scan.stats;
  // One read-only pass validates and summarizes, at about the cost of summing
  // the arrays once (per-stage checks and branches cost far more). It
  // goes block by block, each block looked at twice while it is in L1 cache:
  // first its extremes; then a block that raises no maximum (nearly all of
  // them) needs only the sums, done exactly as StageStats::add does them, and
  // one that does goes through StageStats::add. So results are bit-identical.
  // The range checks become extremes checked once at the end; NaN, which
  // extremes can miss, leaves a NaN sum.
  double low = 0, d_max = 0;  // over every block
  constexpr std::int64_t kBlock = 256;
  const std::int64_t quad_end = (S - 1) / 4 * 4;
  for (std::int64_t begin = 0; begin < quad_end; begin += kBlock) {
    const std::int64_t end = std::min(begin + kBlock, quad_end);
    BlockExtremes block;
    for (std::int64_t s = begin; s < end; s += 4) block.add_four(&tau[s], &d[s]);
    low = lower(low, block.low_min());
    if (block.signs[0] | block.signs[1]) scan.negative_zero = true;
    d_max = higher(d_max, block.d_max());
    if (block.tau_max() > stats.tau_max || block.sigma_max() > stats.sigma_max) {
      for (std::int64_t s = begin; s < end; ++s) stats.add(s, tau[s], d[s]);
      continue;
    }
    for (std::int64_t s = begin; s < end; ++s) {
      stats.sum_tau += tau[s];
      stats.sum_d += d[s];
      stats.sum_slack += stats.tau_max - tau[s];
    }
  }
  const bool nan_free = stats.sum_tau == stats.sum_tau && stats.sum_d == stats.sum_d;
  if (!nan_free || !(low >= 0) || !(d_max <= limits::kMaxValue) || !(stats.tau_max <= limits::kMaxValue)) {
    return std::nullopt;
  }
  for (std::int64_t s = quad_end; s + 1 < S; ++s) {  // at most three stages left over
    if (!in_range(tau[s]) || !in_range(d[s])) return std::nullopt;
    stats.add(s, tau[s], d[s]);
    if (std::signbit(tau[s]) || std::signbit(d[s])) scan.negative_zero = true;
  }
  if (!in_range(tau[S - 1])) return std::nullopt;
  if (std::signbit(tau[S - 1])) scan.negative_zero = true;
  stats.add(S - 1, tau[S - 1], 0.0);  // the last stage sends nothing
  return scan;
}

}  // namespace heteropipe
