// Chrome trace-event JSON (the format Kineto, vLLM's profiler and Perfetto
// share) to TraceEvents. Only the fields recovery needs are kept.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <utility>

#include "heteropipe/decimal.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/trace/events.hpp"
#include "../json_cursor.hpp"

namespace heteropipe {
namespace {

using json_detail::JsonCursor;
using json_detail::JsonType;

bool contains_word(std::string text, std::string_view word) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text.find(word) != std::string::npos;
}

// One event object as written, before it becomes a TraceEvent.
struct RawEvent {
  std::string ph, name, category;
  std::optional<double> ts, dur;
  std::int64_t pid = 0, tid = 0;
  Direction direction = Direction::unknown;
  std::optional<std::int64_t> peer;  // args "Src Rank" / "Dst Rank"
  std::size_t at = 0, ts_at = 0, dur_at = 0;

  // Ready for the next event, keeping the strings' storage.
  void reset() {
    ph.clear();
    name.clear();
    category.clear();
    ts.reset();
    dur.reset();
    pid = tid = 0;
    direction = Direction::unknown;
    peer.reset();
  }
};

// Timestamps from here on (microseconds, 11 days after the epoch) read a
// host-wide clock: no per-process clock, which starts near 0, gets that far.
constexpr double kHostClockFrom = 1e12;

// How many events of a file are read before the rest are made room for.
constexpr std::int64_t kSampledEvents = 4096;

class ChromeReader {
 public:
  ChromeReader(std::string_view text, std::string_view label, TraceEvents& into)
      : cursor_(text, label), into_(into), first_event_(into.events.size()), text_size_(text.size()) {
    file_.label = std::string(label);
  }

  std::optional<Error> read() {
    if (cursor_.peek() == JsonType::array) {
      read_events();
    } else if (cursor_.peek() == JsonType::object) {
      read_document();
    } else {
      cursor_.fail(ErrorCode::not_json, Field::trace);
    }
    if (!cursor_.error) cursor_.finish();
    // Judged after the text's end, so that an object with no traceEvents is known to be whole JSON:
    // a directory leaves such a file out (read_directory_trace_text), never one with bytes after it.
    if (!cursor_.error && no_events_) cursor_.fail(ErrorCode::missing_field, Field::traceEvents, 0, 0);
    if (!cursor_.error) close_pending();
    if (!cursor_.error && file_.rank) {
      for (const TraceFile& earlier : into_.files) {
        if (earlier.rank == file_.rank) {
          cursor_.fail(ErrorCode::duplicate_rank, Field::rank, static_cast<double>(*file_.rank), rank_at_);
        }
      }
    }
    if (cursor_.error) {
      into_.events.resize(first_event_);
      while (!into_.peers.empty() && into_.peers.back().first >= first_event_) into_.peers.pop_back();
      return cursor_.error;
    }
    place_events();
    into_.files.push_back(file_);
    return std::nullopt;
  }

 private:
  void read_document() {
    std::string key;
    bool has_events = false;
    std::uint32_t seen = 0;
    cursor_.enter('{');
    while (cursor_.next_key(key)) {
      if (key == "traceEvents") {
        if (!once(seen, 1, Field::traceEvents, key)) return;
        has_events = true;
        read_events();
      } else if (key == "distributedInfo") {
        if (!once(seen, 2, Field::distributedInfo, key) || cut_short()) return;
        if (cursor_.peek() != JsonType::object) {
          mistyped(Field::distributedInfo, cursor_.offset());
          return;
        }
        read_distributed_info();
      } else if (key == "baseTimeNanoseconds") {
        if (!once(seen, 4, Field::baseTimeNanoseconds, key)) return;
        std::int64_t base = 0;
        if (!read_whole(base, Field::baseTimeNanoseconds, 0, limits::kMaxTraceBaseTime)) return;
        base_ns_ = base;
      } else {
        cursor_.skip_value();
      }
    }
    no_events_ = !has_events;
  }

