#include "heteropipe/pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "heteropipe/limits.hpp"

namespace heteropipe {
namespace {

// How a not_finite error spells its value.
const char* non_finite_token(double x) { return std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf"; }

// The error for a value that failed the fast range test 0 <= x <= kMaxValue.
Error bad_value(Field field, std::int64_t index, double x) {
  if (!std::isfinite(x)) return Error{ErrorCode::not_finite, field, index, 0.0, non_finite_token(x)};
  if (x < 0) return Error{ErrorCode::negative, field, index, x, {}};
  return Error{ErrorCode::too_large, field, index, x, {}, limits::kMaxValue};
}

bool in_range(double x) { return x >= 0.0 && x <= limits::kMaxValue; }

std::optional<Error> first_bad_value(const std::vector<double>& values, Field field) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!in_range(values[i])) return bad_value(field, static_cast<std::int64_t>(i), values[i]);
  }
  return std::nullopt;
}

// The slow path, taken only for bad input: errors in field order, so that a
// bad tau is reported before a bad d whatever their positions.
Error first_error(const std::vector<double>& tau, const std::vector<double>& d) {
  if (auto e = first_bad_value(tau, Field::tau)) return *e;
  if (d.size() != tau.size() - 1) {
    return Error{ErrorCode::wrong_length, Field::d, kWholeField, static_cast<double>(d.size()), {},
                 static_cast<double>(tau.size() - 1)};
  }
  return *first_bad_value(d, Field::d);
}

// Running sums and maxima over the stages seen so far. The slack sum
// (tau_max - tau[s] over s) is kept against the running maximum: when a new
// maximum arrives, each earlier stage's slack grows by the difference. So
// Corollary 1's sum needs no second pass, and identical stages give exactly 0.
struct StageStats {
  double sum_tau = 0, sum_d = 0, sum_slack = 0, tau_max = 0, sigma_max = 0;
  std::int64_t bottleneck = 0, blocking_bottleneck = 0;

  void add(std::int64_t s, double tau, double link) {
    sum_tau += tau;
    sum_d += link;
    if (tau > tau_max) {
      sum_slack += static_cast<double>(s) * (tau - tau_max);
      tau_max = tau;
      bottleneck = s;
    } else {
      sum_slack += tau_max - tau;
    }
    const double sigma = tau + link;
    if (sigma > sigma_max) {
      sigma_max = sigma;
      blocking_bottleneck = s;
    }
  }
};

double higher(double a, double b) { return a > b ? a : b; }
double lower(double a, double b) { return a < b ? a : b; }

// Two doubles in one SIMD register (SSE2 natively, simd128 in wasm), through
// the vector extension GCC and Clang share. Written `b < a ? a : b`, a lane's
// maximum is one instruction on both (maxpd, f64x2.pmax); scalar selects
// become branches in V8's wasm code, which made this pass 3x slower there.
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

// The largest tau, sigma and d and the smallest tau or d of a block, without
// positions: branch-free, four stages at a time in two pairs of lanes, so that
// the latency of the max chains does not set the pace (a maximum does not
// depend on the order). NaN may or may not survive a maximum; the caller
// catches it through the sums.
struct BlockExtremes {
  Lanes tau[2] = {}, sigma[2] = {}, d[2] = {}, low[2] = {};

  void add_four(const double* t, const double* l) {
    for (int k = 0; k < 2; ++k) {
      const Lanes tk = load_lanes(t + 2 * k), lk = load_lanes(l + 2 * k);
      tau[k] = higher(tau[k], tk);
      d[k] = higher(d[k], lk);
      sigma[k] = higher(sigma[k], tk + lk);
      low[k] = lower(low[k], lower(tk, lk));
    }
  }
  double tau_max() const { return higher_lane(higher(tau[0], tau[1])); }
  double sigma_max() const { return higher_lane(higher(sigma[0], sigma[1])); }
  double d_max() const { return higher_lane(higher(d[0], d[1])); }
  double low_min() const { return lower_lane(lower(low[0], low[1])); }
};

}  // namespace

