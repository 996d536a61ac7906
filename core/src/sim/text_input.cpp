#include "heteropipe/sim/text_input.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "../json_cursor.hpp"
#include "check_time.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"

namespace heteropipe::sim {
namespace {

Error unknown(std::string_view text, Field field) {
  return Error{ErrorCode::unknown_name, field, kWholeField, 0.0, std::string(trim_blanks(text))};
}

// A header names its columns: its first cell, out of any double quotes,
// starts with a letter or a single quote, and is not a number's word (nan,
// inf, infinity), which is a measurement to check, not a row to skip. A
// quoted number ("1.5", as spreadsheets write it) is data.
bool is_header(std::string_view line) {
  std::string_view t = csv_cell(list_item(line, 0));
  if (!t.empty() && t[0] == '"') t.remove_prefix(1);  // a quote left open
  const char c = t.empty() ? '0' : t[0];
  if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '\'')) return false;
  std::string first;
  for (char x : t) first += static_cast<char>(x >= 'A' && x <= 'Z' ? x - 'A' + 'a' : x);
  return first != "nan" && first != "inf" && first != "infinity";
}

}  // namespace

Result<Distribution> parse_distribution(std::string_view text, Field field) {
  const std::string_view typed = trim_blanks(text);
  struct Choice {
    std::string_view prefix;
    DistributionKind kind;
  };
  for (Choice c : {Choice{"deterministic", DistributionKind::deterministic},
                   Choice{"exponential", DistributionKind::exponential}}) {
    if (typed == c.prefix) return Distribution{c.kind, 0};
  }
  for (Choice c : {Choice{"lognormal:cv=", DistributionKind::lognormal}, Choice{"gamma:cv=", DistributionKind::gamma},
                   Choice{"uniform:spread=", DistributionKind::uniform}}) {
    if (typed.substr(0, c.prefix.size()) != c.prefix) {
      // gamma:x, a kind with a lone word where cv= belongs: that word is no number.
      const std::string_view kind = c.prefix.substr(0, c.prefix.find(':') + 1);
      const std::string_view rest = typed.substr(std::min(kind.size(), typed.size()));
      if (typed.substr(0, kind.size()) == kind && !rest.empty() && rest.find_first_of(":=") == std::string_view::npos) {
        if (auto number = parse_number(rest, field); !number) return number.error();
      }
      continue;
    }
    const std::string_view number = typed.substr(c.prefix.size());
    // lognormal:cv= with nothing after it: the kind is known, its number is missing.
    if (trim_blanks(number).empty()) return Error{ErrorCode::empty, field, kWholeField, 0.0, std::string(typed)};
    auto value = parse_number(number, field);
    if (!value) {
      Error e = value.error();
      // Past the double range either way: out of the CV's (spread's) range, as
      // check_options says of any other number outside it.
      if (e.code == ErrorCode::too_large || e.code == ErrorCode::negative) {
        e.code = ErrorCode::out_of_range;
        e.limit = c.kind == DistributionKind::uniform ? limits::kMaxSpread : limits::kMaxCv;
      }
      return e;
    }
    return Distribution{c.kind, value.value()};
  }
  return unknown(text, field);
}

Result<std::vector<double>> parse_buffers(std::string_view text) {
  return parse_number_list_or_inf(text, Field::buffers);
}

Result<std::int64_t> shared_link(double link, std::int64_t group) {
  if (!std::isfinite(link)) {
    return Error{ErrorCode::not_finite, Field::shared, group, 0.0, std::isnan(link) ? "nan" : link > 0 ? "inf" : "-inf"};
  }
  // A subnormal (5e-324) is too_small at its group, as the CLI's typed --shared is.
  if (auto e = subnormal_error(link, Field::shared, group, {})) return *e;
  // Past 2^53 (kMaxBatches, the last exact whole number) a double holds no
  // fraction: 1e20 is whole, and out of range.
  if (std::fabs(link) > limits::kMaxBatches) {
    return Error{ErrorCode::out_of_range, Field::shared, group, link, {}, limits::kMaxBatches};
  }
  if (link != std::floor(link)) return Error{ErrorCode::not_integer, Field::shared, group, link, {}};
  return static_cast<std::int64_t>(link);
}

