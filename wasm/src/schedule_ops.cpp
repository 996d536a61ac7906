// The quantities that take more than a pipeline and M, the exact schedule
// and the curves.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "heteropipe/curve.hpp"
#include "heteropipe/formulas.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/schedule.hpp"
#include "memory.hpp"
#include "operations.hpp"

namespace heteropipe::wasm {
namespace {

// Bytes of `count` doubles.
double doubles(double count) { return count * sizeof(double); }

}  // namespace

double effective_slope(double staging) {
  Request in(staging);
  auto p = read_pipeline(in);
  if (!p) return refuse(p.error());
  auto rho = read_rho(in);
  return rho ? value(heteropipe::effective_slope(p.value(), rho.value())) : refuse(rho.error());
}

// No value (null in JS) without overlap headroom.
double overlap_ratio(double staging) {
  Request in(staging);
  auto at = read_pipeline_at_batches(in);
  if (!at) return refuse(at.error());
  const auto& [p, M] = at.value();
  const auto T_real = in.number("T_real", Field::T_real);
  if (!T_real) return refuse(Error{ErrorCode::empty, Field::T_real, kWholeField, 0.0, {}});
  if (auto e = check_T_real(*T_real)) return refuse(in.annotated(*e));
  const auto ratio = heteropipe::overlap_ratio(p, M, *T_real);
  return ratio ? value(*ratio) : reply_of([](Writer&) {});
}

double recurrence_makespan(double staging) {
  Request in(staging);
  auto at = read_pipeline_at_batches(in);
  if (!at) return refuse(at.error());
  const auto& [p, M] = at.value();
  // Its inputs (copies of two per-stage lists) and two rows of cells.
  const double S = static_cast<double>(p.S());
  if (!check_stream_work(p, M) && !room_for(doubles(4 * S))) {
    return refuse(out_of_memory(Field::tau, doubles(4 * S)));
  }
  auto T = heteropipe::recurrence_makespan(p, M, read_regime(in));
  return T ? value(T.value()) : refuse(T.error());
}

double timeline(double staging) {
  Request in(staging);
  auto at = read_pipeline_at_batches(in);
  if (!at) return refuse(at.error());
  const auto& [p, M] = at.value();
  // Four lists of (at most) one value per cell, the inputs and a row.
  const double S = static_cast<double>(p.S());
  const double cells = M * S;
  if (cells <= limits::kMaxTimelineCells && !room_for(doubles(4 * cells + 3 * S))) {
    return refuse(out_of_memory(Field::M, doubles(4 * cells + 3 * S)));
  }
  auto t = heteropipe::timeline(p, M, read_regime(in));
  return t ? answer(std::move(t).value()) : refuse(t.error());
}

double curve_batches(double staging) {
  Request in(staging);
  auto at = read_pipeline_at_batches(in);
  if (!at) return refuse(at.error());
  const auto& [p, M] = at.value();
  const double points = in.number("points", Field::points, static_cast<double>(kDefaultCurvePoints));
  if (auto e = check_curve_points(points)) return refuse(in.annotated(*e));
  return answer(heteropipe::curve_batches(p, M, static_cast<std::int64_t>(points)),
                [](const std::vector<double>& v, Writer& w) { w("values", v); });
}

double makespan_curve(double staging) {
  Request in(staging);
  auto p = read_pipeline(in);
  if (!p) return refuse(p.error());
  auto batches = in.list("batches", Field::M, static_cast<double>(limits::kMaxCurvePoints));
  if (!batches) return refuse(batches.error());
  const std::vector<double>& M = batches.value();
  for (std::size_t i = 0; i < M.size(); ++i) {
    if (auto e = check_batches(M[i])) {
      e->index = static_cast<std::int64_t>(i);
      return refuse(in.annotated(*e));
    }
  }
  return answer(heteropipe::makespan_curve(p.value(), M));
}

}  // namespace heteropipe::wasm
