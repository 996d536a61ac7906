#include "heteropipe/schedule.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"

namespace heteropipe {
namespace {

// The per-stage busy time and the per-link latency the recurrence uses:
// asynchronous runs on (tau, d); blocking folds each send into its stage and
// runs on (sigma, 0).
struct RecurrenceInputs {
  std::vector<double> work, links;
};

RecurrenceInputs inputs_for(const Pipeline& p, Regime regime) {
  if (regime == Regime::async) return {p.tau(), p.d()};
  return {p.sigma(), std::vector<double>(p.d().size(), 0.0)};
}

// One anti-diagonal of the recurrence over stages [first, last], first >= 1.
// The restrict-qualified parameters tell the compiler the lanes are
// independent, so it vectorizes the loop.
void sweep_diagonal(const double* __restrict from, double* __restrict to, const double* __restrict work,
                    const double* __restrict link, std::int64_t first, std::int64_t last) {
  for (std::int64_t s = first; s <= last; ++s) {
    const double arrival = from[s - 1] + link[s - 1];
    const double free_at = from[s];
    to[s] = (arrival > free_at ? arrival : free_at) + work[s];
  }
}

// The value is the number of cells asked for, M * S.
Error too_many_cells(double cells, double limit) {
  return Error{ErrorCode::too_many_cells, Field::M, kWholeField, cells, {}, limit};
}

}  // namespace

std::string_view regime_name(Regime regime) {
  return regime == Regime::async ? "async" : "blocking";
}

std::optional<Regime> regime_from_name(std::string_view typed) {
  const std::string_view name = typed_value(typed);
  // kRegimeNames alternates the two regimes.
  for (std::size_t k = 0; k < std::size(kRegimeNames); ++k) {
    if (kRegimeNames[k] == name) return k % 2 == 0 ? Regime::async : Regime::blocking;
  }
  return std::nullopt;
}

std::optional<Error> check_stream_work(const Pipeline& p, double M) {
  const double S_count = static_cast<double>(p.S());
  const double steps = M * S_count + limits::kStreamDiagonalCost * (M + S_count - 1);
  if (steps <= limits::kMaxStreamWork) return std::nullopt;
  return Error{ErrorCode::too_much_work, Field::M, kWholeField, steps, {}, limits::kMaxStreamWork};
}

Result<double> recurrence_makespan(const Pipeline& p, double M, Regime regime) {
  if (auto e = check_stream_work(p, M)) return *e;
  const std::int64_t S = p.S();
  const auto batches = static_cast<std::int64_t>(M);
  const RecurrenceInputs in = inputs_for(p, regime);
  const double* work = in.work.data();
  const double* link = in.links.data();

  // Cells on one anti-diagonal k = m + s do not depend on each other, so
  // sweeping diagonals turns the carried max-plus chain into independent
  // lanes the compiler can vectorize. Each cell still sees exactly
  // max(T[m][s-1] + d[s-1], T[m-1][s]) + work[s], so the bits equal the
  // row-by-row recurrence. prev holds diagonal k-1 and next diagonal k; a
  // stage not yet reached keeps T[-1][s] = 0.
  std::vector<double> buffer_a(static_cast<std::size_t>(S), 0.0), buffer_b(buffer_a);
  double* prev = buffer_a.data();
  double* next = buffer_b.data();
  const std::int64_t diagonals = batches + S - 1;
  for (std::int64_t k = 0; k < diagonals; ++k) {
    const std::int64_t lo = std::max<std::int64_t>(0, k - (batches - 1));
    const std::int64_t hi = std::min<std::int64_t>(S - 1, k);
    if (lo == 0) next[0] = prev[0] + work[0];
    sweep_diagonal(prev, next, work, link, std::max<std::int64_t>(lo, 1), hi);
    std::swap(prev, next);
  }
  return prev[S - 1];
}

Result<Timeline> timeline(const Pipeline& p, double M, Regime regime) {
  const double cells = M * static_cast<double>(p.S());
  if (cells > limits::kMaxTimelineCells) return too_many_cells(cells, limits::kMaxTimelineCells);
  const std::int64_t S = p.S();
  const auto batches = static_cast<std::int64_t>(M);
  const RecurrenceInputs in = inputs_for(p, regime);
  const auto& tau = p.tau();
  const auto& d = p.d();

  Timeline t;
  t.S = S;
  t.M = batches;
  t.regime = regime;
  const auto cell_count = static_cast<std::size_t>(batches * S);
  const auto transfers = static_cast<std::size_t>(batches * (S - 1));
  t.compute_start.resize(cell_count);
  t.compute_finish.resize(cell_count);
  t.transfer_start.resize(transfers);
  t.transfer_finish.resize(transfers);

  // done[s] = T[m-1][s] while row m is computed, then T[m][s].
  std::vector<double> done(static_cast<std::size_t>(S), 0.0);
  for (std::int64_t m = 0; m < batches; ++m) {
    for (std::int64_t s = 0; s < S; ++s) {
      double start = done[s];
      if (s > 0) {
        const double arrival = done[s - 1] + in.links[s - 1];
        start = arrival > start ? arrival : start;
      }
      const double finish = start + in.work[s];
      done[s] = finish;
      const std::int64_t cell = m * S + s;
      t.compute_start[cell] = start;
      if (s + 1 == S) {
        t.compute_finish[cell] = finish;
        continue;
      }
      const std::int64_t transfer = m * (S - 1) + s;
      if (regime == Regime::async) {
        t.compute_finish[cell] = finish;
        t.transfer_start[transfer] = finish;
        t.transfer_finish[transfer] = finish + d[s];
      } else {
        // The stage computes for tau[s], then holds while it sends.
        t.compute_finish[cell] = start + tau[s];
        t.transfer_start[transfer] = start + tau[s];
        t.transfer_finish[transfer] = finish;
      }
    }
  }
  t.makespan = done[S - 1];
  t.utilization.resize(static_cast<std::size_t>(S));
  for (std::int64_t s = 0; s < S; ++s) {
    t.utilization[s] = static_cast<double>(batches) * in.work[s] / t.makespan;
  }
  return t;
}

}  // namespace heteropipe