  // A whole number from `low` to `high` that the key must hold, each problem
  // named by `field`: another type, a fraction, or out of range, the number
  // quoted as typed (typed). Plain digits are read exactly (a nanosecond clock
  // is past 2^53) and judged exactly: 9000000000000000001 rounds to the double
  // 9e18, and one past a limit was taken.
  bool read_whole(std::int64_t& out, Field field, double low, double high) {
    if (cut_short()) return false;
    const std::size_t at = (cursor_.peek(), cursor_.offset());
    if (cursor_.peek() != JsonType::number) return mistyped(field, at);
    std::string_view token;
    if (!cursor_.read_number_text(token, field)) return false;
    auto refuse = [&](ErrorCode code, double value) {
      cursor_.fail(code, field, value, at);
      if (code != ErrorCode::not_integer) cursor_.error->limit = high;
      cursor_.error->typed = json_detail::quote_cut(token);
      return false;
    };
    const double value = json_detail::json_number_value(token);
    if (!(value - value == 0)) return refuse(ErrorCode::too_large, 0);
    if (value < low || value > high) return refuse(ErrorCode::out_of_range, value);
    // 1e-400 reads as 0 but is no whole number: a fraction, as 0.5 is.
    if (value != std::floor(value) || lost_below_normal(token, value)) return refuse(ErrorCode::not_integer, value);
    if (token.find_first_of(".eE") != std::string_view::npos) {
      out = static_cast<std::int64_t>(value);
      return true;
    }
    // Within a few units of [low, high] by the double, so below 2^63: both
    // bounds are whole numbers of at most 9e18.
    const bool negative = token[0] == '-';
    std::int64_t exact = 0;
    for (char c : token.substr(negative ? 1 : 0)) exact = exact * 10 + (c - '0');
    out = negative ? -exact : exact;
    if (out < static_cast<std::int64_t>(low) || out > static_cast<std::int64_t>(high)) {
      return refuse(ErrorCode::out_of_range, value);
    }
    return true;
  }

  void read_distributed_info() {
    std::string key;
    cursor_.enter('{');
    std::size_t world_at = 0;
    std::uint32_t seen = 0;
    while (cursor_.next_key(key)) {
      if (key == "rank" || key == "world_size") {
        const bool rank = key == "rank";
        if (!once(seen, rank ? 1 : 2, rank ? Field::rank : Field::world_size, key)) return;
        const std::size_t at = (cursor_.peek(), cursor_.offset());
        std::int64_t value = 0;
        if (!read_whole(value, rank ? Field::rank : Field::world_size, rank ? 0 : 1, limits::kMaxTraceId)) return;
        (rank ? file_.rank : file_.world_size) = value;
        (rank ? rank_at_ : world_at) = at;
      } else {
        cursor_.skip_value();
      }
    }
    // A rank names one of world_size processes, 0 to world_size - 1.
    if (!cursor_.error && file_.rank && file_.world_size && *file_.rank >= *file_.world_size) {
      cursor_.fail(ErrorCode::out_of_range, Field::rank, static_cast<double>(*file_.rank), rank_at_);
      cursor_.error->limit = static_cast<double>(*file_.world_size - 1);
    }
  }

  void read_events() {
    if (cursor_.peek() != JsonType::array) {
      mistyped(Field::traceEvents, cursor_.offset());
      return;
    }
    cursor_.enter('[');
    while (cursor_.next_item()) {
      if (cursor_.peek() != JsonType::object) {
        mistyped(Field::traceEvents, cursor_.offset());
        return;
      }
      raw_.reset();
      if (!read_event(raw_) || !take(raw_)) return;
    }
  }

  // A value of the wrong type at `at` (where the cursor is, past blanks):
  // wrong_type there, quoting the value's JSON text as typed ("12", null).
  // A value that is no JSON either is that error instead.
  bool mistyped(Field field, std::size_t at) {
    if (!cursor_.skip_value()) return false;
    cursor_.fail(ErrorCode::wrong_type, field, 0, at);
    cursor_.error->typed = json_detail::quote_cut(cursor_.text_from(at));
    return false;
  }

  // Text that ends where a value should be is cut short, not mistyped.
  bool cut_short() {
    return cursor_.peek() == JsonType::none && !cursor_.fail(ErrorCode::not_json, Field::trace);
  }

  bool read_id(std::int64_t& out, Field field) {
    if (cut_short()) return false;
    if (cursor_.peek() == JsonType::string) {
      // Chrome allows names as ids; each distinct one gets its own id below
      // every number's, so a name never shares a thread with a number.
      std::string text;
      if (!cursor_.read_string(text)) return false;
      out = -static_cast<std::int64_t>(limits::kMaxTraceId) - 1 - static_cast<std::int64_t>(into_.intern(text));
      return true;
    }
    return read_whole(out, field, -limits::kMaxTraceId, limits::kMaxTraceId);
  }

