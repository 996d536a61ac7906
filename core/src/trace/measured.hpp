#pragma once

#include <cstdint>
#include <map>
#include <optional>
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

// What the pairs of one link say about the receiver's clock against the
// sender's (the amount added to the receiver's times): at least lo, and at
// most hi when something bounds it from above.
struct OffsetBounds {
  double lo = 0;
  std::optional<double> hi;
  // Whether the offset rests on a pair that provably waited (or on NCCL
  // kernels that end together, or one host's clock), not on loose bounds.
  bool proven = false;
};

struct Measured {
  std::vector<std::int64_t> stage_rank;
  // Per stage, per micro-batch: its compute kernels (empty: none seen).
  std::vector<std::vector<std::vector<Interval>>> compute;
  // Whether compute's slots are the same micro-batches on every stage (by
  // ranges): then M counts the slots any stage saw, and a stage's missing
  // ones replay in its tau. Otherwise (by transfers) M is the fewest.
  bool numbered = false;
  // Per link: its matched transfers in order, and how many were left unmatched.
  std::vector<std::vector<MeasuredTransfer>> transfers;
  std::vector<std::int64_t> unmatched;
  // Messages set aside: the last stage's returns to stage 0 (sent there,
  // received here) and those whose named peer is no neighbour.
  std::int64_t returns_sent = 0, returns_received = 0, set_aside = 0;
  // A training run imported by one pass's ranges: the transfers of the
  // other pass set aside and the pass's own; whether the pass runs the
  // stage order reversed (the backward pass), so stage_rank is reversed.
  std::int64_t other_pass = 0, pass_transfers = 0;
  bool reversed = false;
  // The files' order was not the messages': stage_rank is the messages'
  // chain (messages_chain in measure_events.cpp).
  bool reordered = false;
  // A CPU run none of whose sends held its stage: each returned before its
  // message was delivered, and its thread went on to other work before the
  // transport ended (an isend waited on later). Then no part of T_real is
  // blocking (explain_run).
  bool sends_never_block = false;
  std::vector<double> offsets;  // per stage, microseconds
  std::vector<OffsetBounds> bounds;  // per link, microseconds
  // Per link whose sides hold different numbers of messages and whose
  // pairings from the start and from the end both agree with the clocks:
  // the link's offset from each (microseconds); the first is kept.
  std::vector<std::optional<std::pair<double, double>>> ambiguous_pairing;
  // A stage whose ranges repeat a micro-batch number (all stages' ranges
  // were then numbered in time order): its index, ranges and distinct numbers.
  std::optional<std::int64_t> repeated_stage;
  std::int64_t repeated_ranges = 0, repeated_distinct = 0;
  // Micro-batch ranges that nested were left out (unnest_ranges in
  // measure_events.cpp): the first rank with such, the ranges that held
  // others of other numbers, and those inside one of their own number.
  std::optional<std::int64_t> nested_rank;
  std::int64_t nested_containers = 0, nested_parts = 0;
};

// One side of a matched pair, on its rank's own clock; a send's `handed`:
// when its wrapper ended (Transfer::handed in measure_events.cpp); a
// receive's `posted`: when its op began (its wrapper's start).
struct PairSide {
  double start = 0, end = 0;
  std::optional<double> handed, posted;
};

// The receiver's clock against the sender's on one link, from its pairs
// (docs/traces.md, "Clock offsets"). `ends_together`: NCCL kernel pairs,
// whose two kernels finish together; `host_clocks`: both ranks' files read
// one host-wide clock, which the pairs only move when they must;
// `rendezvous`: gloo's transport events, whose send completes only after its
// receive was posted.
double link_offset(const std::vector<PairSide>& sends, const std::vector<PairSide>& recvs, bool ends_together,
                   bool host_clocks, bool rendezvous, OffsetBounds& bounds);

// Boundaries closer than this (microseconds) touch: the trace's resolution.
inline constexpr double kTraceResolution = 1.0;

