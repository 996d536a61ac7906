#include "heteropipe/parse.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

#include "heteropipe/limits.hpp"

namespace heteropipe {
namespace {

// Byte length of the separator at text[pos], or 0.
std::size_t hard_separator_length(std::string_view text, std::size_t pos) {
  const char c = text[pos];
  if (c == ',' || c == ';') return 1;
  // U+FF0C full-width comma, U+FF1B full-width semicolon, U+3001 ideographic comma.
  for (std::string_view sep : {"\xEF\xBC\x8C", "\xEF\xBC\x9B", "\xE3\x80\x81"}) {
    if (text.substr(pos, sep.size()) == sep) return sep.size();
  }
  return 0;
}

std::size_t blank_length(std::string_view text, std::size_t pos) {
  const char c = text[pos];
  if (c == ' ' || c == '\t' || c == '\n' || c == '\r') return 1;
  constexpr std::string_view kIdeographicSpace = "\xE3\x80\x80";  // U+3000
  if (text.substr(pos, kIdeographicSpace.size()) == kIdeographicSpace) return kIdeographicSpace.size();
  return 0;
}

// The bound an overflowing number breaks: M has its own.
double largest_value(Field field) { return field == Field::M ? limits::kMaxBatches : limits::kMaxValue; }

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// [+-]? (digits [. digits*] | . digits) ([eE] [+-]? digits)?
bool is_decimal(std::string_view t) {
  std::size_t i = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
  std::size_t mantissa_digits = 0;
  while (i < t.size() && is_digit(t[i])) ++i, ++mantissa_digits;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && is_digit(t[i])) ++i, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    std::size_t exponent_digits = 0;
    while (i < t.size() && is_digit(t[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  return i == t.size();
}

Error item_error(ErrorCode code, Field field, std::int64_t index, std::string_view token, double limit = 0) {
  return Error{code, field, index, 0.0, std::string(token), limit};
}

// Converts one item; the grammar check makes strtod's result well defined.
Result<double> convert(std::string_view token, Field field, std::int64_t index) {
  if (!is_decimal(token)) return item_error(ErrorCode::not_a_number, field, index, token);
  const std::string copy(token);
  double value = std::strtod(copy.c_str(), nullptr);
  if (!std::isfinite(value)) return item_error(ErrorCode::too_large, field, index, token, largest_value(field));
  if (value == 0.0) value = 0.0;  // "-0" is zero, not a negative value
  return value;
}

}  // namespace

Result<std::vector<double>> parse_number_list(std::string_view text, Field field) {
  std::vector<double> values;
  bool item_expected = true;  // at the start, or right after a hard separator
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (std::size_t n = blank_length(text, pos)) {
      pos += n;
      continue;
    }
    const auto index = static_cast<std::int64_t>(values.size());
    if (std::size_t n = hard_separator_length(text, pos)) {
      if (item_expected) return item_error(ErrorCode::empty_item, field, index, text.substr(pos, n));
      item_expected = true;
      pos += n;
      continue;
    }
    std::size_t end = pos;
    while (end < text.size() && !blank_length(text, end) && !hard_separator_length(text, end)) ++end;
    if (index >= limits::kMaxStages) {
      return Error{ErrorCode::too_many, field, index, static_cast<double>(limits::kMaxStages), {},
                   static_cast<double>(limits::kMaxStages)};
    }
    auto value = convert(text.substr(pos, end - pos), field, index);
    if (!value) return value.error();
    values.push_back(value.value());
    item_expected = false;
    pos = end;
  }
  return values;
}

Result<double> parse_number(std::string_view text, Field field) {
  std::size_t begin = 0, end = text.size();
  while (begin < end && blank_length(text, begin)) begin += blank_length(text, begin);
  while (end > begin && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\n' ||
                         text[end - 1] == '\r')) {
    --end;
  }
  const std::string_view token = text.substr(begin, end - begin);
  if (token.empty()) return Error{ErrorCode::empty, field, kWholeField, 0.0, {}};
  return convert(token, field, kWholeField);
}

}  // namespace heteropipe
