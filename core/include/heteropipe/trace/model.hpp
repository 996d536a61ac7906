#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "heteropipe/analysis.hpp"
#include "heteropipe/error.hpp"
#include "heteropipe/trace/events.hpp"
#include "heteropipe/visit.hpp"

// From measured events to the model: tau, d, M and T_real of a pipeline run,
// with their samples' statistics, the ranks' clock offsets and where the run
// sits in the async-blocking sandwich. The rules are in docs/traces.md.
namespace heteropipe {

// Which statistic of the samples becomes tau and d. min is the paper's
// lower-bound estimate; p50 (the default) is the typical micro-batch, which a
// run whose spans vary is measured against.
enum class TraceStat { min, p50, mean };
// The unit of every time in the result (traces are read in microseconds).
enum class TimeUnit { s, ms, us };

std::string_view trace_stat_name(TraceStat stat);
std::string_view time_unit_name(TimeUnit unit);
Result<TraceStat> trace_stat_from_name(std::string_view name);
Result<TimeUnit> time_unit_from_name(std::string_view name);
// How many microseconds one unit is: 1e6 for s, 1e3 for ms, 1 for us.
double microseconds_in(TimeUnit unit);
// A stage order typed as numbers (a list, or text read by parse_number_list):
// each rank a whole number in [0, 2^53], else not_a_permutation with that
// number as its value (0 for NaN), so that no front end casts a fraction or
// 1e20 to a rank.
Result<std::vector<std::int64_t>> stage_order_of(const std::vector<double>& ranks);
// The same, typed as the CLI's --stage-order text (parse_number_list's
// grammar): each rank judged from its digits, as parse_count judges a count,
// so that 9007199254740993 (past 2^53, which a double rounds to 2^53) is
// refused, and the refused rank is quoted as typed (its token).
Result<std::vector<std::int64_t>> stage_order_of_text(std::string_view text);
// A profiler step typed as a number: a whole number in [0, 2^53], else
// not_finite, not_integer or out_of_range on Field::profiler_step.
Result<std::int64_t> profiler_step_of(double step);
// A profiler step typed as the CLI's --profiler-step text: '' is empty,
// other text a whole number in [0, 2^53] as parse_count reads it.
Result<std::int64_t> profiler_step_of_text(std::string_view text);
// Clock offsets typed as the CLI's --clock-offsets text, in `unit`: a number
// too large for a double is too_large with the limit recover_model applies
// in that unit (max_trace_time over it), not the list parser's own.
Result<std::vector<double>> clock_offsets_of_text(std::string_view text, TimeUnit unit);

struct TraceOptions {
  TraceStat stat = TraceStat::p50;
  TimeUnit unit = TimeUnit::ms;
  // Ranks in stage order; empty: ascending rank.
  std::vector<std::int64_t> stage_order;
  // Patterns searched in event names (docs/traces.md#patterns: ECMAScript
  // regular expressions without lookarounds or back-references, matched in
  // linear time); empty: the defaults (kernels are compute unless NCCL's;
  // NCCL Send/Recv kernels are transfers; no micro-batch annotations).
  std::string compute_regex, transfer_regex, microbatch_regex;
  // Per stage, in `unit`: added to each stage's clock; empty: found from the
  // transfers' pairs.
  std::vector<double> clock_offsets;
  // The N of the profiler step ("ProfilerStep#N", one per prof.step()) to
  // import when the files hold several; empty: the first. Events outside
  // that step's range are left out (docs/traces.md, "Profiler steps").
  std::optional<std::int64_t> profiler_step;
};

struct SampleStats {
  std::int64_t count = 0;
  double min = 0, p50 = 0, mean = 0, p95 = 0, max = 0;
};

// What one rank ran, pipeline or not.
struct TraceRank {
  std::int64_t rank = 0;
  std::int64_t stage = -1;  // -1: not a stage of the recovered pipeline
  std::int64_t kernels = 0, compute_kernels = 0, transfer_kernels = 0, collective_kernels = 0, streams = 0;
  double compute_time = 0, communication_time = 0;  // summed durations
};

struct TraceStage {
  std::int64_t stage = 0, rank = 0, microbatches = 0;
  SampleStats span;  // first kernel start to last kernel end, per micro-batch
  SampleStats busy;  // kernel time with overlaps merged, per micro-batch
};

// What a link's pairs say about the receiver's clock against the sender's
// (how much is added to the receiver's times): at least lo, at most hi when
// something bounds it from above (NCCL kernel pairs); hi empty otherwise.
// Reported as the pair [lo, hi], hi null when unbounded.
struct ClockOffsetBounds {
  double lo = 0;
  std::optional<double> hi;
};

// T_async and T_block of the tau and d chosen by one statistic.
struct SandwichAt {
  double T_async = 0, T_block = 0;
};

// The exact makespans of the run's own measured times, micro-batch by
// micro-batch (each stage's compute spans, each link's transfer times),
// replayed by the simulator under async and blocking links.
struct TraceReplay {
  double async = 0, blocking = 0;
};

// What T_real is made of, in this order (docs/traces.md, "Explaining T_real"):
//   model        T_async at the chosen statistic;
//   variability  replay.async - model: the spans' and transfers' spread;
//   blocking     T_real - replay.async, within [0, replay.blocking - replay.async]
//                (0 on a CPU run none of whose sends held its stage);
//   other        the rest (host time between kernels, or below 0 when the run
//                beat its own replay).
enum class ExplainCause { model, variability, blocking, other };
std::string_view explain_cause_name(ExplainCause cause);

struct ExplainPart {
  ExplainCause cause = ExplainCause::model;
  double time = 0;
};

struct TraceLink {
  std::int64_t link = 0, from_rank = 0, to_rank = 0, pairs = 0, unmatched = 0;
  SampleStats d;
};

// Why no pipeline could be recovered.
enum class NotPipeline {
  one_rank,
  collectives_only,
  no_transfers,
  unpaired_link,
  no_microbatches,
  model_rejected,
  // The first stage receives and sends nothing, the last sends and
  // receives nothing, or the links' pairs contradict each other about the
  // clocks where another order of the middle stages agrees: the stages are
  // not in the order the messages flow.
  stages_out_of_order,
  // Messages flow both ways: a training run's activations forward and
  // gradients backward (its trace holds autograd's backward ops, a middle
  // stage carries both passes, or named peers point against the links).
  // Results the last stage returns to stage 0 are not this (a warning).
  two_way_traffic,
  // A micro-batch pattern was given and no event's name matches it.
  no_microbatch_ranges,
  // By ranges, a stage lacks the run's first or last micro-batch: its trace
  // stops early (a stage that crashed, a profiler window that ended sooner)
  // or starts late, so T_real would be cut short.
  stage_cut_short,
};
std::string_view not_pipeline_name(NotPipeline reason);

enum class TraceWarningCode {
  rank_without_compute,      // index: the rank
  unmatched_transfers,       // index: the link; value: transfers left without a partner
  microbatch_counts_differ,  // value: the fewest micro-batches of a stage; limit: the most
  short_run,                 // value: M; limit: S (no steady state below M = S + 1)
  missing_ranks,             // value: ranks found; limit: the world size the files claim
  clock_bounds_contradict,   // index: the link; value: its lower bound; limit: its upper bound
  link_time_zero,            // index: the link, whose d is 0; value: its pairs that took no time; limit: its pairs
  // A link whose sides hold different numbers of messages, paired from the
  // start and from the end, agrees with the clocks either way (a sender's
  // profiler that started late, or one that stopped early): index: the
  // link; value: its offset paired from the start (kept); limit: from the end.
  pairing_ambiguous,
  // The last stage's messages back to stage 0 (results returned, not a
  // link), set aside: value: the last stage's sends; limit: stage 0's receives.
  returns_to_first_stage,
  messages_set_aside,        // value: transfers whose named peer is no neighbouring stage, set aside
  // The files hold several profiler steps and one was imported: index: its
  // N; value: the steps found; limit: the last step's N.
  profiler_steps,
  // A stage's ranges repeat a micro-batch number (names repeated in one
  // step, or a pattern whose first group is not the micro-batch), so every
  // stage's ranges were numbered in time order: index: the first such stage;
  // value: its ranges; limit: their distinct numbers.
  repeated_microbatch_names,
  // A training run imported by one pass's ranges: the other pass's
  // transfers were set aside: value: those set aside; limit: the pass's own.
  other_pass_set_aside,
  // The pass's messages flow against the stage order (a training run's
  // backward pass): its stages are that order reversed. value: stage 0's
  // rank; limit: the last stage's rank.
  stages_reversed,
  // The files were not in the order the messages flow (rank-less files
  // ranked by their place, given in a directory's order), so the stages
  // are the messages' chain: the rank that only sends first, the one that
  // only receives last. value: stage 0's rank; limit: the last stage's.
  stages_reordered,
  // A rank recorded no send or receive while others did (index: the rank):
  // its messages ran on a thread its profiler did not record (torch's CPU
  // profiler without Kineto records only the thread that entered it).
  rank_without_transfers,
  // The files hold several profiler windows (a repeating schedule's cycles,
  // a file per rank each, their ProfilerStep numbers disjoint) and one was
  // imported: index: the first step N of the window imported; value: the
  // windows; limit: the files of the others, left out.
  profiler_windows,
  // Micro-batch ranges nested in one another (a pattern that matches a
  // step's or a stage's range around them, or sub-ranges inside them): index:
  // the first rank with such; value: the ranges left out that held ranges of
  // other numbers; limit: those left out inside a range of their own number.
  nested_ranges,
};
std::string_view trace_warning_name(TraceWarningCode code);

struct TraceWarning {
  TraceWarningCode code;
  std::int64_t index = kWholeField;
  double value = 0, limit = 0;
};

// A name the trace's ranges go by, for a user writing the micro-batch
// pattern (no_microbatch_ranges): one range's name, cut to
// limits::kMaxRangeNameBytes, and how many ranges have a name of its form,
// its digits aside (microbatch_0 ... microbatch_15: 16).
struct RangeName {
  std::string name;
  std::int64_t count = 0;
};

struct TraceResult {
  TraceStat stat = TraceStat::min;
  TimeUnit unit = TimeUnit::ms;
  std::vector<TraceRank> ranks;
  bool pipeline = false;
  std::optional<NotPipeline> reason;
  // no_microbatch_ranges: the range names of the stages the pattern missed,
  // the most frequent forms first, at most limits::kMaxRangeNames.
  std::vector<RangeName> range_names;
  std::vector<double> tau, d;
  std::int64_t M = 0;
  double T_real = 0;
  std::vector<TraceStage> stages;
  std::vector<TraceLink> links;
  std::vector<double> clock_offsets;  // per stage: add to the rank's clock to align it with stage 0's
  std::vector<ClockOffsetBounds> clock_offset_bounds;  // indexed by link
  // The sandwich at each statistic: how far the verdict moves with the choice.
  SandwichAt sandwich_min, sandwich_p50, sandwich_mean;
  std::optional<Analysis> analysis;
  // The run replayed, and T_real in parts that sum to it (empty when the
  // replay could not run); (replay.blocking - T_real) / (replay.blocking -
  // replay.async) when that denominator is > 0: the overlap ratio net of
  // the spans' variability.
  std::optional<TraceReplay> replay;
  std::vector<ExplainPart> explain;
  std::optional<double> overlap_ratio_replay;
  // The measured schedule, aligned, from the first compute of stage 0: one
  // compute row per (stage, micro-batch) spanning its kernels, one transfer
  // row per matched pair (from max(start_send, start_recv) to the end).
  std::vector<ScheduleRow> schedule;
  std::vector<TraceWarning> warnings;
};

// Errors: bad_pattern (a pattern outside the dialect), not_a_permutation (the stage order),
// duplicate_rank (two files with one rank). A trace that is no pipeline is a
// result with pipeline false and its reason.
Result<TraceResult> recover_model(const TraceEvents& events, const TraceOptions& options);

template <class Visitor>
void visit_fields(const SampleStats& s, Visitor&& visit) {
  visit("count", s.count);
  visit("min", s.min);
  visit("p50", s.p50);
  visit("mean", s.mean);
  visit("p95", s.p95);
  visit("max", s.max);
}

template <class Visitor>
void visit_fields(const TraceRank& r, Visitor&& visit) {
  visit("rank", r.rank);
  visit("stage", r.stage);
  visit("kernels", r.kernels);
  visit("compute_kernels", r.compute_kernels);
  visit("transfer_kernels", r.transfer_kernels);
  visit("collective_kernels", r.collective_kernels);
  visit("streams", r.streams);
  visit("compute_time", r.compute_time);
  visit("communication_time", r.communication_time);
}

template <class Visitor>
void visit_fields(const TraceStage& s, Visitor&& visit) {
  visit("stage", s.stage);
  visit("rank", s.rank);
  visit("microbatches", s.microbatches);
  visit("span", object([&s](auto&& fields) { visit_fields(s.span, fields); }));
  visit("busy", object([&s](auto&& fields) { visit_fields(s.busy, fields); }));
}

template <class Visitor>
void visit_fields(const TraceLink& l, Visitor&& visit) {
  visit("link", l.link);
  visit("from_rank", l.from_rank);
  visit("to_rank", l.to_rank);
  visit("pairs", l.pairs);
  visit("unmatched", l.unmatched);
  visit("d", object([&l](auto&& fields) { visit_fields(l.d, fields); }));
}

template <class Visitor>
void visit_fields(const ClockOffsetBounds& b, Visitor&& visit) {
  visit("lo", b.lo);
  visit("hi", b.hi);
}

template <class Visitor>
void visit_fields(const SandwichAt& s, Visitor&& visit) {
  visit("T_async", s.T_async);
  visit("T_block", s.T_block);
}

template <class Visitor>
void visit_fields(const TraceReplay& r, Visitor&& visit) {
  visit("async", r.async);
  visit("blocking", r.blocking);
}

template <class Visitor>
void visit_fields(const ExplainPart& p, Visitor&& visit) {
  visit("cause", explain_cause_name(p.cause));
  visit("time", p.time);
}

template <class Visitor>
void visit_fields(const RangeName& n, Visitor&& visit) {
  visit("name", std::string_view(n.name));
  visit("count", n.count);
}

template <class Visitor>
void visit_fields(const ScheduleRow& r, Visitor&& visit) {
  visit("stage", r.stage);
  visit("microbatch", r.microbatch);
  visit("kind", std::string_view(r.transfer ? "transfer" : "compute"));
  visit("start", r.start);
  visit("end", r.end);
}

// The warning's plain fields (its sentence is added by the text library).
template <class Visitor>
void visit_warning_fields(const TraceWarning& w, Visitor&& visit) {
  visit("code", trace_warning_name(w.code));
  visit("index", w.index);
  visit("value", w.value);
  visit("limit", w.limit);
}

// The result's fields; `reason_words(reason, visit)` visits what follows the
// reason's code (the text library adds its sentence there).
template <class Visitor, class ReasonWords>
void visit_result_fields(const TraceResult& r, Visitor&& visit, ReasonWords&& reason_words) {
  visit("pipeline", r.pipeline);
  if (r.reason) {
    visit("reason", not_pipeline_name(*r.reason));
    reason_words(*r.reason, visit);
    if (*r.reason == NotPipeline::no_microbatch_ranges) visit("range_names", objects(r.range_names));
  }
  visit("unit", time_unit_name(r.unit));
  visit("stat", trace_stat_name(r.stat));
  visit("ranks", objects(r.ranks));
  if (r.pipeline) {
    visit("tau", r.tau);
    visit("d", r.d);
    visit("M", r.M);
    visit("T_real", r.T_real);
    visit("stages", objects(r.stages));
    visit("links", objects(r.links));
    visit("clock_offsets", r.clock_offsets);
    visit("clock_offset_bounds", tuples(r.clock_offset_bounds));
    visit("sandwich", object([&r](auto&& fields) {
      fields("min", object([&r](auto&& f) { visit_fields(r.sandwich_min, f); }));
      fields("p50", object([&r](auto&& f) { visit_fields(r.sandwich_p50, f); }));
      fields("mean", object([&r](auto&& f) { visit_fields(r.sandwich_mean, f); }));
    }));
    const Analysis& a = *r.analysis;
    visit("analysis", object([&a](auto&& fields) { visit_fields(a, fields); }));
    if (a.overlap_ratio) visit("overlap_ratio", *a.overlap_ratio);
    if (a.T_real_position) visit("position", sandwich_position_name(*a.T_real_position));
    if (r.replay) visit("replay", object([&r](auto&& fields) { visit_fields(*r.replay, fields); }));
    visit("explain", objects(r.explain));
    if (r.overlap_ratio_replay) visit("overlap_ratio_replay", *r.overlap_ratio_replay);
    visit("schedule", objects(r.schedule));
  }
  visit("warnings", objects(r.warnings));
}

}  // namespace heteropipe