  bool read_time(std::optional<double>& out, std::size_t& at, Field field) {
    if (cut_short()) return false;
    at = (cursor_.peek(), cursor_.offset());
    if (cursor_.peek() != JsonType::number) return mistyped(field, at);
    std::string_view token;
    if (!cursor_.read_number_text(token, field)) return false;
    const double value = json_detail::json_number_value(token);
    // A number past the double range (-1e400) is judged by the same checks as
    // any number that far out (a negative dur is negative, ts out of range
    // either way), quoted as typed: it said "dur must be at most 1e17".
    const bool far = !std::isfinite(value);
    auto refuse = [&](ErrorCode code, double limit) {
      cursor_.fail(code, field, far ? 0 : value, at);
      cursor_.error->limit = limit;
      if (far) cursor_.error->typed = json_detail::quote_cut(token);
      return false;
    };
    if (field == Field::dur && value < 0) return refuse(ErrorCode::negative, 0);
    if (!(std::fabs(value) <= limits::kMaxTraceTime)) {
      // A start may be either side of the clock's origin; a duration only at most.
      return refuse(field == Field::ts ? ErrorCode::out_of_range : ErrorCode::too_large, limits::kMaxTraceTime);
    }
    // As in the schedule CSV: a time other than 0 too small to survive a
    // unit's conversion (a subnormal) is the event's error, not a time that
    // turns into 0 or loses its digits further on.
    // 1e-400, which reads as 0, is that error too: a time typed other than 0
    // is never taken as 0 (the schedule CSV's rule, lost_below_normal).
    if ((value != 0 && std::fabs(value) < limits::kMinTraceTime) || lost_below_normal(token, value)) {
      cursor_.fail(ErrorCode::too_small, field, value, at);
      cursor_.error->limit = limits::kMinTraceTime;
      cursor_.error->typed = json_detail::quote_cut(token);
      return false;
    }
    out = value;
    return true;
  }

  bool read_string_field(std::string& out, Field field) {
    if (cut_short()) return false;
    const std::size_t at = (cursor_.peek(), cursor_.offset());
    if (cursor_.peek() != JsonType::string) return mistyped(field, at);
    return cursor_.read_string(out);
  }

  bool read_args(RawEvent& raw) {
    if (cursor_.peek() != JsonType::object) return cursor_.skip_value();
    std::string key, value;
    Direction by_peer = Direction::unknown;
    cursor_.enter('{');
    while (cursor_.next_key(key)) {
      if (key == "Collective name" && cursor_.peek() == JsonType::string) {
        if (!cursor_.read_string(value)) return false;
        if (contains_word(value, "send")) raw.direction = Direction::send;
        else if (contains_word(value, "recv")) raw.direction = Direction::recv;
      } else if ((key == "Src Rank" || key == "Dst Rank") &&
                 (cursor_.peek() == JsonType::number || cursor_.peek() == JsonType::string)) {
        if (!read_peer(raw)) return false;
        // torch writes the destination of a send, the source of a receive.
        if (raw.peer) by_peer = key == "Dst Rank" ? Direction::send : Direction::recv;
      } else if (!cursor_.skip_value()) {
        return false;
      }
    }
    if (raw.direction == Direction::unknown) raw.direction = by_peer;
    return !cursor_.error;
  }

  // torch writes a peer as a JSON number (util.cpp's saveNcclMeta); a
  // string of digits is read too. Anything else (a fraction, a negative or
  // huge number, other text) names no peer: the arg is a hint, and without
  // it the transfer is placed by the rules that need none.
  bool read_peer(RawEvent& raw) {
    std::string text;
    if (cursor_.peek() == JsonType::string) {
      if (!cursor_.read_string(text)) return false;
    } else {
      std::string_view token;
      if (!cursor_.read_number_text(token, Field::trace)) return false;
      text = std::string(token);
    }
    if (text.empty() || text.size() > 15 || text.find_first_not_of("0123456789") != std::string::npos) return true;
    std::int64_t peer = 0;
    for (char c : text) peer = peer * 10 + (c - '0');
    raw.peer = peer;
    return true;
  }