Result<Pipeline> Pipeline::create(std::vector<double> tau, std::vector<double> d) {
  const auto S = static_cast<std::int64_t>(tau.size());
  if (S == 0) return Error{ErrorCode::empty, Field::tau, kWholeField, 0.0, {}};
  if (S > limits::kMaxStages) {
    return Error{ErrorCode::too_many, Field::tau, kWholeField, static_cast<double>(S), {},
                 static_cast<double>(limits::kMaxStages)};
  }
  if (d.empty()) d.assign(static_cast<std::size_t>(S - 1), 0.0);
  if (static_cast<std::int64_t>(d.size()) != S - 1) return first_error(tau, d);

  // One read-only pass validates and summarizes, at about the cost of summing
  // the arrays once (per-stage checks and branches made it twice that). It
  // goes block by block, each block looked at twice while it is in L1 cache:
  // first its extremes; then a block that raises no maximum (nearly all of
  // them) needs only the sums, done exactly as StageStats::add does them, and
  // one that does goes through StageStats::add. So results are bit-identical.
  // The range checks become extremes checked once at the end; NaN, which
  // extremes can miss, leaves a NaN sum.
  StageStats stats;
  double low = 0, d_max = 0;  // over every block
  constexpr std::int64_t kBlock = 256;
  const std::int64_t quad_end = (S - 1) / 4 * 4;
  for (std::int64_t begin = 0; begin < quad_end; begin += kBlock) {
    const std::int64_t end = std::min(begin + kBlock, quad_end);
    BlockExtremes block;
    for (std::int64_t s = begin; s < end; s += 4) block.add_four(&tau[s], &d[s]);
    low = lower(low, block.low_min());
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
    return first_error(tau, d);
  }
  for (std::int64_t s = quad_end; s + 1 < S; ++s) {  // at most three stages left over
    if (!in_range(tau[s]) || !in_range(d[s])) return first_error(tau, d);
    stats.add(s, tau[s], d[s]);
  }
  if (!in_range(tau[S - 1])) return first_error(tau, d);
  stats.add(S - 1, tau[S - 1], 0.0);  // the last stage sends nothing
  if (stats.tau_max <= 0) return Error{ErrorCode::all_zero, Field::tau, kWholeField, 0.0, {}};
  if (stats.tau_max < limits::kMinStageTime) {
    return Error{ErrorCode::too_small, Field::tau, kWholeField, stats.tau_max, {}, limits::kMinStageTime};
  }

  Pipeline p;
  p.tau_ = std::move(tau);
  p.d_ = std::move(d);
  p.tau_max_ = stats.tau_max;
  p.sigma_max_ = stats.sigma_max;
  p.bottleneck_ = stats.bottleneck;
  p.blocking_bottleneck_ = stats.blocking_bottleneck;
  p.sum_tau_ = stats.sum_tau;
  p.sum_d_ = stats.sum_d;
  p.sum_slack_ = stats.sum_slack;
  return p;
}

std::vector<double> Pipeline::sigma() const {
  std::vector<double> sigma(tau_.size());
  for (std::int64_t s = 0; s < S(); ++s) sigma[s] = this->sigma(s);
  return sigma;
}

std::pair<std::vector<double>, std::vector<double>> Pipeline::release() && {
  return {std::move(tau_), std::move(d_)};
}

std::optional<Error> check_batches(double M) {
  if (!std::isfinite(M)) {
    return Error{ErrorCode::not_finite, Field::M, kWholeField, 0.0, non_finite_token(M)};
  }
  if (M != std::floor(M)) return Error{ErrorCode::not_integer, Field::M, kWholeField, M, {}};
  if (M < limits::kMinBatches) return Error{ErrorCode::out_of_range, Field::M, kWholeField, M, {}, limits::kMinBatches};
  if (M > limits::kMaxBatches) return Error{ErrorCode::out_of_range, Field::M, kWholeField, M, {}, limits::kMaxBatches};
  return std::nullopt;
}

std::optional<Error> check_rho(double rho) {
  if (!std::isfinite(rho)) {
    return Error{ErrorCode::not_finite, Field::rho, kWholeField, 0.0, non_finite_token(rho)};
  }
  if (rho < limits::kMinRho) return Error{ErrorCode::out_of_range, Field::rho, kWholeField, rho, {}, limits::kMinRho};
  if (rho > limits::kMaxRho) return Error{ErrorCode::out_of_range, Field::rho, kWholeField, rho, {}, limits::kMaxRho};
  return std::nullopt;
}

std::optional<Error> check_T_real(double T_real) {
  if (!std::isfinite(T_real)) {
    return Error{ErrorCode::not_finite, Field::T_real, kWholeField, 0.0, non_finite_token(T_real)};
  }
  if (T_real <= 0) return Error{ErrorCode::not_positive, Field::T_real, kWholeField, T_real, {}};
  if (T_real > limits::kMaxValue) {
    return Error{ErrorCode::too_large, Field::T_real, kWholeField, T_real, {}, limits::kMaxValue};
  }
  return std::nullopt;
}

}  // namespace heteropipe
