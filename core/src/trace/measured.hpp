#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "heteropipe/trace/model.hpp"

// The run as measured, on one aligned clock in microseconds: what both
// readers (trace events, schedule CSV) reduce to before the statistics.
namespace heteropipe::trace_detail {

using Interval = std::pair<double, double>;

struct MeasuredTransfer {
  double start = 0, end = 0;  // max(start_send, start_recv) and the end, aligned
};

struct Measured {
  std::vector<std::int64_t> stage_rank;
  // Per stage, per micro-batch: its compute kernels (empty: none seen).
  std::vector<std::vector<std::vector<Interval>>> compute;
  // Per link: its matched transfers in order, and how many were left unmatched.
  std::vector<std::vector<MeasuredTransfer>> transfers;
  std::vector<std::int64_t> unmatched;
  std::vector<double> offsets;  // per stage, microseconds
};

// Events to ranks and, when they form one, the measured pipeline (or the reason they do not).
struct Classified {
  std::vector<TraceRank> ranks;  // times in microseconds
  std::optional<NotPipeline> reason;
  Measured measured;
};

Result<Classified> measure_events(const TraceEvents& events, const TraceOptions& options);
Result<Classified> measure_rows(const TraceEvents& events, const TraceOptions& options);

// Everything the result reports, from the measured run.
TraceResult summarize(Classified classified, const TraceEvents& events, const TraceOptions& options);

// The stages' ranks: the given order when it is a permutation of `ranks`,
// else ascending.
Result<std::vector<std::int64_t>> stage_ranks(std::vector<std::int64_t> ranks, const TraceOptions& options);

}  // namespace heteropipe::trace_detail