  // A key the reader reads, given a second time in its object: JSON leaves
  // which value holds undefined, so it is refused at the second, as the plan
  // reader and the GGUF reader refuse theirs (it kept the last).
  bool once(std::uint32_t& seen, std::uint32_t bit, Field field, std::string_view key) {
    if ((seen & bit) == 0) {
      seen |= bit;
      return true;
    }
    cursor_.fail(ErrorCode::duplicate_key, field, 0, cursor_.offset());
    cursor_.error->typed = std::string(key);
    return false;
  }

  bool read_event(RawEvent& raw) {
    raw.at = cursor_.offset();
    std::string key;
    std::uint32_t seen = 0;
    cursor_.enter('{');
    while (cursor_.next_key(key)) {
      bool ok = true;
      if (key == "ph") ok = once(seen, 1, Field::ph, key) && read_string_field(raw.ph, Field::ph);
      else if (key == "name") ok = once(seen, 2, Field::name, key) && read_string_field(raw.name, Field::name);
      else if (key == "cat") ok = once(seen, 4, Field::cat, key) && read_string_field(raw.category, Field::cat);
      else if (key == "ts") ok = once(seen, 8, Field::ts, key) && read_time(raw.ts, raw.ts_at, Field::ts);
      else if (key == "dur") ok = once(seen, 16, Field::dur, key) && read_time(raw.dur, raw.dur_at, Field::dur);
      else if (key == "pid") ok = once(seen, 32, Field::pid, key) && read_id(raw.pid, Field::pid);
      else if (key == "tid") ok = once(seen, 64, Field::tid, key) && read_id(raw.tid, Field::tid);
      else if (key == "args") ok = once(seen, 128, Field::trace, key) && read_args(raw);
      else ok = cursor_.skip_value();
      if (!ok) return false;
    }
    return !cursor_.error;
  }

  bool missing(Field field, const RawEvent& raw) { return cursor_.fail(ErrorCode::missing_field, field, 0, raw.at); }

  bool keep(const RawEvent& raw, double end) {
    if (static_cast<double>(into_.events.size()) >= limits::kMaxTraceEvents) {
      cursor_.fail(ErrorCode::too_many, Field::traceEvents, limits::kMaxTraceEvents, raw.at);
      cursor_.error->limit = limits::kMaxTraceEvents;
      return false;
    }
    TraceEvent e;
    e.start = *raw.ts;
    e.end = end;
    e.rank = raw.pid;
    e.stream = raw.tid;
    e.name = into_.intern(raw.name);
    e.category = into_.intern(raw.category);
    e.direction = raw.direction;
    if (raw.peer) into_.peers.emplace_back(static_cast<std::uint32_t>(into_.events.size()), *raw.peer);
    into_.events.push_back(e);
    if (++file_.events == kSampledEvents) reserve_the_rest();
    return true;
  }

  // The events of a large file, made room for at once: estimated from the
  // bytes the first ones took, an eighth over, and within the events' limit.
  // Grown by doubling instead, the list would hold its old and new copies at
  // once and leave up to half its room unused, next to the text itself. The
  // room asked for is never more bytes than the text has left, which is what
  // a caller that checks for memory first (the wasm module) makes sure of.
  void reserve_the_rest() {
    const auto left = static_cast<double>(text_size_ - cursor_.offset());
    const double per_event = static_cast<double>(cursor_.offset()) / static_cast<double>(kSampledEvents);
    const double rest = std::min(left / per_event * 1.125, left / static_cast<double>(sizeof(TraceEvent)));
    const double total = std::min(static_cast<double>(into_.events.size()) + rest, limits::kMaxTraceEvents);
    into_.events.reserve(static_cast<std::size_t>(total));
  }

