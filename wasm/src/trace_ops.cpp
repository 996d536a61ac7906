// Trace import (tool_bindings.cpp): files' text read by the core's readers
// in place, where the wrapper staged it once, then the model recovered with
// the options `heteropipe trace` takes, as its flags' text or as values.
// The module has no zlib: the caller decompresses, or the wrapper inflates a
// gzip Blob with the platform's DecompressionStream (docs/traces.md).
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "heteropipe/text/trace_text.hpp"
#include "heteropipe/trace/model.hpp"
#include "memory.hpp"
#include "operations.hpp"

namespace heteropipe::wasm {
namespace {

// The two bytes every gzip member starts with (RFC 1952).
bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

// A list of numbers per rank or stage, `name`, or the CLI's text, `text_name`.
// The names are literals: the request keeps them to quote an item later.
Result<std::vector<double>> read_numbers(Request& in, std::string_view name, std::string_view text_name, Field field) {
  if (!in.has(text_name)) return in.list(name, field, static_cast<double>(limits::kMaxTraceRanks));
  auto t = in.text(text_name, field);
  if (!t) return t.error();
  return parse_number_list(t.value(), field);
}

// Ranks in stage order: a list of numbers, or the CLI's text.
Result<std::vector<std::int64_t>> read_stage_order(Request& in) {
  auto ranks = read_numbers(in, "stage_order", "stage_order_text", Field::stage_order);
  if (!ranks) return ranks.error();
  auto order = stage_order_of(ranks.value());
  if (order || order.error().token.empty()) return order;
  // A rank that was no finite number: the first such item is the one refused
  // (every item before it passed), quoted as JS passed it (NaN). A value that
  // was no number at all ("x", true) is not_a_number at its item, as Python's.
  std::int64_t k = 0;
  while (std::isfinite(ranks.value()[static_cast<std::size_t>(k)])) ++k;
  const Error passed = in.annotated(Error{ErrorCode::not_finite, Field::stage_order, k, 0.0, order.error().token});
  if (passed.code == ErrorCode::not_a_number) return passed;
  Error e = order.error();
  e.token = passed.token;
  return e;
}

Result<std::string> read_regex(const Request& in, std::string_view name, Field field) {
  auto t = in.text(name, field);
  if (!t) return t.error();
  return std::string(t.value());
}

Result<TraceOptions> read_options(Request& in) {
  TraceOptions o;
  if (in.has("stat")) {
    auto stat = trace_stat_from_name(in.word("stat"));
    if (!stat) return stat.error();
    o.stat = stat.value();
  }
  if (in.has("unit")) {
    auto unit = time_unit_from_name(in.word("unit"));
    if (!unit) return unit.error();
    o.unit = unit.value();
  }
  auto order = read_stage_order(in);
  if (!order) return order.error();
  o.stage_order = std::move(order).value();
  auto offsets = read_numbers(in, "clock_offsets", "clock_offsets_text", Field::clock_offsets);
  if (!offsets) return offsets.error();
  o.clock_offsets = std::move(offsets).value();
  if (in.has("profiler_step_text")) {
    auto t = in.text("profiler_step_text", Field::profiler_step);
    if (!t) return t.error();
    auto step = profiler_step_of_text(t.value());
    if (!step) return step.error();
    o.profiler_step = step.value();
  } else if (auto step = in.number("profiler_step", Field::profiler_step)) {
    auto whole = profiler_step_of(*step);
    if (!whole) return whole.error();
    o.profiler_step = whole.value();
  }
  for (auto [name, field, regex] : {std::tuple{"compute", Field::compute_regex, &o.compute_regex},
                                     std::tuple{"transfer", Field::transfer_regex, &o.transfer_regex},
                                     std::tuple{"microbatch", Field::microbatch_regex, &o.microbatch_regex}}) {
    auto r = read_regex(in, name, field);
    if (!r) return r.error();
    *regex = std::move(r).value();
  }
  return o;
}

// File k's text, in place; errors name the file as the core's readers do.
Result<std::string_view> file_text(const Request& in, std::size_t k, std::string_view label) {
  const std::string key = std::to_string(k);
  auto t = in.text("bytes." + key, Field::trace, limits::kMaxTraceBytes);
  if (!t) {
    // Too long: at the file's first byte, as the readers word a file's errors;
    // out of memory: about the import as a whole.
    Error e = t.error();
    e.field = Field::trace;
    if (e.code == ErrorCode::too_long) e.index = 0;
    e.token = std::string(label);
    return e;
  }
  if (is_gzip(t.value())) return Error{ErrorCode::bad_gzip, Field::trace, 0, kGzipNotInflated, std::string(label)};
  return t.value();
}

}  // namespace

namespace {

// A file the wrapper stopped inflating (a gzip Blob, wasm/js/blob.js): past
// the limit once inflated, or damaged or cut short. It is refused before any
// file is read, as the CLI's inflater refuses it before the reader starts.
// refused.file: its number; refused.at: the compressed bytes read;
// refused.size: the bytes it had inflated to; refused.trailing: 1 when bytes
// that are no gzip data follow the gzip data, which ends at refused.at.
std::optional<Error> refused(const Request& in) {
  const auto file = in.number("refused.file");
  if (!file) return std::nullopt;
  // Whole numbers below 2^53, as the wrapper sends them; anything else reads as 0.
  auto whole = [](double x) { return x >= 0 && x < limits::kMaxBatches ? static_cast<std::int64_t>(x) : 0; };
  const std::string label(in.word("name." + std::to_string(whole(*file))));
  const std::int64_t at = whole(in.number("refused.at").value_or(0));
  const double size = in.number("refused.size").value_or(0);
  constexpr auto kLimit = static_cast<double>(limits::kMaxTraceBytes);
  if (size > kLimit) return Error{ErrorCode::too_large, Field::trace, at, size, label, kLimit};
  if (in.number("refused.trailing").value_or(0) == 1) {
    return Error{ErrorCode::bad_gzip, Field::trace, at, kGzipTrailingData, label};
  }
  return Error{ErrorCode::bad_gzip, Field::trace, at, 0, label};
}

// The files' events, read from their staged texts; the texts are let go
// with the staging area when this returns, before the model is recovered, so
// that a large import does not hold its text and the recovery's work at once.
// `offset_tokens`: for each clock offset that is no finite number, how JS
// writes what was passed ("x", null, NaN), for the core's error about it,
// which comes after the staging area is gone; `no_number` marks the offsets
// that were no number at all ("x", null), whose error is not_a_number.
Result<TraceEvents> read_files(double staging, TraceOptions& options, std::vector<std::string>& offset_tokens,
                               std::vector<bool>& no_number) {
  Request in(staging);
  if (auto refusal = refused(in)) return *refusal;
  auto read = read_options(in);
  // A profiler step that was no number quotes what was passed (a page's typed text).
  if (!read) return in.annotated(read.error());
  options = std::move(read).value();
  offset_tokens.assign(options.clock_offsets.size(), std::string());
  no_number.assign(options.clock_offsets.size(), false);
  if (in.has("clock_offsets_text")) {
    // The CLI's text: each offset quoted as typed (1e15, not 1e+15), as the CLI quotes it.
    auto t = in.text("clock_offsets_text", Field::clock_offsets);
    for (std::size_t s = 0; t && s < offset_tokens.size(); ++s) {
      offset_tokens[s] = std::string(list_item(t.value(), static_cast<std::int64_t>(s)));
    }
  }
  for (std::size_t s = 0; s < options.clock_offsets.size(); ++s) {
    const double x = options.clock_offsets[s];
    if (std::isfinite(x)) continue;
    const auto stage = static_cast<std::int64_t>(s);
    const Error e{ErrorCode::not_finite, Field::clock_offsets, stage, 0.0, std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf"};
    const Error passed = in.annotated(e, stage);
    offset_tokens[s] = passed.token;
    no_number[s] = passed.code == ErrorCode::not_a_number;
  }
  const double files = in.number("files").value_or(0);
  TraceEvents events;
  for (std::size_t k = 0; k < files; ++k) {
    const std::string label(in.word("name." + std::to_string(k)));
    auto text = file_text(in, k, label);
    if (!text) return text.error();
    // A rough guard before reading, not a bound: room as large as the text.
    // The events kept can take more room than their text, since a TraceEvent
    // (two doubles, two 64-bit ids and more) outweighs the shortest JSON
    // event, under 40 bytes, and their list grows by doubling; the number of
    // events, and so their room, is bounded by limits::kMaxTraceEvents.
    if (!room_for(static_cast<double>(text.value().size()))) {
      return Error{ErrorCode::out_of_memory, Field::trace, kWholeField, static_cast<double>(text.value().size()), label};
    }
    if (auto problem = read_trace_text(text.value(), label, events)) return *problem;
  }
  return events;
}

}  // namespace

void unstage(double staging) { Request dropped(staging); }

double import_trace(double staging) {
  TraceOptions options;
  std::vector<std::string> offset_tokens;
  std::vector<bool> no_number;
  auto events = read_files(staging, options, offset_tokens, no_number);
  if (!events) return refuse(events.error());
  auto result = recover_model(events.value(), options);
  if (result) return answer(std::move(result).value());
  // A clock offset's error quotes the value as JS passed it: NaN (not the core's nan), or "x" for a
  // value that was no number (not_a_number), or the text typed.
  Error e = result.error();
  if (e.field == Field::clock_offsets && (e.code == ErrorCode::not_finite || e.token.empty()) && e.index >= 0 &&
      static_cast<std::size_t>(e.index) < offset_tokens.size() && !offset_tokens[static_cast<std::size_t>(e.index)].empty()) {
    const auto s = static_cast<std::size_t>(e.index);
    if (e.code == ErrorCode::not_finite && no_number[s]) e.code = ErrorCode::not_a_number;
    e.token = offset_tokens[s];
  }
  return refuse(e);
}

}  // namespace heteropipe::wasm