Result<std::vector<std::vector<std::int64_t>>> parse_shared(std::string_view text) {
  std::vector<std::vector<std::int64_t>> groups;
  if (trim_blanks(text).empty()) return groups;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = text.find(';', begin);
    const std::string_view part = text.substr(begin, end == std::string_view::npos ? end : end - begin);
    const auto group = static_cast<std::int64_t>(groups.size());
    auto links = parse_number_list(part, Field::shared);
    if (!links) {
      Error e = links.error();
      e.index = group;
      // Past the double range, as past 2^53 (shared_link).
      if (e.code == ErrorCode::too_large || e.code == ErrorCode::negative) {
        e.code = ErrorCode::out_of_range;
        e.limit = limits::kMaxBatches;
      }
      return e;
    }
    if (links.value().empty()) return Error{ErrorCode::empty, Field::shared, group, 0.0, {}};
    std::vector<std::int64_t> members;
    for (std::size_t k = 0; k < links.value().size(); ++k) {
      auto member = shared_link(links.value()[k], group);
      if (!member) {
        // Quoted as typed (1e20, not the 1e+20 it reads as), as every list's item is.
        Error e = member.error();
        if (e.token.empty()) e.token = std::string(list_item(part, static_cast<std::int64_t>(k)));
        return e;
      }
      members.push_back(member.value());
    }
    groups.push_back(std::move(members));
    if (end == std::string_view::npos) break;
    begin = end + 1;
  }
  return groups;
}

namespace {

// Each data row of a table in order, as parse_rows describes them; `on_row`
// takes a row's values and its 0-based data row, and may stop the reading
// with an error.
template <class OnRow>
std::optional<Error> each_row(std::string_view text, Field field, OnRow&& on_row) {
  bool first = true;
  std::int64_t row = 0;
  if (auto e = json_detail::encoding_error(text, field)) return e;
  text = json_detail::skip_bom(text);  // a header after it is still a header
  while (!text.empty()) {
    const std::string_view line = next_line(text);
    if (trim_blanks(line).empty()) continue;
    const bool header = first && is_header(line);
    first = false;
    if (header) continue;
    auto values = parse_number_list(line, field);
    if (!values) {
      // A cell is at its row and column, a matrix's and a samples file's alike
      // (a samples file's column is its stage): it named the stage alone.
      Error e = values.error();
      if (e.index == kWholeField) return e;
      e.column = e.index;
      e.index = row;
      return e;
    }
    // Each time is judged here, by the checks' own rule, so that its error
    // names its cell and quotes it as typed (1e308, not the 1e+308 it reads as).
    const std::vector<double>& times = values.value();
    for (std::size_t k = 0; k < times.size(); ++k) {
      const auto column = static_cast<std::int64_t>(k);
      auto e = field == Field::service_samples ? check_sample(times[k], row) : check_time(times[k], field, row);
      if (!e) continue;
      e->token = std::string(list_item(line, column));
      e->column = column;
      return e;
    }
    if (auto e = on_row(std::move(values).value(), row)) return e;
    ++row;
  }
  return std::nullopt;
}

}  // namespace

Result<std::vector<std::vector<double>>> parse_rows(std::string_view text, Field field) {
  std::vector<std::vector<double>> rows;
  auto keep = [&rows](std::vector<double> values, std::int64_t) -> std::optional<Error> {
    rows.push_back(std::move(values));
    return std::nullopt;
  };
  if (auto e = each_row(text, field, keep)) return *e;
  return rows;
}

Result<std::vector<double>> parse_table(std::string_view text, Field field, std::size_t width, double max_values) {
  std::vector<double> values;
  auto keep = [&](const std::vector<double>& row, std::int64_t m) -> std::optional<Error> {
    if (row.size() != width) {
      // A row of the wrong length is named by its row, a matrix's and a samples file's alike.
      return Error{ErrorCode::wrong_length, field, m, static_cast<double>(row.size()), {}, static_cast<double>(width)};
    }
    if (static_cast<double>(values.size() + row.size()) > max_values) {
      return Error{ErrorCode::too_many, field, kWholeField, static_cast<double>(values.size() + row.size()), {},
                   max_values};
    }
    values.insert(values.end(), row.begin(), row.end());
    return std::nullopt;
  };
  if (auto e = each_row(text, field, keep)) return *e;
  return values;
}

}  // namespace heteropipe::sim
