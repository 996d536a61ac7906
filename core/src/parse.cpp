#include "heteropipe/parse.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "heteropipe/decimal.hpp"
#include "json_cursor.hpp"
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

// Byte length of the Unicode white space character at text[pos], or 0:
// U+0009-U+000D, U+0020, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028,
// U+2029, U+202F, U+205F and U+3000, matched on their UTF-8 bytes.
std::size_t blank_length(std::string_view text, std::size_t pos) {
  const auto at = [&](std::size_t k) -> unsigned char {
    return pos + k < text.size() ? static_cast<unsigned char>(text[pos + k]) : 0;
  };
  const unsigned char b0 = at(0), b1 = at(1), b2 = at(2);
  if (b0 == ' ' || (b0 >= '\t' && b0 <= '\r')) return 1;
  if (b0 == 0xC2) return b1 == 0x85 || b1 == 0xA0 ? 2 : 0;
  if (b0 == 0xE1) return b1 == 0x9A && b2 == 0x80 ? 3 : 0;
  if (b0 == 0xE2 && b1 == 0x80) return (b2 >= 0x80 && b2 <= 0x8A) || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF ? 3 : 0;
  if (b0 == 0xE2 && b1 == 0x81) return b2 == 0x9F ? 3 : 0;
  if (b0 == 0xE3) return b1 == 0x80 && b2 == 0x80 ? 3 : 0;
  return 0;
}

// The token with the full-width forms of Chinese and Japanese keyboards
// (digits U+FF10-U+FF19, and U+FF0B + U+FF0D - U+FF0E . U+FF25 E U+FF45 e)
// folded to ASCII, as Unicode's compatibility normalization (NFKC) does.
std::string fold_full_width(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (std::size_t i = 0; i < token.size(); ++i) {
    const auto b0 = static_cast<unsigned char>(token[i]);
    if (b0 == 0xEF && i + 2 < token.size()) {
      const auto b1 = static_cast<unsigned char>(token[i + 1]), b2 = static_cast<unsigned char>(token[i + 2]);
      char ascii = 0;
      if (b1 == 0xBC && b2 >= 0x90 && b2 <= 0x99) ascii = static_cast<char>('0' + (b2 - 0x90));
      if (b1 == 0xBC && b2 == 0x8B) ascii = '+';
      if (b1 == 0xBC && b2 == 0x8D) ascii = '-';
      if (b1 == 0xBC && b2 == 0x8E) ascii = '.';
      if (b1 == 0xBC && b2 == 0xA5) ascii = 'E';
      if (b1 == 0xBD && b2 == 0x85) ascii = 'e';
      if (ascii) {
        out += ascii;
        i += 2;
        continue;
      }
    }
    out += token[i];
  }
  return out;
}

// The bound an overflowing number breaks: M and a buffer have their own.
double largest_value(Field field) {
  if (field == Field::M) return limits::kMaxBatches;
  if (field == Field::buffers) return limits::kMaxBuffer;
  return limits::kMaxValue;
}

// A number past the double range (1e400, -1e400) is refused as its field
// refuses any number that far out: rho and M out of their ranges either
// way (M as 1e20 is); a negative one below the field's least (T_real > 0,
// else >= 0); a positive one past the field's largest. It said "tau: must
// be at most 1e15 (got -1e400)" and "rho: must be at most 1e15". (Clock
// offsets are judged by size.)
Error overflow_error(Field field, std::int64_t index, std::string_view token, bool negative) {
  auto error = [&](ErrorCode code, double limit) { return Error{code, field, index, 0.0, std::string(token), limit}; };
  if (field == Field::rho) return error(ErrorCode::out_of_range, negative ? limits::kMinRho : limits::kMaxRho);
  if (negative && field == Field::T_real) return error(ErrorCode::not_positive, 0);
  if (field == Field::M) return error(ErrorCode::out_of_range, negative ? limits::kMinBatches : limits::kMaxBatches);
  if (negative && field != Field::clock_offsets) return error(ErrorCode::negative, 0);
  return error(ErrorCode::too_large, largest_value(field));
}

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

