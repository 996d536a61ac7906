#include "heteropipe/curve.hpp"

#include <algorithm>
#include <cmath>

#include "heteropipe/formulas.hpp"
#include "heteropipe/limits.hpp"

namespace heteropipe {

std::optional<Error> check_curve_points(double points) {
  const auto low = static_cast<double>(limits::kMinCurvePoints), high = static_cast<double>(limits::kMaxCurvePoints);
  if (!std::isfinite(points)) {
    return Error{ErrorCode::not_finite, Field::points, kWholeField, 0.0, std::isnan(points) ? "nan" : points > 0 ? "inf" : "-inf"};
  }
  if (points != std::floor(points)) return Error{ErrorCode::not_integer, Field::points, kWholeField, points, {}};
  if (points < low) return Error{ErrorCode::out_of_range, Field::points, kWholeField, points, {}, low};
  if (points > high) return Error{ErrorCode::out_of_range, Field::points, kWholeField, points, {}, high};
  return std::nullopt;
}

std::vector<double> curve_batches(const Pipeline& p, double M, std::int64_t max_points) {
  const auto points = static_cast<double>(
      std::clamp<std::int64_t>(max_points, limits::kMinCurvePoints, limits::kMaxCurvePoints));
  const double crossover_ceiling = std::min(std::ceil(crossover_batches(p)), limits::kMaxBatches);
  const double upper = std::max({M, std::min(2 * crossover_ceiling, limits::kMaxBatches), 2.0});
  std::vector<double> batches;
  batches.reserve(static_cast<std::size_t>(points) + 2);
  // Even steps in M, rounded to integers, leaving room for the two marks.
  const double steps = std::max(points - 2, 2.0);
  for (double i = 0; i < steps; ++i) {
    batches.push_back(std::round(1 + (upper - 1) * (i / (steps - 1))));
  }
  batches.push_back(M);
  batches.push_back(crossover_ceiling);
  std::sort(batches.begin(), batches.end());
  batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
  return batches;
}

Curve makespan_curve(const Pipeline& p, const std::vector<double>& batches) {
  Curve c;
  c.M = batches;
  const std::size_t n = batches.size();
  for (auto* series : {&c.T_free, &c.T_async, &c.T_block, &c.T_gpipe, &c.gpipe_overestimate}) series->resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double M = batches[i];
    c.T_free[i] = makespan_free(p, M);
    c.T_async[i] = makespan_async(p, M);
    c.T_block[i] = makespan_blocking(p, M);
    c.T_gpipe[i] = makespan_gpipe(p, M);
    c.gpipe_overestimate[i] = gpipe_overestimate(p, M);
  }
  return c;
}

}  // namespace heteropipe
