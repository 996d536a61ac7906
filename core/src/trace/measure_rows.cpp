// Schedule CSV rows to the measured pipeline: the rows already say which
// stage and micro-batch each interval is, on one clock.
#include <algorithm>
#include <map>

#include "measured.hpp"

namespace heteropipe::trace_detail {

Result<Classified> measure_rows(const TraceEvents& events, const TraceOptions& options) {
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
  Measured& m = out.measured;
  m.stage_rank = stage_rank;
  m.offsets.assign(S, 0.0);
  m.unmatched.assign(S - 1, 0);
  m.transfers.resize(S - 1);
  m.compute.resize(S);
  for (std::size_t s = 0; s < S; ++s) {
    for (auto& [microbatch, kernels] : compute[stage_rank[s]]) m.compute[s].push_back(std::move(kernels));
    if (s + 1 == S) break;
    for (const auto& [microbatch, t] : transfers[stage_rank[s]]) m.transfers[s].push_back(t);
    if (m.transfers[s].empty()) {
      out.reason = NotPipeline::unpaired_link;
      return out;
    }
  }
  return out;
}

}  // namespace heteropipe::trace_detail