// A decimal read exactly, from its digits, for counts: whether it is a whole
// number and, if so, its digits (no leading zeros; more than 17 of them only
// when it is far too large for any count).
struct WholeNumber {
  bool is_whole = false, negative = false;
  std::string digits;
};

WholeNumber read_whole(std::string_view t) {  // t passed is_decimal
  WholeNumber out;
  std::size_t i = 0;
  if (t[i] == '+' || t[i] == '-') out.negative = t[i++] == '-';
  std::string mantissa;
  long long point = 0;  // digits of the mantissa before the decimal point
  for (; i < t.size() && is_digit(t[i]); ++i, ++point) mantissa += t[i];
  if (i < t.size() && t[i] == '.') {
    for (++i; i < t.size() && is_digit(t[i]); ++i) mantissa += t[i];
  }
  if (i < t.size()) {  // exponent; clamped, since any |e| this large decides the answer alike
    const bool negative_exponent = t[++i] == '-';
    if (t[i] == '+' || t[i] == '-') ++i;
    long long e = 0;
    for (; i < t.size(); ++i) e = std::min(e * 10 + (t[i] - '0'), 1'000'000LL);
    point += negative_exponent ? -e : e;
  }
  std::size_t lead = 0;
  while (lead < mantissa.size() && mantissa[lead] == '0') ++lead;
  mantissa.erase(0, lead);
  point -= static_cast<long long>(lead);
  while (!mantissa.empty() && mantissa.back() == '0') mantissa.pop_back();
  if (mantissa.empty()) {
    out.is_whole = true;
    out.digits = "0";
    return out;
  }
  out.is_whole = static_cast<long long>(mantissa.size()) <= point;
  if (!out.is_whole) return out;
  out.digits = point > 18 ? std::string(19, '9') : mantissa + std::string(static_cast<std::size_t>(point) - mantissa.size(), '0');
  return out;
}

// The digits of a whole number below 2^63 (an integer conversion, so no
// floating-point printf is linked into the wasm module for it).
std::string whole_digits(double x) {
  auto n = static_cast<unsigned long long>(x);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + n % 10));
    n /= 10;
  } while (n != 0);
  return digits;
}

Error item_error(ErrorCode code, Field field, std::int64_t index, std::string_view token, double limit = 0) {
  return Error{code, field, index, 0.0, std::string(token), limit};
}

}  // namespace

std::optional<Error> subnormal_error(double value, Field field, std::int64_t index, std::string_view token) {
  if (value == 0 || !(std::fabs(value) < limits::kMinNormalNumber)) return std::nullopt;
  Error e = item_error(ErrorCode::too_small, field, index, token, limits::kMinNormalNumber);
  e.value = value;  // what the error shows when no token is given
  return e;
}

