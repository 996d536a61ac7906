#include "heteropipe/pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "heteropipe/limits.hpp"

namespace heteropipe {
namespace {

// The error for a value that failed the fast range test 0 <= x <= kMaxValue.
Error bad_value(Field field, std::int64_t index, double x) {
  if (std::isnan(x)) return Error{ErrorCode::not_finite, field, index, 0.0, "nan"};
  if (std::isinf(x)) return Error{ErrorCode::not_finite, field, index, 0.0, x > 0 ? "inf" : "-inf"};
  if (x < 0) return Error{ErrorCode::negative, field, index, x, {}};
  return Error{ErrorCode::too_large, field, index, x, {}};
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
    return Error{ErrorCode::wrong_length, Field::d, kWholeField, static_cast<double>(d.size()), {}};
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

// The largest tau, sigma and d and the smallest tau or d of a block, without
// positions: branch-free, and two stages at a time so that the latency of the
// max chains does not set the pace (a maximum does not depend on the order).
struct BlockExtremes {
  double tau = 0, sigma = 0, d = 0, low = 0;

  void add_pair(double t0, double l0, double t1, double l1) {
    sigma = higher(sigma, higher(t0 + l0, t1 + l1));
    low = lower(low, lower(lower(t0, t1), lower(l0, l1)));
    tau = higher(tau, higher(t0, t1));
    d = higher(d, higher(l0, l1));
  }
};

}  // namespace

Result<Pipeline> Pipeline::create(std::vector<double> tau, std::vector<double> d) {
  const auto S = static_cast<std::int64_t>(tau.size());
  if (S == 0) return Error{ErrorCode::empty, Field::tau, kWholeField, 0.0, {}};
  if (S > limits::kMaxStages) {
    return Error{ErrorCode::too_many, Field::tau, kWholeField, static_cast<double>(S), {}};
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
  BlockExtremes all;  // its low and d cover every block
  constexpr std::int64_t kBlock = 256;
  const std::int64_t paired_end = (S - 1) / 2 * 2;
  for (std::int64_t begin = 0; begin < paired_end; begin += kBlock) {
    const std::int64_t end = std::min(begin + kBlock, paired_end);
    BlockExtremes block;
    for (std::int64_t s = begin; s < end; s += 2) block.add_pair(tau[s], d[s], tau[s + 1], d[s + 1]);
    all.low = lower(all.low, block.low);
    all.d = higher(all.d, block.d);
    if (block.tau > stats.tau_max || block.sigma > stats.sigma_max) {
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
  if (!nan_free || !(all.low >= 0) || !(all.d <= limits::kMaxValue) || !(stats.tau_max <= limits::kMaxValue)) {
    return first_error(tau, d);
  }
  for (std::int64_t s = paired_end; s + 1 < S; ++s) {  // at most one stage left over
    if (!in_range(tau[s]) || !in_range(d[s])) return first_error(tau, d);
    stats.add(s, tau[s], d[s]);
  }
  if (!in_range(tau[S - 1])) return first_error(tau, d);
  stats.add(S - 1, tau[S - 1], 0.0);  // the last stage sends nothing
  if (stats.tau_max <= 0) return Error{ErrorCode::all_zero, Field::tau, kWholeField, 0.0, {}};
  if (stats.tau_max < limits::kMinStageTime) {
    return Error{ErrorCode::too_small, Field::tau, kWholeField, stats.tau_max, {}};
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

std::optional<Error> check_batches(double M) {
  if (!std::isfinite(M)) {
    return Error{ErrorCode::not_finite, Field::M, kWholeField, 0.0, std::isnan(M) ? "nan" : "inf"};
  }
  if (M != std::floor(M)) return Error{ErrorCode::not_integer, Field::M, kWholeField, M, {}};
  if (M < 1 || M > limits::kMaxBatches) return Error{ErrorCode::out_of_range, Field::M, kWholeField, M, {}};
  return std::nullopt;
}

std::optional<Error> check_rho(double rho) {
  if (!std::isfinite(rho)) {
    return Error{ErrorCode::not_finite, Field::rho, kWholeField, 0.0, std::isnan(rho) ? "nan" : "inf"};
  }
  if (rho < 0 || rho > 1) return Error{ErrorCode::out_of_range, Field::rho, kWholeField, rho, {}};
  return std::nullopt;
}

std::optional<Error> check_T_real(double T_real) {
  if (!std::isfinite(T_real)) {
    return Error{ErrorCode::not_finite, Field::T_real, kWholeField, 0.0, std::isnan(T_real) ? "nan" : "inf"};
  }
  if (T_real <= 0) return Error{ErrorCode::not_positive, Field::T_real, kWholeField, T_real, {}};
  if (T_real > limits::kMaxValue) return Error{ErrorCode::too_large, Field::T_real, kWholeField, T_real, {}};
  return std::nullopt;
}

}  // namespace heteropipe