  bool take(const RawEvent& raw) {
    if (raw.ph.empty()) return missing(Field::ph, raw);
    // A phase is one character: "XB" is no X event (it was read as one), and
    // is skipped as every phase other than X, B and E is.
    const char phase = raw.ph.size() == 1 ? raw.ph[0] : '\0';
    if (phase == 'X' || phase == 'B' || phase == 'E') {
      if (!raw.ts) return missing(Field::ts, raw);
    }
    if (phase == 'X') {
      if (!raw.dur) return missing(Field::dur, raw);
      if (raw.name.empty()) return missing(Field::name, raw);
      const double end = *raw.ts + *raw.dur;
      if (!(std::fabs(end) <= limits::kMaxTraceTime)) {
        // The end past the limit (ts > 0, dur >= 0): the longest dur this ts
        // allows is the limit, so that the sentence never reads "dur must be
        // at most 1e17 (got 1e17)" of a dur that is within 1e17 alone.
        cursor_.fail(ErrorCode::too_large, Field::dur, *raw.dur, raw.dur_at);
        cursor_.error->limit = limits::kMaxTraceTime - *raw.ts;
        return false;
      }
      return keep(raw, end);
    }
    const auto thread = std::make_pair(raw.pid, raw.tid);
    if (phase == 'B') {
      if (raw.name.empty()) return missing(Field::name, raw);
      if (!keep(raw, *raw.ts)) return false;
      open_[thread].emplace_back(into_.events.size() - 1, raw.at);
      return true;
    }
    if (phase == 'E') {
      auto found = open_.find(thread);
      if (found == open_.end() || found->second.empty()) {
        return cursor_.fail(ErrorCode::unmatched_end, Field::ph, 0, raw.at);
      }
      TraceEvent& begun = into_.events[found->second.back().first];
      if (*raw.ts < begun.start) return cursor_.fail(ErrorCode::negative, Field::ts, *raw.ts - begun.start, raw.ts_at);
      begun.end = *raw.ts;
      found->second.pop_back();
      return true;
    }
    return true;  // metadata, instants, counters, flows: nothing recovery needs
  }

  void close_pending() {
    std::size_t first = SIZE_MAX;
    for (const auto& thread : open_) {
      for (const auto& pending : thread.second) first = std::min(first, pending.second);
    }
    if (first != SIZE_MAX) cursor_.fail(ErrorCode::unmatched_begin, Field::ph, 0, first);
  }

  // The file's rank on every event, and its clock moved onto the first file's.
  void place_events() {
    double shift = 0;
    if (base_ns_) {
      if (!into_.base_ns) into_.base_ns = base_ns_;
      shift = static_cast<double>(*base_ns_ - *into_.base_ns) / 1000.0;
    }
    const auto file = static_cast<std::uint32_t>(into_.files.size());
    file_.host_clock = base_ns_.has_value();
    for (std::size_t i = first_event_; i < into_.events.size(); ++i) {
      TraceEvent& e = into_.events[i];
      e.file = file;
      if (i == first_event_ && e.start >= kHostClockFrom) file_.host_clock = true;
      if (file_.rank) e.rank = *file_.rank;
      e.start += shift;
      e.end += shift;
    }
  }

  JsonCursor cursor_;
  TraceEvents& into_;
  std::size_t first_event_;
  std::size_t text_size_;
  TraceFile file_;
  std::optional<std::int64_t> base_ns_;
  RawEvent raw_;
  std::size_t rank_at_ = 0;  // where distributedInfo.rank's value is
  bool no_events_ = false;    // a top-level object without traceEvents, refused once its end is checked
  // Open B events per (pid, tid): the event's index and its byte offset.
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::pair<std::size_t, std::size_t>>> open_;
};

}  // namespace

std::uint32_t TraceEvents::intern(const std::string& text) {
  const auto found = index_.find(text);
  if (found != index_.end()) return found->second;
  const auto id = static_cast<std::uint32_t>(names.size());
  names.push_back(text);
  index_.emplace(text, id);
  return id;
}

std::optional<Error> read_chrome_trace(std::string_view text, std::string_view label, TraceEvents& into) {
  if (static_cast<double>(text.size()) > limits::kMaxTraceBytes) {
    return Error{ErrorCode::too_long, Field::trace, 0, static_cast<double>(text.size()), std::string(label),
                 limits::kMaxTraceBytes};
  }
  if (text.empty()) return Error{ErrorCode::empty, Field::trace, 0, 0, std::string(label)};
  if (auto e = json_detail::encoding_error(text, Field::trace, 0, label)) return e;
  auto problem = ChromeReader(text, label, into).read();
  // JSON that stops at its last byte was cut short (a rank that crashed
  // while writing, a copy still in progress): limit = the text's length
  // says so, whatever the blanks at its end.
  if (problem && problem->code == ErrorCode::not_json) {
    const auto end = text.find_last_not_of(" \t\r\n");
    if (end != std::string_view::npos && static_cast<std::size_t>(problem->index) > end) {
      problem->limit = static_cast<double>(text.size());
    }
  }
  return problem;
}

}  // namespace heteropipe
