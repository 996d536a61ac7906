// The schedule CSV: stage,microbatch,kind,start,end, one interval a line, times in microseconds;
// or with the times' unit in the header, stage,microbatch,kind,start_ms,end_ms (s, ms or us), as
// the pages export a schedule in their time unit.
#include <algorithm>
#include <cmath>
#include <string>

#include "../json_cursor.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "heteropipe/trace/events.hpp"
#include "heteropipe/trace/model.hpp"

namespace heteropipe {
namespace {

constexpr std::string_view kColumns = "stage,microbatch,kind,start";
constexpr std::string_view kHeader = "stage,microbatch,kind,start,end";

// A header line as its names, each unquoted and trimmed, joined by commas.
std::string header_names(std::string_view line) {
  std::string names;
  for (;;) {
    const std::size_t comma = csv_cell_end(line);
    names += csv_cell(line.substr(0, comma));
    if (comma == std::string_view::npos) return names;
    names += ',';
    line.remove_prefix(comma + 1);
  }
}

// The microseconds in one unit of the header's times; nullopt for another header.
std::optional<double> header_scale(std::string_view header) {
  if (header == kHeader) return 1.0;
  if (header.substr(0, kColumns.size()) != kColumns || header.substr(kColumns.size(), 1) != "_") return std::nullopt;
  const std::string_view rest = header.substr(kColumns.size() + 1);
  const std::size_t comma = rest.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  const std::string_view unit = rest.substr(0, comma);
  const auto parsed = time_unit_from_name(unit);
  if (!parsed || rest.substr(comma + 1) != "end_" + std::string(unit)) return std::nullopt;
  return microseconds_in(parsed.value());
}

class CsvReader {
 public:
  CsvReader(std::string_view label, TraceEvents& into) : label_(label), into_(into), first_row_(into.rows.size()) {}

  std::optional<Error> read(std::string_view text) {
    reserve_rows(text);
    std::int64_t line = 0;
    bool header = true;
    while (!text.empty()) {
      const std::string_view row = next_line(text);
      const auto problem = header ? read_header(row, line) : read_row(row, line);
      if (problem) {
        into_.rows.resize(first_row_);
        return problem;
      }
      header = false;
      ++line;
    }
    TraceFile file;
    file.label = label_;
    file.events = static_cast<std::int64_t>(into_.rows.size() - first_row_);
    into_.files.push_back(file);
    return std::nullopt;
  }

 private:
  // Room for every row at once, one per line and within the events' limit:
  // grown by doubling instead, the list would hold its old and new copies at
  // once (three times the rows' bytes) and leave up to half its room unused.
  void reserve_rows(std::string_view text) {
    const auto lines = static_cast<double>(std::count(text.begin(), text.end(), '\n')) + 1;
    const double room = std::min(lines, limits::kMaxTraceEvents - static_cast<double>(into_.rows.size()));
    if (room > 0) into_.rows.reserve(into_.rows.size() + static_cast<std::size_t>(room));
  }

  Error error(ErrorCode code, Field field, std::int64_t line, double value = 0, double limit = 0) const {
    return Error{code, field, line, value, label_, limit};
  }

  std::optional<Error> read_header(std::string_view row, std::int64_t line) {
    const auto scale = header_scale(header_names(trim_blanks(row)));
    if (!scale) return error(ErrorCode::missing_field, Field::stage, line);
    scale_ = *scale;
    return std::nullopt;
  }

  // The error about a cell's number, quoting the cell as typed (typed):
  // 1000000000000, not the 1e12 it reads as; 2^53 + 1, not 2^53.
  Error typed_error(ErrorCode code, Field field, std::int64_t line, std::string_view cell, double value,
                    double limit = 0) const {
    Error e = error(code, field, line, value, limit);
    e.typed = json_detail::quote_cut(csv_cell(cell));
    return e;
  }

  // A number of the row, times `scale` (the times' unit in microseconds). A
  // time past the limit is quoted as typed, with the limit in the file's unit.
  std::optional<Error> number(std::string_view cell, Field field, std::int64_t line, double& out,
                              double scale = 1) const {
    const auto value = parse_number(csv_cell(cell), field);
    // A time other than 0 below the smallest normal double is this reader's too_small, with its limit.
    if (!value && value.error().code == ErrorCode::too_small) {
      return typed_error(ErrorCode::too_small, field, line, cell, 0, limits::kMinTraceTime / scale);
    }
    if (!value) return error(value.error().code == ErrorCode::empty ? ErrorCode::missing_field : ErrorCode::not_a_number,
                             field, line);
    out = value.value() * scale;
    if (!(std::fabs(out) <= limits::kMaxTraceTime)) {
      return typed_error(ErrorCode::too_large, field, line, cell, value.value(), limits::kMaxTraceTime / scale);
    }
    // A time other than 0 so small that a unit's conversion would lose it
    // (a subnormal) is the cell's error, not a stage time of 0 further on.
    if (out != 0 && std::fabs(out) < limits::kMinTraceTime) {
      return typed_error(ErrorCode::too_small, field, line, cell, value.value(), limits::kMinTraceTime / scale);
    }
    return std::nullopt;
  }

