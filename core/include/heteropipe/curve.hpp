#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "heteropipe/limits.hpp"
#include "heteropipe/pipeline.hpp"
#include "heteropipe/visit.hpp"

// Makespans over a range of micro-batch counts: what the pages plot and the
// CLI exports as CSV.
namespace heteropipe {

struct Curve {
  std::vector<double> M;
  std::vector<double> T_free, T_async, T_block, T_gpipe;
  std::vector<double> gpipe_overestimate;  // (T_gpipe - T_async) / T_async
};

// How many points a curve has when the caller does not say.
inline constexpr std::int64_t kDefaultCurvePoints = 200;

// A number of curve points given as a number: finite, whole and in
// [limits::kMinCurvePoints, limits::kMaxCurvePoints] (field points), the
// rules parse_count applies to typed text.
std::optional<Error> check_curve_points(double points);

// Integer M values from 1 to max(M, ceil(2 * M*)), increasing, at most
// max(max_points, 4) of them (max_points clamped to the limits above), always including 1,
// the current M and the first integer at or above the crossover M*. M must be
// valid.
std::vector<double> curve_batches(const Pipeline& p, double M, std::int64_t max_points);

// The closed forms at each of `batches` (each a valid M).
Curve makespan_curve(const Pipeline& p, const std::vector<double>& batches);

// The curve's fields in output order (see visit.hpp).
template <class Visitor>
void visit_fields(const Curve& c, Visitor&& visit) {
  visit("M", c.M);
  visit("T_free", c.T_free);
  visit("T_async", c.T_async);
  visit("T_block", c.T_block);
  visit("T_gpipe", c.T_gpipe);
  visit("gpipe_overestimate", c.gpipe_overestimate);
}

}  // namespace heteropipe
