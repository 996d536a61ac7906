#include "json_cursor.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "heteropipe/decimal.hpp"
#include "heteropipe/limits.hpp"

namespace heteropipe::json_detail {
namespace {

void append_utf8(std::string& out, std::uint32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<Error> encoding_error(std::string_view text, Field field, std::int64_t index, std::string_view label) {
  // UTF-32 first: its little-endian mark FF FE 00 00 begins with UTF-16's FF FE.
  const std::string_view head = text.substr(0, 4);
  if (head == std::string_view("\xFF\xFE\0\0", 4) || head == std::string_view("\0\0\xFE\xFF", 4)) {
    return Error{ErrorCode::utf32_text, field, index, static_cast<double>(static_cast<unsigned char>(text[0])),
                 std::string(label)};
  }
  if (text.size() < 2) return std::nullopt;
  const auto b0 = static_cast<unsigned char>(text[0]), b1 = static_cast<unsigned char>(text[1]);
  if (!((b0 == 0xFF && b1 == 0xFE) || (b0 == 0xFE && b1 == 0xFF))) return std::nullopt;
  return Error{ErrorCode::utf16_text, field, index, static_cast<double>(b0), std::string(label)};
}

std::string_view skip_bom(std::string_view text) {
  return text.substr(0, 3) == "\xEF\xBB\xBF" ? text.substr(3) : text;
}

std::string quote_cut(std::string_view text) {
  if (text.size() <= limits::kMaxQuoteBytes) return std::string(text);
  std::size_t cut = limits::kMaxQuoteBytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return std::string(text.substr(0, cut)) + "...";
}

bool JsonCursor::fail(ErrorCode code, Field field, double value, std::optional<std::size_t> at) {
  if (!error) error = Error{code, field, static_cast<std::int64_t>(at ? *at : pos_), value, label_};
  return false;
}

void JsonCursor::blanks() {
  while (pos_ < text_.size() &&
         (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t')) {
    ++pos_;
  }
}

bool JsonCursor::expect(char c) {
  if (error) return false;
  blanks();
  if (pos_ < text_.size() && text_[pos_] == c) {
    ++pos_;
    return true;
  }
  return fail(ErrorCode::not_json, field_);
}

JsonType JsonCursor::peek() {
  if (error) return JsonType::none;
  blanks();
  if (pos_ >= text_.size()) return JsonType::none;
  switch (text_[pos_]) {
    case '{': return JsonType::object;
    case '[': return JsonType::array;
    case '"': return JsonType::string;
    case 't': case 'f': return JsonType::boolean;
    case 'n': return JsonType::null;
    default: return JsonType::number;  // read_number_text says whether it is one
  }
}

bool JsonCursor::open(char bracket) {
  if (!expect(bracket)) return false;
  first_.push_back(true);
  return true;
}

bool JsonCursor::enter(char bracket) {
  if (!open(bracket)) return false;
  if (static_cast<std::int64_t>(first_.size()) > max_depth_) {
    return fail(ErrorCode::too_large, field_, static_cast<double>(first_.size()));
  }
  return true;
}

bool JsonCursor::next_key(std::string& key) {
  if (error) return false;
  blanks();
  if (pos_ < text_.size() && text_[pos_] == '}') return leave();
  if (!first_.back() && !expect(',')) return false;
  first_.back() = false;
  return read_string(key) && expect(':');
}

bool JsonCursor::next_item() {
  if (error) return false;
  blanks();
  if (pos_ < text_.size() && text_[pos_] == ']') return leave();
  if (!first_.back() && !expect(',')) return false;
  first_.back() = false;
  if (peek() == JsonType::none) return fail(ErrorCode::not_json, field_);
  return true;
}

bool JsonCursor::leave() {
  ++pos_;
  first_.pop_back();
  return false;
}

bool JsonCursor::read_string(std::string& out) {
  out.clear();
  return string_body(&out);
}

// A string's text after its opening quote; into `out` unless it is null
// (skipping). Runs of plain bytes are copied at once.
bool JsonCursor::string_body(std::string* out) {
  if (!expect('"')) return false;
  while (pos_ < text_.size()) {
    std::size_t run = pos_;
    while (run < text_.size() && text_[run] != '"' && text_[run] != '\\' &&
           static_cast<unsigned char>(text_[run]) >= 0x20) {
      ++run;
    }
    if (out) out->append(text_.data() + pos_, run - pos_);
    pos_ = run;
    if (pos_ >= text_.size()) break;
    const char c = text_[pos_++];
    if (c == '"') return true;
    if (c != '\\') return fail(ErrorCode::not_json, field_, 0, pos_ - 1);
    if (pos_ >= text_.size()) break;
    const char e = text_[pos_++];
    std::string ignored;
    std::string& into = out ? *out : ignored;
    switch (e) {
      case '"': case '\\': case '/': into += e; break;
      case 'b': into += '\b'; break;
      case 'f': into += '\f'; break;
      case 'n': into += '\n'; break;
      case 'r': into += '\r'; break;
      case 't': into += '\t'; break;
      case 'u': {
        std::uint32_t code = 0;
        for (int i = 0; i < 4; ++i) {
          const int h = pos_ < text_.size() ? hex_digit(text_[pos_]) : -1;
          if (h < 0) return fail(ErrorCode::not_json, field_);
          code = code * 16 + static_cast<std::uint32_t>(h);
          ++pos_;
        }
        append_utf8(into, code);  // a lone surrogate stays as its own code point: names are labels only
        break;
      }
      default: return fail(ErrorCode::not_json, field_, 0, pos_ - 1);
    }
  }
  return fail(ErrorCode::not_json, field_);
}

bool JsonCursor::read_number_text(std::string_view& token, Field field) {
  if (error) return false;
  blanks();
  const std::size_t begin = pos_;
  for (std::string_view word : {"NaN", "Infinity", "-Infinity"}) {
    if (text_.substr(pos_, word.size()) == word) return fail(ErrorCode::not_finite, field);
  }
  if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
  auto digits = [this] {
    const std::size_t from = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    return pos_ > from;
  };
  if (!digits()) return fail(ErrorCode::not_json, field_, 0, begin);
  if (pos_ < text_.size() && text_[pos_] == '.') {
    ++pos_;
    if (!digits()) return fail(ErrorCode::not_json, field_);
  }
  if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
    ++pos_;
    if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
    if (!digits()) return fail(ErrorCode::not_json, field_);
  }
  token = text_.substr(begin, pos_ - begin);
  return true;
}

// digits / 10^places, rounded to the nearest double (ties to even) by integer
// arithmetic, when the whole part is below 2^53: a clock in microseconds with
// a fraction (1682725898236567.125), whose digits pass 2^53. nullopt otherwise.
std::optional<double> fixed_point_value(std::uint64_t digits, int places) {
  std::uint64_t ten = 1;
  for (int k = 0; k < places; ++k) ten *= 10;
  const std::uint64_t whole = digits / ten, rest = digits % ten;
  if (whole == 0 || whole >= (std::uint64_t{1} << 53)) return std::nullopt;
  int top = 63;
  while (!(whole >> top)) --top;
  const int shift = 52 - top;  // the double's spacing at `whole` is 2^-shift
  __extension__ using Wide = unsigned __int128;  // the compilers' 128-bit integer, native and wasm
  const Wide scaled = static_cast<Wide>(rest) << shift;
  auto steps = static_cast<std::uint64_t>(scaled / ten);
  const Wide left = scaled % ten;
  const std::uint64_t mantissa = (whole << shift) + steps;
  if (2 * left > ten || (2 * left == ten && (mantissa & 1))) ++steps;
  return static_cast<double>((whole << shift) + steps) / static_cast<double>(std::uint64_t{1} << shift);
}

double json_number_value(std::string_view token) {
  // 10^0 .. 10^22, every one exact in a double.
  static constexpr double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  constexpr std::uint64_t kExact = std::uint64_t{1} << 53;
  constexpr std::uint64_t kMostDigits = 999999999999999999;  // 18 nines: one more digit still fits 64 bits
  std::size_t i = 0;
  const bool negative = token[0] == '-';
  if (negative) ++i;
  std::uint64_t digits = 0;
  int scale = 0;  // the power of ten the digits are multiplied by
  bool fraction = false;
  for (; i < token.size(); ++i) {
    const char c = token[i];
    if (c == '.') {
      fraction = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    if (digits > kMostDigits) return decimal_value(token);
    digits = digits * 10 + static_cast<std::uint64_t>(c - '0');
    if (fraction) --scale;
  }
  if (i < token.size()) {  // an exponent: e, an optional sign, digits
    ++i;
    const bool down = token[i] == '-';
    if (token[i] == '-' || token[i] == '+') ++i;
    int exponent = 0;
    for (; i < token.size(); ++i) {
      if (exponent > 1000) return decimal_value(token);
      exponent = exponent * 10 + (token[i] - '0');
    }
    scale += down ? -exponent : exponent;
  }
  double value = 0;
  if (digits <= kExact && scale >= -22 && scale <= 22) {
    const auto exact = static_cast<double>(digits);
    value = scale >= 0 ? exact * kPowers[scale] : exact / kPowers[-scale];
  } else if (const auto fixed = scale < 0 && scale >= -19 ? fixed_point_value(digits, -scale) : std::nullopt) {
    value = *fixed;
  } else {
    return decimal_value(token);
  }
  return negative ? -value : value;
}

bool JsonCursor::literal() {
  for (std::string_view word : {"true", "false", "null"}) {
    if (text_.substr(pos_, word.size()) == word) {
      pos_ += word.size();
      return true;
    }
  }
  return fail(ErrorCode::not_json, field_);
}

// A loop, not recursion: the open levels are bits (first_, and here which of
// them are objects), so a value nested a million deep costs a million bits,
// not a million stack frames.
bool JsonCursor::skip_value() {
  std::vector<bool> objects;  // per level opened here: an object, else an array
  for (;;) {
    switch (peek()) {
      case JsonType::object:
        if (!enter('{')) return false;
        objects.push_back(true);
        break;
      case JsonType::array:
        if (!enter('[')) return false;
        objects.push_back(false);
        break;
      case JsonType::string:
        if (!string_body(nullptr)) return false;
        break;
      case JsonType::boolean:
      case JsonType::null:
        if (!literal()) return false;
        break;
      case JsonType::number: {
        std::string_view token;
        if (!read_number_text(token, field_)) return false;
        break;
      }
      case JsonType::none:
        return fail(ErrorCode::not_json, field_);
    }
    // On to the next value inside, closing the levels that end here.
    for (;;) {
      if (objects.empty()) return true;
      if (objects.back() ? next_key(key_) : next_item()) break;
      if (error) return false;
      objects.pop_back();
    }
  }
}

bool JsonCursor::finish() {
  if (error) return false;
  blanks();
  if (pos_ != text_.size()) return fail(ErrorCode::not_json, field_);
  return true;
}

}  // namespace heteropipe::json_detail
