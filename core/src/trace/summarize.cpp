// The measured run to the result: samples, their statistics, the chosen
// tau and d, M, T_real, the analysis and the warnings.
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "measured.hpp"

namespace heteropipe::trace_detail {
namespace {

// A nanosecond, in microseconds.
constexpr double kSameTime = 1e-3;

// Percentiles interpolate linearly between the two nearest ranks.
double percentile(const std::vector<double>& sorted, double p) {
  const double position = p * static_cast<double>(sorted.size() - 1);
  const auto low = static_cast<std::size_t>(std::floor(position));
  const std::size_t high = std::min(low + 1, sorted.size() - 1);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - static_cast<double>(low));
}

SampleStats statistics(std::vector<double> samples) {
  SampleStats s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  double sum = 0;
  for (double x : samples) sum += x;
  s.count = static_cast<std::int64_t>(samples.size());
  s.min = samples.front();
  s.max = samples.back();
  s.mean = sum / static_cast<double>(samples.size());
  s.p50 = percentile(samples, 0.5);
  s.p95 = percentile(samples, 0.95);
  return s;
}

double chosen(const SampleStats& s, TraceStat stat) {
  switch (stat) {
    case TraceStat::min: return s.min;
    case TraceStat::p50: return s.p50;
    case TraceStat::mean: return s.mean;
  }
  return s.min;
}

// Kernel time with overlapping kernels counted once.
double busy_time(std::vector<Interval> kernels) {
  std::sort(kernels.begin(), kernels.end());
  double busy = 0, open = kernels.front().first, close = kernels.front().second;
  for (const Interval& k : kernels) {
    if (k.first > close) {
      busy += close - open;
      open = k.first;
    }
    close = std::max(close, k.second);
  }
  return busy + (close - open);
}

// T_async and T_block of the tau and d one statistic picks (zeros when they
// are no valid model, e.g. a stage whose every span is 0).
SandwichAt sandwich_at(const TraceResult& r, TraceStat stat) {
  std::vector<double> tau, d;
  for (const TraceStage& s : r.stages) tau.push_back(chosen(s.span, stat));
  for (const TraceLink& l : r.links) d.push_back(chosen(l.d, stat));
  auto pipeline = Pipeline::of_computed_times(tau, d);
  if (!pipeline) return {};
  const auto shared = std::make_shared<const Pipeline>(std::move(pipeline).value());
  const Analysis a = analyze(shared, static_cast<double>(r.M), 1.0, std::nullopt);
  return {a.T_async, a.T_block};
}

void warn_about_ranks(const TraceEvents& events, TraceResult& r) {
  // A schedule CSV's transfer rows are the sending stage's alone.
  const bool any_transfer = events.rows.empty() && std::any_of(r.ranks.begin(), r.ranks.end(), [](const TraceRank& rank) {
                              return rank.transfer_kernels > 0;
                            });
  for (const TraceRank& rank : r.ranks) {
    if (rank.stage < 0) continue;  // left out of the stage order: no stage, nothing expected of it
    if (rank.compute_kernels == 0) {
      r.warnings.push_back({TraceWarningCode::rank_without_compute, rank.rank, 0, 0});
    }
    if (any_transfer && rank.transfer_kernels == 0) {
      r.warnings.push_back({TraceWarningCode::rank_without_transfers, rank.rank, 0, 0});
    }
  }
  std::int64_t world = 0;
  for (const TraceFile& f : events.files) world = std::max(world, f.world_size.value_or(0));
  const auto found = static_cast<std::int64_t>(r.ranks.size());
  if (world > found) {
    r.warnings.push_back({TraceWarningCode::missing_ranks, kWholeField, static_cast<double>(found),
                          static_cast<double>(world)});
  }
}

}  // namespace