  // A whole number below `high`; past 2^53 its double may round into range
  // (high is far below), so the range is judged on the double and the error
  // quotes the cell.
  std::optional<Error> whole(std::string_view cell, Field field, std::int64_t line, std::int64_t& out,
                             double high) const {
    double value = 0;
    if (auto problem = number(cell, field, line, value)) return problem;
    if (value != std::floor(value)) return typed_error(ErrorCode::not_integer, field, line, cell, value);
    if (value < 0 || value >= high) return typed_error(ErrorCode::out_of_range, field, line, cell, value, high - 1);
    out = static_cast<std::int64_t>(value);
    return std::nullopt;
  }

  // A row that ends inside double quotes: a quoted cell that RFC 4180 lets
  // run onto the next line, which a schedule never needs (its cells are
  // numbers and two names). It is refused at its own line, as its cell: the
  // cell that opens the quote, typed to the line's end, is what that column
  // refuses; so the lines after it are never read as rows of their own.
  std::optional<Error> open_quote(std::string_view row, std::int64_t line) {
    const Field fields[5] = {Field::stage, Field::microbatch, Field::kind, Field::start, Field::end};
    bool quoted = false;
    std::size_t cell = 0, opened = 0, opened_at = 0, cell_start = 0;
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (row[i] == '"') {
        quoted = !quoted;
        if (quoted) opened = cell, opened_at = cell_start;
      } else if (row[i] == ',' && !quoted) {
        ++cell;
        cell_start = i + 1;
      }
    }
    if (!quoted) return std::nullopt;
    if (opened >= 5) return error(ErrorCode::wrong_length, Field::end, line, 0, 5);
    if (fields[opened] == Field::kind) {
      Error e = error(ErrorCode::unknown_name, Field::kind, line);
      e.token = label_;
      return e;
    }
    return typed_error(ErrorCode::not_a_number, fields[opened], line, row.substr(opened_at), 0);
  }

  std::optional<Error> read_row(std::string_view row, std::int64_t line) {
    if (trim_blanks(row).empty()) return std::nullopt;
    if (auto problem = open_quote(row, line)) return problem;
    std::string_view cells[5];
    const Field fields[5] = {Field::stage, Field::microbatch, Field::kind, Field::start, Field::end};
    for (int i = 0; i < 5; ++i) {
      const std::size_t comma = csv_cell_end(row);
      if ((comma == std::string_view::npos) != (i == 4)) {
        return error(ErrorCode::wrong_length, fields[i], line, 0, 5);
      }
      cells[i] = row.substr(0, comma);
      row = comma == std::string_view::npos ? std::string_view() : row.substr(comma + 1);
    }
    ScheduleRow r;
    if (auto p = whole(cells[0], Field::stage, line, r.stage, static_cast<double>(limits::kMaxTraceRanks))) return p;
    if (auto p = whole(cells[1], Field::microbatch, line, r.microbatch, limits::kMaxTraceEvents)) return p;
    const std::string_view kind = csv_cell(cells[2]);
    if (kind != "compute" && kind != "transfer") {
      Error e = error(ErrorCode::unknown_name, Field::kind, line);
      e.token = label_;
      return e;
    }
    r.transfer = kind == "transfer";
    if (auto p = number(cells[3], Field::start, line, r.start, scale_)) return p;
    if (auto p = number(cells[4], Field::end, line, r.end, scale_)) return p;
    if (r.end < r.start) return error(ErrorCode::end_before_start, Field::end, line, r.end - r.start);
    if (static_cast<double>(into_.rows.size()) >= limits::kMaxTraceEvents) {
      return error(ErrorCode::too_many, Field::stage, line, limits::kMaxTraceEvents, limits::kMaxTraceEvents);
    }
    into_.rows.push_back(r);
    return std::nullopt;
  }

  std::string label_;
  TraceEvents& into_;
  std::size_t first_row_;
  double scale_ = 1;  // microseconds per unit of the file's times
};

}  // namespace

std::optional<Error> read_schedule_csv(std::string_view text, std::string_view label, TraceEvents& into) {
  if (static_cast<double>(text.size()) > limits::kMaxTraceBytes) {
    return Error{ErrorCode::too_long, Field::trace, 0, static_cast<double>(text.size()), std::string(label),
                 limits::kMaxTraceBytes};
  }
  if (trim_blanks(text).empty()) return Error{ErrorCode::empty, Field::trace, 0, 0, std::string(label)};
  if (auto e = json_detail::encoding_error(text, Field::trace, 0, label)) return e;
  return CsvReader(label, into).read(json_detail::skip_bom(text));
}

std::optional<Error> read_trace_text(std::string_view text, std::string_view label, TraceEvents& into) {
  if (auto e = json_detail::encoding_error(text, Field::trace, 0, label)) return e;
  // JSON after a byte-order mark too (the cursor skips it).
  const std::string_view body = trim_blanks(json_detail::skip_bom(text));
  if (!body.empty() && (body.front() == '{' || body.front() == '[')) return read_chrome_trace(text, label, into);
  if (text.empty()) return Error{ErrorCode::empty, Field::trace, 0, 0, std::string(label)};
  // Neither JSON nor the CSV's header: say so at byte 0 rather than at line 0.
  std::string_view rest = body;
  if (header_names(next_line(rest)).substr(0, kColumns.size()) != kColumns) return Error{ErrorCode::not_a_trace, Field::trace, 0, 0, std::string(label)};
  return read_schedule_csv(text, label, into);
}

}  // namespace heteropipe
