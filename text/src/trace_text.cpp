#include "heteropipe/text/trace_text.hpp"

#include "heteropipe/limits.hpp"
#include "heteropipe/text/numbers.hpp"
#include "sentence_parts.hpp"

namespace heteropipe::text {
namespace {

using namespace detail;  // the shared phrases

bool is_csv_field(Field field) {
  return field == Field::stage || field == Field::microbatch || field == Field::kind || field == Field::start ||
         field == Field::end;
}

// A value as the file writes it: 1e30, not 1e+30.
std::string written(double value) {
  std::string text = shortest(value);
  const std::size_t plus = text.find("e+");
  if (plus != std::string::npos) text.erase(plus + 1, 1);
  return text;
}

// A number of the file as typed where the reader kept it (a whole number it
// refused: typed), else as the file would write it.
std::string number_got(const Error& e) { return e.typed.empty() ? written(e.value) : quoted(e.typed); }

// The range a number of the file must be in: from 0, 1 (world_size) or the
// limit's negative (ids and start times, either side of 0) up to the limit.
std::string range(const Error& e) {
  const bool either_side = e.field == Field::pid || e.field == Field::tid || e.field == Field::ts;
  const std::string low = either_side ? "-" + bound(e.limit) : e.field == Field::world_size ? "1" : "0";
  return low + " and " + bound(e.limit);
}

std::string what(const Error& e) {
  const std::string field(field_name(e.field));
  switch (e.code) {
    case ErrorCode::empty: return "the file is empty";
    case ErrorCode::too_long:
      return "the text is " + grouped(e.value) + " bytes, over the limit of " + grouped(e.limit);
    case ErrorCode::not_json:
      if (e.limit > 0) return "not valid JSON: the text ends inside it, so the file was cut short (a rank that crashed, or a trace still being written)";
      return "not valid JSON";
    case ErrorCode::not_a_trace:
      return "neither trace JSON nor a schedule CSV (stage,microbatch,kind,start,end)";
    case ErrorCode::bad_gzip:
      if (e.value == kGzipNotInflated) return "the file is gzip-compressed; this reader takes text, so inflate it first";
      if (e.value == kGzipTrailingData) return "bytes that are not gzip data follow the end of the gzip data";
      return "the gzip data is damaged or cut short";
    case ErrorCode::missing_field:
      if (is_csv_field(e.field) && e.index == 0) return "the first line must be stage,microbatch,kind,start,end";
      if (e.field == Field::traceEvents) return "the object has no traceEvents list";
      return "the event has no " + field;
    case ErrorCode::wrong_type: {
      const std::string got = e.typed.empty() ? "" : " (got " + quoted(e.typed) + ")";
      if (e.field == Field::traceEvents) return "traceEvents must be a list of event objects" + got;
      return field + " " + kWrongType + got;
    }
    case ErrorCode::not_finite: return field + " " + kNotFinite;
    case ErrorCode::negative: return field + " " + kNegative + " (got " + number_got(e) + ")";
    case ErrorCode::too_large:
      if (e.field == Field::trace && e.limit == 0) {
        return "nested deeper than " + grouped(static_cast<double>(limits::kMaxTraceDepth)) + " levels";
      }
      if (e.field == Field::trace) {
        return "more than " + grouped(e.limit) + " bytes once decompressed";
      }
      if (!e.typed.empty()) return field + " " + kAtMost + bound(e.limit) + " (got " + number_got(e) + ")";
      return field + " " + kAtMost + bound(e.limit) + (e.value != 0 ? " (got " + written(e.value) + ")" : "");
    case ErrorCode::too_small:
      return field + " must be 0 or at least " + bound(e.limit) + " (got " + number_got(e) +
             "): a smaller time is lost when converted between time units";
    case ErrorCode::too_many: return "more than " + grouped(e.limit) + " timed events";
    case ErrorCode::not_integer: return field + " " + kNotInteger + " (got " + number_got(e) + ")";
    case ErrorCode::out_of_range: return field + " must be between " + range(e) + " (got " + number_got(e) + ")";
    case ErrorCode::duplicate_key: return "key '" + quoted(e.typed) + "'" + kGivenTwice;
    case ErrorCode::unmatched_begin: return "a B event has no matching E on its pid and tid";
    case ErrorCode::unmatched_end: return "an E event has no open B on its pid and tid";
    case ErrorCode::end_before_start: return "end is before start";
    case ErrorCode::not_a_number: return field + " " + kNotANumber;
    case ErrorCode::unknown_name: return "kind must be compute or transfer";
    case ErrorCode::wrong_length: return "a row needs 5 values: stage,microbatch,kind,start,end";
    case ErrorCode::utf16_text: return kUtf16Text;
    case ErrorCode::utf32_text: return kUtf32Text;
    case ErrorCode::duplicate_rank: return "rank " + shortest(e.value) + " is already in another file";
    default: return std::string(error_code_name(e.code));
  }
}

}  // namespace

bool is_trace_file_error(const Error& e) {
  if (e.index == kWholeField) return false;  // about the import as a whole, not a place in a file
  switch (e.field) {
    case Field::trace: case Field::ph: case Field::ts: case Field::dur: case Field::name: case Field::cat: case Field::pid:
    case Field::tid: case Field::traceEvents: case Field::rank: case Field::world_size: case Field::baseTimeNanoseconds:
    case Field::distributedInfo: case Field::stage:
    case Field::microbatch: case Field::kind: case Field::start: case Field::end:
      return true;
    default:
      return e.code == ErrorCode::bad_gzip;
  }
}

std::string describe_trace_error(const Error& e) {
  const std::string place = is_csv_field(e.field) ? "line " + std::to_string(e.index + 1)
                                                  : "byte " + std::to_string(e.index);
  return quoted(e.token) + ", " + place + ": " + what(e);
}

std::string rank_table_heading() { return "per rank: kernels by kind, streams, and summed kernel time"; }

std::string stage_table_heading(TraceStat stat) {
  return "per stage: the span of each micro-batch's compute (tau is its " + std::string(trace_stat_name(stat)) +
         "), and its busy time";
}

std::string link_table_heading() {
  // A micro-batch's several messages (a tensor and a mask) are one transfer
  // and one of the link's pairs (docs/traces.md, "Several messages a micro-batch").
  return "per link: each micro-batch's transfer (pairs counts them), from the later start of its first send and "
         "receive to its last message's end, clocks aligned";
}

std::string describe(NotPipeline reason) {
  switch (reason) {
    case NotPipeline::one_rank: return "fewer than two ranks were found, so there is no chain of stages";
    case NotPipeline::collectives_only:
      return "the ranks communicate by collectives only; a pipeline needs send/receive between neighbours";
    case NotPipeline::no_transfers: return "no send or receive was found between the ranks";
    case NotPipeline::unpaired_link:
      return "some pair of neighbouring stages has no send matched with a receive; each rank must be one stage, in "
             "order (a file that names no rank is one rank): leave out a rank that is no stage (a driver that only "
             "broadcasts the inputs or gathers the results) by listing the stages alone in the stage order";
    case NotPipeline::no_microbatches: return "some stage has no compute inside any micro-batch";
    case NotPipeline::model_rejected:
      return "the recovered times do not form a valid model (no stage time of at least " +
             bound(limits::kMinStageTime) + " in the result's unit, or T_real not above 0)";
    case NotPipeline::stages_out_of_order:
      return "the first stage receives but sends nothing, the last sends but receives nothing, or the links' pairs "
             "contradict each other about the clocks in this order and agree in another order of the middle stages: "
             "the stages are not in the order the messages flow; give the files in rank order or set the stage order";
    case NotPipeline::two_way_traffic:
      return "messages flow both ways, as a training run's activations forward and gradients backward do (the trace "
             "holds autograd's backward ops, a middle stage sends and receives about twice what stage 0 sends, or "
             "the messages' peers point back); the model is one pass in one direction: give the micro-batch pattern "
             "of one pass's ranges (the forward's or the backward's) to import that pass, each range claiming its own "
             "input and output (in GPipe or 1F1B order), or import a run of one pass";
    case NotPipeline::stage_cut_short:
      return "a stage lacks the run's first or last micro-batch (see microbatch_counts_differ): its trace stops "
             "early, as a stage that crashed or a profiler window that ended sooner, or starts late; import a window "
             "every stage covers";
    case NotPipeline::no_microbatch_ranges:
      return "no event's name on some stage matches the micro-batch pattern; write one that matches every stage's "
             "ranges (not one stage's names alone), with the micro-batch number as its first group (ranges mb0, mb1, "
             "...: '^mb([0-9]+)$'; mb:0, mb:1, ...: '^mb:([0-9]+)$'; stage0_mb3, stage1_mb3, ...: '_mb([0-9]+)$'), "
             "or leave the pattern out, and the micro-batches are cut by the transfers";
  }
  return std::string(not_pipeline_name(reason));
}

std::string describe_reason(const TraceResult& r) {
  std::string words = describe(*r.reason);
  if (r.range_names.empty()) return words;
  words += "; the ranges these stages hold most, by name (how many ranges have its form, digits aside): ";
  for (std::size_t i = 0; i < r.range_names.size(); ++i) {
    const RangeName& n = r.range_names[i];
    words += (i ? ", '" : "'") + quoted(n.name) + "' (" + grouped(static_cast<double>(n.count)) + ")";
  }
  return words;
}

std::string describe(const TraceWarning& w) {
  switch (w.code) {
    case TraceWarningCode::rank_without_compute: return "rank " + std::to_string(w.index) + " ran no compute kernel";
    case TraceWarningCode::rank_without_transfers:
      return "rank " + std::to_string(w.index) +
             " recorded no send or receive, where other ranks did: if it sent or received on another thread, its "
             "profiler did not record that thread (torch's profiler without Kineto records only the thread that "
             "entered it), so send and receive on that thread or profile with Kineto";
    case TraceWarningCode::unmatched_transfers:
      return "link " + std::to_string(w.index) + ": " + grouped(w.value) + " transfers found no partner";
    case TraceWarningCode::microbatch_counts_differ:
      return "stages saw between " + grouped(w.value) + " and " + grouped(w.limit) + " micro-batches";
    case TraceWarningCode::short_run:
      return "M = " + grouped(w.value) + " is not more than S = " + grouped(w.limit) +
             ": the run is too short to show a steady state";
    case TraceWarningCode::missing_ranks:
      return "these files hold " + grouped(w.value) + " of the job's " + grouped(w.limit) + " ranks (its world_size)";
    case TraceWarningCode::clock_bounds_contradict:
      return "link " + std::to_string(w.index) + ": its pairs contradict each other about the clocks (the receiver's " +
             "offset must be at least " + readable(w.value) + " and at most " + readable(w.limit) +
             "); a clock drifted or the pairs are matched wrongly";
    case TraceWarningCode::pairing_ambiguous:
      return "link " + std::to_string(w.index) + ": one side holds more messages, and pairing them from the start " +
             "(the receiver's offset " + readable(w.value) + ") or from the end (" + readable(w.limit) +
             ") agrees with the clocks either way; the offset from the start is used, which is wrong if a profiler " +
             "started after the first messages: import by micro-batch ranges, or set the offsets by hand";
    case TraceWarningCode::link_time_zero:
      return "link " + std::to_string(w.index) + ": d is 0 because " + grouped(w.value) + " of its " +
             grouped(w.limit) + " transfers took no time: each of those receives ended by the time both sides " +
             "had started (the message was there before the receiver asked, or the transfer hid inside a wait)";
    case TraceWarningCode::returns_to_first_stage:
      return "the last stage's " + grouped(w.value) + " sends to stage 0 and stage 0's " + grouped(w.limit) +
             " receives are results returned to stage 0, set aside: the pipeline is the links from each stage to "
             "the next";
    case TraceWarningCode::messages_set_aside:
      return grouped(w.value) + " transfers name a peer that is no neighbouring stage, and were set aside";
    case TraceWarningCode::profiler_steps:
      return "the files hold " + grouped(w.value) + " profiler steps (the last ProfilerStep#" + shortest(w.limit) +
             "), each repeating the micro-batches; ProfilerStep#" + std::to_string(w.index) +
             " was imported alone: set the profiler step to import another";
    case TraceWarningCode::repeated_microbatch_names:
      return "stage " + std::to_string(w.index) + "'s " + grouped(w.value) + " micro-batch ranges carry only " +
             grouped(w.limit) + " distinct numbers, so every stage's ranges were numbered in time order: the names "
             "repeat (several iterations in one profile: M counts every range, T_real spans every iteration, and "
             "the time between them, as a barrier's drain and refill of the pipeline, is explain's other), or the "
             "pattern's first group is not the micro-batch number";
    case TraceWarningCode::other_pass_set_aside:
      return "a training run, imported by one pass's ranges: " + grouped(w.value) +
             " transfers of the other pass were set aside, and the pass's own " + grouped(w.limit) + " kept";
    case TraceWarningCode::stages_reversed:
      return "the pass's messages flow against the stage order, as a backward pass's gradients do: its stages are "
             "that order reversed, from rank " + shortest(w.value) + " to rank " + shortest(w.limit);
    case TraceWarningCode::profiler_windows:
      return "the files hold " + grouped(w.value) + " profiler windows (a repeating schedule's cycles, one file per "
             "rank each, their ProfilerStep numbers apart): the window from ProfilerStep#" + std::to_string(w.index) +
             " was imported and the other windows' " + grouped(w.limit) +
             " files were left out: set the profiler step to a step of another window to import it";
    case TraceWarningCode::nested_ranges:
      return "the micro-batch pattern matches ranges nested in one another (first on rank " +
             std::to_string(w.index) + "): " + grouped(w.value) +
             " that held ranges of other numbers (a step's or a stage's range around the micro-batches) and " +
             grouped(w.limit) + " inside a range of their own number (its parts) were left out; anchor the "
             "pattern to the micro-batches' own names";
    case TraceWarningCode::stages_reordered:
      return "the files are not in the order the messages flow, so the stages follow the messages: rank " +
             shortest(w.value) + ", which sends before it receives, is stage 0, and rank " + shortest(w.limit) +
             " the last (a file that names no rank is ranked by its place in the list)";
  }
  return std::string(trace_warning_name(w.code));
}

std::string describe_explain(const TraceResult& r, std::string_view unit) {
  std::string s = "T_real " + readable(r.T_real) + " " + std::string(unit) + " =";
  for (std::size_t i = 0; i < r.explain.size(); ++i) {
    const ExplainPart& p = r.explain[i];
    s += (i == 0 ? " " : " + ") + std::string(explain_cause_name(p.cause)) + " " + readable(p.time);
  }
  return s + " " + std::string(unit);
}

}  // namespace heteropipe::text