TraceResult summarize(Classified classified, const TraceEvents& events, const TraceOptions& options) {
  const double unit = microseconds_in(options.unit);
  TraceResult r;
  r.stat = options.stat;
  r.unit = options.unit;
  r.ranks = std::move(classified.ranks);
  for (TraceRank& rank : r.ranks) {
    rank.compute_time /= unit;
    rank.communication_time /= unit;
  }
  warn_about_ranks(events, r);
  const ProfilerSteps& steps = classified.steps;
  if (steps.files_left_out > 0) {
    r.warnings.push_back({TraceWarningCode::profiler_windows, steps.first_of_window, static_cast<double>(steps.windows),
                          static_cast<double>(steps.files_left_out)});
  }
  if (steps.count > 1) {
    r.warnings.push_back({TraceWarningCode::profiler_steps, steps.chosen, static_cast<double>(steps.count),
                          static_cast<double>(steps.last)});
  }
  const Measured& nested = classified.measured;
  if (nested.nested_rank) {
    r.warnings.push_back({TraceWarningCode::nested_ranges, *nested.nested_rank,
                          static_cast<double>(nested.nested_containers), static_cast<double>(nested.nested_parts)});
  }
  r.reason = classified.reason;
  r.range_names = std::move(classified.range_names);
  if (r.reason) return r;

  const Measured& m = classified.measured;
  const std::size_t S = m.stage_rank.size();
  std::vector<std::vector<double>> stage_spans(S), link_times(S - 1);
  // By ranges, a slot any stage saw is a micro-batch of the run; a stage
  // without it (no range, or no compute in it) replays it in its tau.
  std::vector<std::vector<std::optional<double>>> slot_spans(S);
  std::int64_t fewest = INT64_MAX, most = 0;
  double first_start = INFINITY, last_end = -INFINITY;
  for (std::size_t s = 0; s < S; ++s) {
    TraceStage stage;
    stage.stage = static_cast<std::int64_t>(s);
    stage.rank = m.stage_rank[s];
    std::vector<double> spans, busy;
    for (const auto& kernels : m.compute[s]) {
      if (kernels.empty()) {
        slot_spans[s].emplace_back();
        continue;
      }
      double start = INFINITY, end = -INFINITY;
      for (const Interval& k : kernels) {
        start = std::min(start, k.first);
        end = std::max(end, k.second);
      }
      spans.push_back((end - start) / unit);
      slot_spans[s].emplace_back(spans.back());
      busy.push_back(busy_time(kernels) / unit);
      if (s == 0) first_start = std::min(first_start, start);
      if (s + 1 == S) last_end = std::max(last_end, end);
    }
    stage.microbatches = static_cast<std::int64_t>(spans.size());
    fewest = std::min(fewest, stage.microbatches);
    most = std::max(most, stage.microbatches);
    stage.span = statistics(spans);
    stage.busy = statistics(busy);
    stage_spans[s] = std::move(spans);
    r.tau.push_back(chosen(stage.span, options.stat));
    r.stages.push_back(stage);
  }
  if (fewest == 0) {
    r.reason = NotPipeline::no_microbatches;
    return r;
  }
  for (std::size_t link = 0; link + 1 < S; ++link) {
    TraceLink l;
    l.link = static_cast<std::int64_t>(link);
    l.from_rank = m.stage_rank[link];
    l.to_rank = m.stage_rank[link + 1];
    l.pairs = static_cast<std::int64_t>(m.transfers[link].size());
    l.unmatched = m.unmatched[link];
    std::vector<double> d;
    for (const MeasuredTransfer& t : m.transfers[link]) d.push_back(std::max(0.0, t.end - t.start) / unit);
    l.d = statistics(d);
    r.d.push_back(chosen(l.d, options.stat));
    if (l.unmatched > 0) {
      r.warnings.push_back({TraceWarningCode::unmatched_transfers, l.link, static_cast<double>(l.unmatched), 0});
    }
    if (r.d.back() == 0) {
      // Say why: pairs whose receive ended no later than both sides had started.
      const auto none = std::count(d.begin(), d.end(), 0.0);
      r.warnings.push_back({TraceWarningCode::link_time_zero, l.link, static_cast<double>(none),
                            static_cast<double>(l.pairs)});
    }
    link_times[link] = std::move(d);
    r.links.push_back(l);
  }
  r.M = fewest;
  // Per stage, each non-empty slot's micro-batch number in the schedule.
  std::vector<std::int64_t> slot_number;
  if (m.numbered) {
    // The slots any stage saw, in order, each stage's span or its tau.
    std::vector<std::vector<double>> replayed(S);
    for (std::size_t slot = 0; slot < slot_spans[0].size(); ++slot) {
      const bool seen = std::any_of(slot_spans.begin(), slot_spans.end(),
                                    [&](const auto& spans) { return spans[slot].has_value(); });
      slot_number.push_back(static_cast<std::int64_t>(replayed[0].size()));
      if (!seen) continue;
      for (std::size_t s = 0; s < S; ++s) replayed[s].push_back(slot_spans[s][slot].value_or(r.tau[s]));
    }
    r.M = static_cast<std::int64_t>(replayed[0].size());
    stage_spans = std::move(replayed);
  }
  r.T_real = (last_end - first_start) / unit;
  for (double o : m.offsets) r.clock_offsets.push_back(o / unit);
  for (std::size_t link = 0; link < m.bounds.size(); ++link) {
    const OffsetBounds& b = m.bounds[link];
    ClockOffsetBounds out{b.lo / unit, std::nullopt};
    if (b.hi) out.hi = *b.hi / unit;
    r.clock_offset_bounds.push_back(out);
    // Pairs that contradict each other: a clock that drifts, or pairs matched wrongly.
    if (b.hi && b.lo > *b.hi + kTraceResolution) {
      r.warnings.push_back(
          {TraceWarningCode::clock_bounds_contradict, static_cast<std::int64_t>(link), out.lo, *out.hi});
    }
    if (const auto& both = m.ambiguous_pairing[link]) {
      r.warnings.push_back({TraceWarningCode::pairing_ambiguous, static_cast<std::int64_t>(link), both->first / unit,
                            both->second / unit});
    }
  }
  if (fewest != most) {
    r.warnings.push_back({TraceWarningCode::microbatch_counts_differ, kWholeField, static_cast<double>(fewest),
                          static_cast<double>(most)});
  }
  if (m.repeated_stage) {
    r.warnings.push_back({TraceWarningCode::repeated_microbatch_names, *m.repeated_stage,
                          static_cast<double>(m.repeated_ranges), static_cast<double>(m.repeated_distinct)});
  }
  if (m.numbered && fewest != most) {
    // A stage without the run's first or last micro-batch ran a shorter
    // window: the others' edges would be set against its own.
    const auto seen = [](const std::optional<double>& x) { return x.has_value(); };
    std::vector<std::ptrdiff_t> firsts, lasts;  // per stage: its first slot, one past its last
    for (const auto& spans : slot_spans) {
      firsts.push_back(std::find_if(spans.begin(), spans.end(), seen) - spans.begin());
      lasts.push_back(std::find_if(spans.rbegin(), spans.rend(), seen).base() - spans.begin());
    }
    if (*std::max_element(firsts.begin(), firsts.end()) > *std::min_element(firsts.begin(), firsts.end()) ||
        *std::min_element(lasts.begin(), lasts.end()) < *std::max_element(lasts.begin(), lasts.end())) {
      r.reason = NotPipeline::stage_cut_short;
      return r;
    }
  }
  if (r.M <= static_cast<std::int64_t>(S)) {
    r.warnings.push_back({TraceWarningCode::short_run, kWholeField, static_cast<double>(r.M), static_cast<double>(S)});
  }
  if (m.returns_sent + m.returns_received > 0) {
    r.warnings.push_back({TraceWarningCode::returns_to_first_stage, kWholeField, static_cast<double>(m.returns_sent),
                          static_cast<double>(m.returns_received)});
  }
  if (m.other_pass > 0) {
    r.warnings.push_back({TraceWarningCode::other_pass_set_aside, kWholeField, static_cast<double>(m.other_pass),
                          static_cast<double>(m.pass_transfers)});
  }
  if (m.reversed) {
    r.warnings.push_back({TraceWarningCode::stages_reversed, kWholeField, static_cast<double>(m.stage_rank.front()),
                          static_cast<double>(m.stage_rank.back())});
  }
  if (m.reordered) {
    r.warnings.push_back({TraceWarningCode::stages_reordered, kWholeField, static_cast<double>(m.stage_rank.front()),
                          static_cast<double>(m.stage_rank.back())});
  }
  if (m.set_aside > 0) {
    r.warnings.push_back({TraceWarningCode::messages_set_aside, kWholeField, static_cast<double>(m.set_aside), 0});
  }

  auto pipeline = Pipeline::of_computed_times(r.tau, r.d);
  if (!pipeline || check_T_real(r.T_real)) {
    r.reason = NotPipeline::model_rejected;
    return r;
  }
  const auto shared = std::make_shared<const Pipeline>(std::move(pipeline).value());
  // Times are measured to the microsecond or the nanosecond, so a T_real
  // within a nanosecond of a bound is that bound: the unit's division must
  // not move a run that equals T_async or T_block outside the sandwich.
  const Analysis bounds = analyze(shared, static_cast<double>(r.M), 1.0, std::nullopt);
  for (double bound : {bounds.T_async, bounds.T_block}) {
    if (std::fabs(r.T_real - bound) <= kSameTime / unit) r.T_real = bound;
  }
  r.analysis = analyze(shared, static_cast<double>(r.M), 1.0, r.T_real);
  r.pipeline = true;
  r.sandwich_min = sandwich_at(r, TraceStat::min);
  r.sandwich_p50 = sandwich_at(r, TraceStat::p50);
  r.sandwich_mean = sandwich_at(r, TraceStat::mean);
  explain_run(stage_spans, link_times, !m.sends_never_block, r);

  for (std::size_t s = 0; s < S; ++s) {
    std::int64_t microbatch = 0;
    for (std::size_t slot = 0; slot < m.compute[s].size(); ++slot) {
      const auto& kernels = m.compute[s][slot];
      if (kernels.empty()) continue;
      if (m.numbered) microbatch = slot_number[slot];
      double start = INFINITY, end = -INFINITY;
      for (const Interval& k : kernels) {
        start = std::min(start, k.first);
        end = std::max(end, k.second);
      }
      r.schedule.push_back({static_cast<std::int64_t>(s), microbatch++, false, (start - first_start) / unit,
                            (end - first_start) / unit});
    }
    if (s + 1 == S) break;
    std::int64_t k = 0;
    for (const MeasuredTransfer& t : m.transfers[s]) {
      r.schedule.push_back(
          {static_cast<std::int64_t>(s), k++, true, (t.start - first_start) / unit, (t.end - first_start) / unit});
    }
  }
  return r;
}

}  // namespace heteropipe::trace_detail
