// Schedule CSV rows to the measured pipeline: the rows already say which
// stage and micro-batch each interval is, on one clock.
#include <algorithm>
#include <map>

#include "measured.hpp"

namespace heteropipe::trace_detail {

Result<Classified> measure_rows(const TraceEvents& events, const TraceOptions& options) {
  // A schedule has no profiler steps: a step asked for is one it lacks, as
  // in trace files that hold none.
  if (options.profiler_step) {
    return Error{ErrorCode::unknown_id, Field::profiler_step, kWholeField, static_cast<double>(*options.profiler_step),
                 {}, 0.0};
  }
  std::map<std::int64_t, TraceRank> ranks;
  std::map<std::int64_t, std::map<std::int64_t, std::vector<Interval>>> compute;    // stage -> micro-batch
  std::map<std::int64_t, std::map<std::int64_t, MeasuredTransfer>> transfers;       // link -> micro-batch
  for (const ScheduleRow& r : events.rows) {
    TraceRank& rank = ranks[r.stage];
    rank.rank = r.stage;
    ++rank.kernels;
    rank.streams = 1;
    if (r.transfer) {
      ++rank.transfer_kernels;
      rank.communication_time += r.end - r.start;
      transfers[r.stage][r.microbatch] = {r.start, r.end};
    } else {
      ++rank.compute_kernels;
      rank.compute_time += r.end - r.start;
      compute[r.stage][r.microbatch].emplace_back(r.start, r.end);
    }
  }
  std::vector<std::int64_t> found;
  for (const auto& [stage, rank] : ranks) found.push_back(stage);
  auto order = stage_ranks(found, options);
  if (!order) return order.error();
  Classified out;
  const std::vector<std::int64_t>& stage_rank = order.value();
  for (std::size_t s = 0; s < stage_rank.size(); ++s) ranks[stage_rank[s]].stage = static_cast<std::int64_t>(s);
  for (const auto& [stage, rank] : ranks) out.ranks.push_back(rank);
  if (ranks.size() < 2) {
    out.reason = NotPipeline::one_rank;
    return out;
  }
  if (transfers.empty()) {
    out.reason = NotPipeline::no_transfers;
    return out;
  }
  const std::size_t S = stage_rank.size();
  if (auto e = clock_offsets_error(options, S)) return *e;
  Measured& m = out.measured;
  m.stage_rank = stage_rank;
  // One clock unless offsets are given by hand (rows gathered from each
  // stage's own log): a stage's rows, its transfers' too, move by its offset.
  m.offsets.assign(S, 0.0);
  for (std::size_t s = 0; s < options.clock_offsets.size(); ++s) {
    m.offsets[s] = options.clock_offsets[s] * microseconds_in(options.unit);
  }
  m.unmatched.assign(S - 1, 0);
  m.transfers.resize(S - 1);
  m.compute.resize(S);
  for (std::size_t s = 0; s < S; ++s) {
    const double offset = m.offsets[s];
    for (auto& [microbatch, kernels] : compute[stage_rank[s]]) {
      for (Interval& k : kernels) k = {k.first + offset, k.second + offset};
      m.compute[s].push_back(std::move(kernels));
    }
    if (s + 1 == S) break;
    for (const auto& [microbatch, t] : transfers[stage_rank[s]]) {
      m.transfers[s].push_back({t.start + offset, t.end + offset});
    }
    if (m.transfers[s].empty()) {
      out.reason = NotPipeline::unpaired_link;
      return out;
    }
  }
  return out;
}

}  // namespace heteropipe::trace_detail