namespace {

// Converts one item; the grammar check makes decimal_value's result well defined.
Result<double> convert(std::string_view token, Field field, std::int64_t index, bool infinity = false) {
  const std::string copy = fold_full_width(token);
  if (infinity && copy == "inf") return static_cast<double>(INFINITY);
  if (!is_decimal(copy)) return item_error(ErrorCode::not_a_number, field, index, token);
  double value = decimal_value(copy);
  if (!std::isfinite(value)) return overflow_error(field, index, token, value < 0);
  if (lost_below_normal(copy, value)) return item_error(ErrorCode::too_small, field, index, token, limits::kMinNormalNumber);
  if (value == 0.0) value = 0.0;  // "-0" is zero, not a negative value
  return value;
}

// Times typed with their unit ("12 ms", "12ms", "0.5 µs"): a list and a
// number take plain numbers in one unit, which the calculator and the CLI
// keep apart. Said so, at the number's item: split at the blank, "12 ms"
// read as the items 12 and "ms", and "ms" was named the bad item.
constexpr std::string_view kTimeUnits[] = {"ns", "us", "\xC2\xB5s", "\xCE\xBCs", "ms", "s", "sec"};

bool is_time_unit(std::string_view word) {
  return std::find(std::begin(kTimeUnits), std::end(kTimeUnits), word) != std::end(kTimeUnits);
}

// Whether `token` is a decimal number with a time unit after it, blanks
// between them or none.
bool number_with_time_unit(std::string_view token) {
  for (const std::string_view unit : kTimeUnits) {
    if (token.size() <= unit.size() || token.substr(token.size() - unit.size()) != unit) continue;
    std::string_view number = token.substr(0, token.size() - unit.size());
    while (!number.empty() && (number.back() == ' ' || number.back() == '\t')) number.remove_suffix(1);
    if (!number.empty() && is_decimal(fold_full_width(number))) return true;
  }
  return false;
}

// Byte length of the blank or separator at text[pos] (0 if neither), and
// whether it is a separator. ASCII, nearly every byte, takes no call.
std::size_t break_length(std::string_view text, std::size_t pos, bool& separator) {
  const auto c = static_cast<unsigned char>(text[pos]);
  if (c < 0x80) {
    separator = c == ',' || c == ';';
    return separator || c == ' ' || (c >= '\t' && c <= '\r') ? 1 : 0;
  }
  separator = false;
  if (const std::size_t n = blank_length(text, pos)) return n;
  const std::size_t n = hard_separator_length(text, pos);
  separator = n > 0;
  return n;
}

// A list cut into its items in one scan, which stops at the first item past
// kMaxStages, so a list past the limit is refused before any item is
// converted. The first separator with no item before it is kept, to be
// reported once the items before it are read.
struct Tokens {
  std::vector<std::string_view> items;
  bool too_many = false;
  std::int64_t empty_at = -1;  // index of the missing item, or -1
  std::string_view empty_separator;
  // A comma between two digits ("0,5") may be a decimal or thousands mark:
  // the first such item pair, and whether it is ambiguous (ambiguous_at).
  std::int64_t tight_comma_at = -1;  // index of the item before it, or -1
  bool tight_comma_suspect = false;  // the item after it starts with 0 and a digit ("1,000", "0,05")
  bool separated_otherwise = false;  // some items are parted otherwise than by a comma alone ("; ", " ", ", ")
};

// The item before a comma between digits, when the list cannot mean it as a
// separator for sure: "0,5 1 1 5" and "0,5; 1" part their other items
// otherwise, and "1,000" or "0,05" give an item a leading zero no one types
// in a list; "1,2,3" is a list. -1 when none.
std::int64_t ambiguous_at(const Tokens& t) {
  return t.tight_comma_at >= 0 && (t.separated_otherwise || t.tight_comma_suspect) ? t.tight_comma_at : -1;
}

Tokens tokenize(std::string_view text) {
  Tokens out;
  bool item_expected = true;  // at the start, or right after a separator
  bool separator = false;
  std::size_t break_start = std::string_view::npos;  // where the blanks and separators before this item began
  // A UTF-8 byte-order mark, as a file's first bytes or pasted before a value,
  // is no part of the list (only at the start: anywhere else it is no number).
  std::size_t pos = text.size() - json_detail::skip_bom(text).size();
  for (; pos < text.size();) {
    if (const std::size_t n = break_length(text, pos, separator)) {
      if (break_start == std::string_view::npos) break_start = pos;
      if (separator) {
        if (item_expected && out.empty_at < 0) {
          out.empty_at = static_cast<std::int64_t>(out.items.size());
          out.empty_separator = text.substr(pos, n);
        }
        item_expected = true;
      }
      pos += n;
      continue;
    }
    if (static_cast<std::int64_t>(out.items.size()) == limits::kMaxStages) {
      out.too_many = true;
      return out;
    }
    if (!out.items.empty() && break_start != std::string_view::npos) {
      const bool bare_comma = pos == break_start + 1 && text[break_start] == ',';
      if (!bare_comma) {
        out.separated_otherwise = true;
      } else if (is_digit(text[break_start - 1]) && is_digit(text[pos]) &&
                 (out.tight_comma_at < 0 || !out.tight_comma_suspect)) {
        const bool suspect = text[pos] == '0' && pos + 1 < text.size() && is_digit(text[pos + 1]);
        if (out.tight_comma_at < 0 || suspect) {
          out.tight_comma_at = static_cast<std::int64_t>(out.items.size()) - 1;
          out.tight_comma_suspect = suspect;
        }
      }
    }
    break_start = std::string_view::npos;
    // A cell in double quotes (RFC 4180) runs to its closing quote, separators
    // and blanks inside it included; "" inside it is an escaped quote.
    std::size_t end = pos + 1;
    if (text[pos] == '"') {
      for (std::size_t q = text.find('"', end); q != std::string_view::npos; q = text.find('"', q + 2)) {
        end = q + 1;
        if (text.substr(q + 1, 1) != "\"") break;
      }
    }
    while (end < text.size() && break_length(text, end, separator) == 0) ++end;
    out.items.push_back(text.substr(pos, end - pos));
    item_expected = false;
    pos = end;
  }
  return out;
}

// Whether only blanks, no separator, part two items of one text.
bool blanks_only(std::string_view text, std::string_view before, std::string_view after) {
  bool separator = false;
  for (auto pos = static_cast<std::size_t>(before.data() + before.size() - text.data());
       pos < static_cast<std::size_t>(after.data() - text.data());) {
    const std::size_t n = break_length(text, pos, separator);
    if (n == 0 || separator) return false;
    pos += n;
  }
  return true;
}

bool is_quoted(std::string_view item) { return item.size() >= 2 && item.front() == '"' && item.back() == '"'; }

// A quoted item's content, with "" read as one quote and blanks inside trimmed.
std::string cell_content(std::string_view item) {
  std::string out;
  const std::string_view inside = item.substr(1, item.size() - 2);
  for (std::size_t i = 0; i < inside.size(); ++i) {
    out += inside[i];
    if (inside[i] == '"' && inside.substr(i + 1, 1) == "\"") ++i;
  }
  return std::string(trim_blanks(out));
}

Result<std::vector<double>> parse_list(std::string_view text, Field field, bool infinity) {
  const Tokens tokens = tokenize(text);
  if (tokens.too_many) {
    return Error{ErrorCode::too_many, field, limits::kMaxStages, static_cast<double>(limits::kMaxStages), {},
                 static_cast<double>(limits::kMaxStages)};
  }
  std::vector<double> values;
  values.reserve(tokens.items.size());
  const std::int64_t ambiguous = ambiguous_at(tokens);
  for (std::size_t k = 0; k <= tokens.items.size(); ++k) {
    const auto index = static_cast<std::int64_t>(k);
    if (index == tokens.empty_at) return item_error(ErrorCode::empty_item, field, index, tokens.empty_separator);
    if (index == ambiguous) {
      const std::string pair = std::string(tokens.items[k]) + "," + std::string(tokens.items[k + 1]);
      return Error{ErrorCode::ambiguous_comma, field, index, 0.0, pair};
    }
    if (k == tokens.items.size()) break;
    // Only a quoted item is copied: the lists of millions of plain numbers are read in place.
    const std::string_view item = tokens.items[k];
    auto value = is_quoted(item) ? convert(cell_content(item), field, index, infinity)
                                 : convert(item, field, index, infinity);
    if (!value) {
      Error e = value.error();
      e.token = std::string(item);  // as typed, quotes and all
      if (e.code == ErrorCode::not_a_number) {
        if (number_with_time_unit(is_quoted(item) ? cell_content(item) : std::string(item))) {
          e.code = ErrorCode::has_unit;
        } else if (k > 0 && is_time_unit(item) && blanks_only(text, tokens.items[k - 1], item)) {
          // "12 ms": the unit is the number's before it, reported there with both as typed.
          const char* begin = tokens.items[k - 1].data();
          e = item_error(ErrorCode::has_unit, field, index - 1,
                         std::string_view(begin, static_cast<std::size_t>(item.data() + item.size() - begin)));
        }
      }
      return e;
    }
    values.push_back(value.value());
  }
  return values;
}

}  // namespace

