#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"
#include "heteropipe/pipeline.hpp"
#include "heteropipe/visit.hpp"

// The exact schedule: the max-plus recurrences of the model, evaluated cell by
// cell. This is the ground truth the closed forms are tested against, and the
// source of the timeline the pages draw.
namespace heteropipe {

enum class Regime {
  async,     // a send runs in the background; stage s is busy tau[s]
  blocking,  // a send holds its stage; stage s is busy sigma[s]
};

// Makespan T[M-1][S-1] by the recurrence, in O(S) memory. Refuses
// (too_much_work, field M, value M x S + kStreamDiagonalCost (M + S - 1)) above
// limits::kMaxStreamWork. M must be valid.
Result<double> recurrence_makespan(const Pipeline& p, double M, Regime regime);

// The work check recurrence_makespan makes first: too_much_work, or nothing.
std::optional<Error> check_stream_work(const Pipeline& p, double M);

// Start and finish of every (micro-batch, stage) cell and of every transfer,
// row-major by micro-batch: cell (m, s) is at m * S + s, transfer (m, s) from
// stage s to s+1 at m * (S-1) + s. Under blocking, a cell's busy interval is
// [compute_start, compute_finish]; its transfer occupies the stage right after.
struct Timeline {
  std::int64_t S = 0, M = 0;
  Regime regime = Regime::async;
  std::vector<double> compute_start, compute_finish;
  std::vector<double> transfer_start, transfer_finish;
  double makespan = 0;
  // Per stage, the share of the makespan it is busy: M tau[s] / makespan, or
  // M sigma[s] / makespan under blocking, where a send holds its stage.
  std::vector<double> utilization;
};

// Refuses (too_many_cells, field M, value M * S) when M * S exceeds
// limits::kMaxTimelineCells.
Result<Timeline> timeline(const Pipeline& p, double M, Regime regime);

// "async" or "blocking", the one spelling every interface writes.
std::string_view regime_name(Regime regime);
// Every name regime_from_name reads: "async" and "blocking", then the former
// spellings "asynchronous" and "block", still read as the same regimes.
inline constexpr std::string_view kRegimeNames[] = {"async", "blocking", "asynchronous", "block"};
// The regime of one of kRegimeNames, or nullopt.
std::optional<Regime> regime_from_name(std::string_view name);

// The timeline's fields in output order (see visit.hpp).
template <class Visitor>
void visit_fields(const Timeline& t, Visitor&& visit) {
  visit("S", t.S);
  visit("M", t.M);
  visit("regime", regime_name(t.regime));
  visit("makespan", t.makespan);
  visit("utilization", t.utilization);
  visit("compute_start", t.compute_start);
  visit("compute_finish", t.compute_finish);
  visit("transfer_start", t.transfer_start);
  visit("transfer_finish", t.transfer_finish);
}

}  // namespace heteropipe
