#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "heteropipe/error.hpp"

// The timed events of profiler traces, as read from their text: what the
// model recovery needs and nothing more (see docs/traces.md). The core reads
// text only; files and decompression belong to the front ends.
namespace heteropipe {

// A send or receive as a trace tells it (Kineto's args "Collective name"),
// or unknown (an NCCL SendRecv kernel says neither).
enum class Direction : std::uint8_t { unknown, send, recv };

struct TraceEvent {
  double start = 0, end = 0;  // microseconds, on the file's clock
  std::int64_t rank = 0;      // the file's distributedInfo.rank, else the event's pid
  std::int64_t stream = 0;    // tid
  std::uint32_t name = 0;     // into TraceEvents::names
  std::uint32_t category = 0; // into TraceEvents::names
  std::uint32_t file = 0;     // the 0-based index of its file among those read
  Direction direction = Direction::unknown;
};

// One row of a schedule CSV: already a micro-batch's compute or a transfer
// from `stage` to stage + 1.
struct ScheduleRow {
  std::int64_t stage = 0, microbatch = 0;
  bool transfer = false;
  double start = 0, end = 0;
};

// What one file said about itself.
struct TraceFile {
  std::string label;
  std::optional<std::int64_t> rank;        // distributedInfo.rank
  std::optional<std::int64_t> world_size;  // distributedInfo.world_size
  std::int64_t events = 0;                 // timed events kept
  // Its times read a host-wide clock (Kineto's: baseTimeNanoseconds, or
  // epoch-scale timestamps), not one that starts near 0 in each process.
  bool host_clock = false;
};

// Everything read so far, from any number of files.
struct TraceEvents {
  std::vector<TraceEvent> events;
  std::vector<ScheduleRow> rows;
  std::vector<TraceFile> files;
  std::vector<std::string> names;  // event names and categories, each once
  // The first file's baseTimeNanoseconds: later files' clocks are moved onto it.
  std::optional<std::int64_t> base_ns;
  // The peers that point-to-point events name (torch 2.x's args "Dst Rank"
  // of a send, "Src Rank" of a receive: a global rank), as (index into
  // events, peer), in the events' order. Few events name one, so they are
  // kept beside the events rather than in each.
  std::vector<std::pair<std::uint32_t, std::int64_t>> peers;

  std::uint32_t intern(const std::string& text);

 private:
  std::unordered_map<std::string, std::uint32_t> index_;
};

// Adds the events of one Chrome trace-event JSON text (the object form with
// traceEvents, or the bare array): X events, B/E pairs; M metadata is read
// and checked; other phases are skipped. Kineto's distributedInfo.rank gives
// every event of the file its rank, and baseTimeNanoseconds moves its clock.
// Errors carry the label as token and the byte offset as index; on error
// `into` keeps the files before this one.
std::optional<Error> read_chrome_trace(std::string_view text, std::string_view label, TraceEvents& into);

// Adds the rows of a schedule CSV: the header stage,microbatch,kind,start,end
// then one row per line, kind compute or transfer. Errors carry the label
// as token and the 0-based line as index.
std::optional<Error> read_schedule_csv(std::string_view text, std::string_view label, TraceEvents& into);

// Whichever of the two the text is: JSON when its first non-blank byte is
// '{' or '['.
std::optional<Error> read_trace_text(std::string_view text, std::string_view label, TraceEvents& into);

// A directory given as a trace input (docs/traces.md, "Files"): of the names
// of its plain files, those of trace files, *.json and *.json.gz
// (tensorboard_trace_handler's HOST_PID.MS.pt.trace.json[.gz] among them),
// in sorted byte order, as a shell lists DIR/*.json*: a name that begins
// with '.' is left out, as the shell's pattern leaves it.
std::vector<std::string> trace_directory_files(std::vector<std::string> names);

// One of those files, read as read_trace_text reads a file given by name,
// except that a JSON object with no traceEvents (a run's own record kept
// beside its traces, as the example's run.json) is no trace: it adds
// nothing, and the result is false; a trace read is true.
Result<bool> read_directory_trace_text(std::string_view text, std::string_view label, TraceEvents& into);

// The error of a directory that holds no trace file (none of
// trace_directory_files' names, or only JSON that is no trace): empty on
// Field::trace, index kWholeField, token = the directory's label.
Error no_trace_files(std::string_view directory);

}  // namespace heteropipe