Result<std::vector<double>> parse_number_list(std::string_view text, Field field) {
  return parse_list(text, field, false);
}

std::string_view list_item(std::string_view text, std::int64_t index) {
  const Tokens tokens = tokenize(text);
  if (index < 0 || index >= static_cast<std::int64_t>(tokens.items.size())) return {};
  return tokens.items[static_cast<std::size_t>(index)];
}

void quote_list_item(Error& e, Field field, std::string_view text) {
  if (e.field == field && e.index >= 0 && e.token.empty()) e.token = std::string(list_item(text, e.index));
}

Result<std::vector<double>> parse_number_list_or_inf(std::string_view text, Field field) {
  return parse_list(text, field, true);
}

std::string_view next_line(std::string_view& text) {
  const std::size_t end = text.find_first_of("\r\n");
  const std::string_view line = text.substr(0, end);
  if (end == std::string_view::npos) {
    text = {};
  } else {
    text.remove_prefix(end + (text.substr(end, 2) == "\r\n" ? 2 : 1));
  }
  return line;
}

std::string_view csv_cell(std::string_view cell) {
  const std::string_view t = trim_blanks(cell);
  if (t.size() >= 2 && t.front() == '"' && t.back() == '"') return t.substr(1, t.size() - 2);
  return t;
}

