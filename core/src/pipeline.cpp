#include "heteropipe/pipeline.hpp"

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

}  // namespace

Result<Pipeline> Pipeline::create(std::vector<double> tau, std::vector<double> d) {
  const auto S = static_cast<std::int64_t>(tau.size());
  if (S == 0) return Error{ErrorCode::empty, Field::tau, kWholeField, 0.0, {}};
  if (S > limits::kMaxStages) {
    return Error{ErrorCode::too_many, Field::tau, kWholeField, static_cast<double>(S), {}};
  }
  if (d.empty()) d.assign(static_cast<std::size_t>(S - 1), 0.0);
  if (static_cast<std::int64_t>(d.size()) != S - 1) return first_error(tau, d);

  Pipeline p;
  p.sigma_.resize(tau.size());
  // One fused pass: validate, sum, take maxima, build sigma. Sums run left to
  // right so every front end gets the same bits.
  double sum_tau = 0, sum_d = 0, tau_max = -1, sigma_max = -1;
  std::int64_t bottleneck = 0, blocking_bottleneck = 0;
  for (std::int64_t s = 0; s < S; ++s) {
    const double t = tau[s];
    if (!in_range(t)) return first_error(tau, d);
    double sigma = t;
    if (s + 1 < S) {
      const double link = d[s];
      if (!in_range(link)) return first_error(tau, d);
      sum_d += link;
      sigma = t + link;
    }
    sum_tau += t;
    p.sigma_[s] = sigma;
    if (t > tau_max) tau_max = t, bottleneck = s;
    if (sigma > sigma_max) sigma_max = sigma, blocking_bottleneck = s;
  }
  if (tau_max <= 0) return Error{ErrorCode::all_zero, Field::tau, kWholeField, 0.0, {}};
  if (tau_max < limits::kMinStageTime) return Error{ErrorCode::too_small, Field::tau, kWholeField, tau_max, {}};

  // The slack terms need tau_max, hence a second pass.
  double sum_slack = 0;
  bool past_transition = false;
  for (std::int64_t s = 0; s < S; ++s) {
    const double slack = tau_max - tau[s];
    sum_slack += slack;
    if (s + 1 < S && d[s] > slack) past_transition = true;
  }

  p.tau_ = std::move(tau);
  p.d_ = std::move(d);
  p.tau_max_ = tau_max;
  p.sigma_max_ = sigma_max;
  p.bottleneck_ = bottleneck;
  p.blocking_bottleneck_ = blocking_bottleneck;
  p.sum_tau_ = sum_tau;
  p.sum_d_ = sum_d;
  p.sum_slack_ = sum_slack;
  p.any_link_past_transition_ = past_transition;
  return p;
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