// The most stages whose middle ones are searched for an order in which the
// links' clocks agree (middle_stages_swapped): 2^(S - 2) sets of the middle
// stages, each with up to (S - 2)^2 steps, 3.2 million at 16 stages, where
// a shell's rank-*.json puts rank-10 after rank-1.
inline constexpr std::size_t kMaxStagesReordered = 16;

class Classifier;

// The profiler steps ("ProfilerStep#N") the files hold and the one
// imported: options.profiler_step, else the first when the steps repeat
// micro-batch numbers (some file's ranges repeat one), else none. A file
// with steps keeps the events that start from the chosen step's start until
// its next step's (the end of the file after the last); one without, all.
//
// Files whose steps share no number with each other's are the windows of a
// repeating schedule (schedule(..., repeat=R) with a trace handler writes a
// file per rank per cycle, its steps numbered on across cycles): one window
// is imported, the one holding options.profiler_step, else the first, and
// the other windows' files are left out whole.
struct ProfilerSteps {
  std::int64_t count = 0;          // distinct step numbers in the files imported; 0: no step chosen
  std::int64_t chosen = 0, last = 0;  // the imported step's N, the last N
  std::vector<std::optional<Interval>> window;  // per file
  std::vector<bool> left_out;  // per file: another profiler window's
  std::int64_t windows = 0, first_of_window = 0, files_left_out = 0;  // windows: 0 or 1 when one
  bool keeps(const TraceEvent& e) const;
};

// Errors: unknown_id on Field::profiler_step when a step was asked for and a
// file with steps lacks it (index: the file; limit: the last N found), or no
// file has steps (index: kWholeField; limit 0).
Result<ProfilerSteps> profiler_steps(const TraceEvents& events, const TraceOptions& options, Classifier& c);

// Whether an event could be a user's range (record_function's): Kineto's
// user_annotation, or an event of no category whose name is no op, no
// transport and no profiler step.
bool names_range(const TraceEvents& events, const TraceEvent& e);
// The most frequent forms (digits aside) of the names counted (`counts`, by
// name index), at most limits::kMaxRangeNames, each by its first name.
std::vector<RangeName> frequent_range_names(const TraceEvents& events, const std::vector<std::int64_t>& counts);

// Events to ranks and, when they form one, the measured pipeline (or the reason they do not).
struct Classified {
  std::vector<TraceRank> ranks;  // times in microseconds
  std::optional<NotPipeline> reason;
  std::vector<RangeName> range_names;  // with no_microbatch_ranges
  Measured measured;
  ProfilerSteps steps;
};

Result<Classified> measure_events(const TraceEvents& events, const TraceOptions& options);
Result<Classified> measure_rows(const TraceEvents& events, const TraceOptions& options);

// The replay of the run's own times (per stage, its micro-batches' spans;
// per link, its pairs' transfer times; both in the result's unit, at least
// r.M spans per stage) under async and blocking links, and the explanation
// of T_real by it: r's replay, explain and overlap_ratio_replay. Without
// sends_block (no send held its stage) none of it is blocking.
void explain_run(const std::vector<std::vector<double>>& spans, const std::vector<std::vector<double>>& link_times,
                 bool sends_block, TraceResult& r);

// Everything the result reports, from the measured run.
TraceResult summarize(Classified classified, const TraceEvents& events, const TraceOptions& options);

// The stages' ranks: the given order when it is a permutation of `ranks`,
// else ascending.
Result<std::vector<std::int64_t>> stage_ranks(std::vector<std::int64_t> ranks, const TraceOptions& options);

// The offsets given by hand (--clock-offsets), checked for S stages: none,
// or one per stage, each finite and at most kMaxTraceTime us in magnitude.
std::optional<Error> clock_offsets_error(const TraceOptions& options, std::size_t S);

}  // namespace heteropipe::trace_detail