std::size_t csv_cell_end(std::string_view row) {
  bool quoted = false;  // "" inside quotes leaves and enters them again: the same
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '"') quoted = !quoted;
    if (row[i] == ',' && !quoted) return i;
  }
  return std::string_view::npos;
}

std::string_view trim_blanks(std::string_view text) {
  std::size_t begin = 0, end = 0, pos = 0;
  bool seen = false;
  while (pos < text.size()) {
    if (const std::size_t n = blank_length(text, pos)) {
      pos += n;
      continue;
    }
    if (!seen) begin = pos;
    seen = true;
    end = ++pos;
  }
  return seen ? text.substr(begin, end - begin) : std::string_view();
}

std::string_view typed_value(std::string_view text) { return trim_blanks(json_detail::skip_bom(text)); }

Result<double> parse_number(std::string_view text, Field field) {
  const std::string_view token = typed_value(text);
  if (token.empty()) return Error{ErrorCode::empty, field, kWholeField, 0.0, {}};
  auto value = convert(token, field, kWholeField);
  if (!value && value.error().code == ErrorCode::not_a_number && number_with_time_unit(token)) {
    return item_error(ErrorCode::has_unit, field, kWholeField, token);
  }
  return value;
}

Result<double> parse_count(std::string_view text, Field field, double low, double high) {
  auto value = parse_number(text, field);
  const std::string_view token = typed_value(text);
  const std::string folded = fold_full_width(token);
  auto error = [&](ErrorCode code, double limit) {
    return Error{code, field, kWholeField, 0.0, std::string(token), limit};
  };
  // Past the double range, a count is out of its range as one far inside it
  // is (1e400 as 1e20, -1e400 as -1): 1e400 was too_large, worded apart
  // from 1e20 ("at most 2^53" beside "between 1 and 2^53").
  if (!value && (value.error().code == ErrorCode::too_large || value.error().code == ErrorCode::negative)) {
    return error(ErrorCode::out_of_range, folded[0] == '-' ? low : high);
  }
  // A count below the smallest normal double (1e-400) is judged by its
  // digits as any other: not a whole number.
  if (!value && value.error().code != ErrorCode::too_small) return value;
  const WholeNumber whole = read_whole(folded);
  if (!whole.is_whole) return error(ErrorCode::not_integer, 0);
  if (whole.negative && whole.digits != "0") return error(ErrorCode::out_of_range, low);
  if (whole.digits.size() > 17) return error(ErrorCode::out_of_range, high);
  // Up to 17 digits, a whole number converts exactly when it is at most 2^53,
  // and one above 2^53 never converts to a value at or below it.
  const double exact = decimal_value(whole.digits);
  if (exact > high || (exact == high && whole.digits != whole_digits(high))) {
    return error(ErrorCode::out_of_range, high);
  }
  if (exact < low) return error(ErrorCode::out_of_range, low);
  return exact;
}

}  // namespace heteropipe
