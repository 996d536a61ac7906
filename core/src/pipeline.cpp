#include "heteropipe/pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "stage_scan.hpp"

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

// A subnormal item (5e-324, -5e-324) is too_small (limit min_normal_number), as the same
// number typed as text is: the one rule every front end's list gets, here rather than in
// each binding's reader.
std::optional<Error> first_subnormal(const std::vector<double>& values, Field field) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (auto e = subnormal_error(values[i], field, static_cast<std::int64_t>(i), {})) return e;
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

}  // namespace

Result<Pipeline> Pipeline::create(std::vector<double> tau, std::vector<double> d) {
  const auto S = static_cast<std::int64_t>(tau.size());
  if (S >= 1 && S <= limits::kMaxStages) {
    // Before every other item check, tau's then d's, as the bindings' readers once made it.
    if (auto e = first_subnormal(tau, Field::tau)) return *e;
    if (auto e = first_subnormal(d, Field::d)) return *e;
  }
  return of_computed_times(std::move(tau), std::move(d));
}

Result<Pipeline> Pipeline::of_computed_times(std::vector<double> tau, std::vector<double> d) {
  const auto S = static_cast<std::int64_t>(tau.size());
  if (S == 0) return Error{ErrorCode::empty, Field::tau, kWholeField, 0.0, {}};
  if (S > limits::kMaxStages) {
    return Error{ErrorCode::too_many, Field::tau, kWholeField, static_cast<double>(S), {},
                 static_cast<double>(limits::kMaxStages)};
  }
  if (d.empty()) d.assign(static_cast<std::size_t>(S - 1), 0.0);
  if (static_cast<std::int64_t>(d.size()) != S - 1) return first_error(tau, d);

  const std::optional<StageScan> scan = scan_stages(tau, d);
  if (!scan) return first_error(tau, d);
  const StageStats& stats = scan->stats;
  if (scan->negative_zero) {  // -0 is zero: adding +0 turns it into +0 and leaves every other value alone
    for (double& x : tau) x += 0.0;
    for (double& x : d) x += 0.0;
  }
  if (stats.tau_max <= 0) return Error{ErrorCode::all_zero, Field::tau, kWholeField, 0.0, {}};
  if (stats.tau_max < limits::kMinStageTime) {
    return Error{ErrorCode::too_small, Field::tau, kWholeField, stats.tau_max, {}, limits::kMinStageTime};
  }

  Pipeline p;
  p.tau_ = std::move(tau);
  p.d_ = std::move(d);
  p.tau_max_ = stats.tau_max;
  p.tie_ = tie_tolerance_of(stats.tau_max);
  p.sigma_max_ = stats.sigma_max;
  p.bottleneck_ = stats.bottleneck;
  p.blocking_bottleneck_ = stats.blocking_bottleneck;
  if (stats.sigma_max > stats.tau_max && stats.sigma_max - stats.tau_max <= p.tie_) {
    // Tied with tau_max: the first stage whose sigma ties it is the blocking
    // bottleneck (rare, so a plain pass is fine).
    p.sigma_max_ = stats.tau_max;
    for (std::int64_t s = 0; s < S; ++s) {
      if (p.sigma(s) == p.sigma_max_) {
        p.blocking_bottleneck_ = s;
        break;
      }
    }
  }
  p.sum_tau_ = stats.sum_tau;
  p.sum_d_ = stats.sum_d;
  p.sum_slack_ = stats.sum_slack;
  return p;
}

double Pipeline::tie_tolerance_of(double tau_max) {
  return kTieUlps * (std::nextafter(tau_max, HUGE_VAL) - tau_max);
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
  // A subnormal given as a double (a binding's float) is refused as the same number typed is.
  if (auto e = subnormal_error(rho, Field::rho, kWholeField, {})) return e;
  if (rho < limits::kMinRho) return Error{ErrorCode::out_of_range, Field::rho, kWholeField, rho, {}, limits::kMinRho};
  if (rho > limits::kMaxRho) return Error{ErrorCode::out_of_range, Field::rho, kWholeField, rho, {}, limits::kMaxRho};
  return std::nullopt;
}

std::optional<Error> check_T_real(double T_real) {
  if (!std::isfinite(T_real)) {
    return Error{ErrorCode::not_finite, Field::T_real, kWholeField, 0.0, non_finite_token(T_real)};
  }
  if (auto e = subnormal_error(T_real, Field::T_real, kWholeField, {})) return e;
  if (T_real <= 0) return Error{ErrorCode::not_positive, Field::T_real, kWholeField, T_real, {}};
  if (T_real > limits::kMaxValue) {
    return Error{ErrorCode::too_large, Field::T_real, kWholeField, T_real, {}, limits::kMaxValue};
  }
  return std::nullopt;
}

}  // namespace heteropipe
