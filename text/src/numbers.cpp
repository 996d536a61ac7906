#include "heteropipe/text/numbers.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "heteropipe/decimal.hpp"
#include "rounding.hpp"

namespace heteropipe::text {
namespace {


std::string scientific(const std::string& digits, int exponent) {
  std::string out(1, digits[0]);
  if (digits.size() > 1) out += "." + digits.substr(1);
  const int magnitude = exponent < 0 ? -exponent : exponent;
  out += exponent < 0 ? "e-" : "e+";
  if (magnitude < 10) out += '0';
  return out + std::to_string(magnitude);
}

std::string fixed(const std::string& digits, int exponent) {
  const auto n = static_cast<int>(digits.size());
  if (exponent < 0) return "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  if (n <= exponent + 1) return digits + std::string(static_cast<std::size_t>(exponent + 1 - n), '0');
  return digits.substr(0, static_cast<std::size_t>(exponent + 1)) + "." +
         digits.substr(static_cast<std::size_t>(exponent + 1));
}

bool same(const Decimal& a, const Decimal& b) { return a.digits == b.digits && a.exponent == b.exponent; }

bool reads_back(const Decimal& d, double x) { return decimal_value(scientific(d.digits, d.exponent)) == x; }

// The fewest significant digits that read back to x (finite, positive), the
// nearest to x of those, as std::to_chars chooses.
Decimal shortest_decimal(double x) {
  const Decimal exact = exact_decimal(x);
  for (int count = 1;; ++count) {
    if (static_cast<int>(exact.digits.size()) <= count) return exact;
    const int last = exact.exponent - count + 1;
    const Decimal nearest = detail::rounded(exact, last);
    if (reads_back(nearest, x) || count == 17) return nearest;
    // The doubles that read back to x are not always centred on it (below a
    // power of two they are closer together), so the other neighbour of this
    // many digits may read back where the nearest does not.
    const Decimal down = detail::cut(exact, last, false), up = detail::cut(exact, last, true);
    const Decimal& other = same(nearest, down) ? up : down;
    if (reads_back(other, x)) return other;
  }
}

// printf's "%.*f": x rounded to `places` decimals, halfway cases to even.
std::string fixed_places(double x, int places) {
  const std::string sign = std::signbit(x) ? "-" : "";
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return sign + "inf";
  const Decimal r = detail::rounded(exact_decimal(x), -places);
  std::string out = sign + detail::digits_between(r, r.exponent > 0 ? r.exponent : 0, 0);
  if (places > 0) out += "." + detail::digits_between(r, -1, -places);
  return out;
}

// Also the surrogates U+D800-U+DFFF: encoded as three bytes (Python's
// surrogatepass, CESU-8) they are not UTF-8, and echoed they would make the
// message invalid text.
bool invisible(char32_t c) {
  return c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA0) || c == 0xAD || (c >= 0x200B && c <= 0x200F) ||
         (c >= 0x2028 && c <= 0x202E) || (c >= 0x2060 && c <= 0x2064) || (c >= 0xD800 && c <= 0xDFFF) ||
         c == 0xFEFF;
}

// Decodes one UTF-8 code point at text[pos]; a malformed byte stands for itself
// as U+FFFD so that it is escaped rather than echoed.
char32_t next_code_point(std::string_view text, std::size_t& pos, std::size_t& length) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[pos + k]); };
  const unsigned char b = byte(0);
  std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || pos + n > text.size()) {
    length = 1;
    return 0xFFFD;
  }
  char32_t c = n == 1 ? b : b & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(k) & 0xC0) != 0x80) {
      length = 1;
      return 0xFFFD;
    }
    c = (c << 6) | (byte(k) & 0x3F);
  }
  // Only the shortest form of a code point of Unicode is UTF-8: an overlong
  // form (C0 80 for NUL, C1 81 for 'A') or a value past U+10FFFF is invalid,
  // each byte shown as one (it was copied into the message as it was, which
  // made the message invalid UTF-8, or shown as the NUL it spells). A lone
  // surrogate (ED A0 80, as Python passes '\ud800') is decoded, and escaped.
  constexpr char32_t kLeast[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < kLeast[n] || c > 0x10FFFF) {
    length = 1;
    return 0xFFFD;
  }
  length = n;
  return c;
}

}  // namespace

std::string shortest(double x) {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, result.ptr);
#else
  return shortest_portable(x);
#endif
}

std::string shortest_portable(double x) {
  if (x == 0) return std::signbit(x) ? "-0" : "0";
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  const Decimal d = shortest_decimal(std::fabs(x));
  std::string a = fixed(d.digits, d.exponent);
  const std::string b = scientific(d.digits, d.exponent);
  // A whole number in fixed form shows its exact value, as std::to_chars does
  // (1002787546051120640, not the shortest digits padded with zeros).
  if (static_cast<int>(d.digits.size()) <= d.exponent + 1 && b.size() >= a.size()) {
    const Decimal exact = exact_decimal(x);
    a = detail::digits_between(exact, exact.exponent, 0);
  }
  return (x < 0 ? "-" : "") + (b.size() < a.size() ? b : a);
}

// printf's "%.10g".
std::string readable(double x) {
  if (std::isnan(x)) return "nan";
  const std::string sign = std::signbit(x) ? "-" : "";
  if (std::isinf(x)) return sign + "inf";
  if (x == 0) return sign + "0";
  const Decimal exact = exact_decimal(x);
  const Decimal d = detail::rounded(exact, exact.exponent - 9);
  return sign + (d.exponent < -4 || d.exponent >= 10 ? scientific(d.digits, d.exponent) : fixed(d.digits, d.exponent));
}

std::string percent(double fraction) { return fixed_places(fraction * 100, 1) + " %"; }

std::string four_figures(double x) {
  if (!std::isfinite(x) || x == 0) return fixed_places(x, 0);
  const Decimal exact = exact_decimal(x);
  const int last = exact.exponent - 3;  // the power of the fourth significant digit
  const Decimal r = detail::rounded(exact, last);
  std::string out = (std::signbit(x) ? "-" : "") + detail::digits_between(r, std::max(r.exponent, 0), 0);
  if (last < 0) {
    std::string fraction = detail::digits_between(r, -1, last);
    fraction.erase(fraction.find_last_not_of('0') + 1);
    if (!fraction.empty()) out += "." + fraction;
  }
  return out;
}

std::string gibibytes(double bytes) {
  const double gib = bytes / 1073741824.0;
  const double size = std::fabs(gib);
  const int places = size >= 1000 ? 0 : size >= 100 ? 1 : size >= 10 ? 2 : 3;
  return fixed_places(gib, places) + " GiB";
}

std::string grouped(double n) { return grouped_digits(fixed_places(n, 0)); }

std::string grouped_digits(std::string_view digits) {
  std::string out;
  const std::size_t first = digits[0] == '-' ? 1 : 0;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > first && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string bound(double limit) {
  int exponent = 0;
  const double mantissa = std::frexp(limit, &exponent);
  if (mantissa == 0.5 && exponent - 1 >= 32) return "2^" + std::to_string(exponent - 1);
  if (limit == std::floor(limit) && std::fabs(limit) < 1e12) return grouped(limit);
  if (!std::isfinite(limit)) return shortest(limit);
  // The shortest digits that read back, written plainly (0.0001, 0.95) where
  // that reads at a glance, else as 1e-9 or 1.5e15: no exponent padded with
  // a zero or signed with a plus, as people write a limit.
  const Decimal d = shortest_decimal(std::fabs(limit));
  const std::string sign = limit < 0 ? "-" : "";
  if (d.exponent >= -4 && d.exponent < 12) return sign + fixed(d.digits, d.exponent);
  std::string out = sign + d.digits.substr(0, 1);
  if (d.digits.size() > 1) out += "." + d.digits.substr(1);
  return out + "e" + std::to_string(d.exponent);
}

std::string quoted(std::string_view typed) {
  std::string out;
  std::size_t pos = 0, shown = 0;
  while (pos < typed.size()) {
    if (shown == kMaxQuoted) return out + "\u2026";
    std::size_t length = 0;
    const char32_t c = next_code_point(typed, pos, length);
    if (c == 0xFFFD || invisible(c)) {
      const auto code = static_cast<unsigned>(c == 0xFFFD && length == 1 ? static_cast<unsigned char>(typed[pos]) : c);
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += "0123456789abcdef"[(code >> shift) & 0xF];
    } else {
      out.append(typed.substr(pos, length));
    }
    pos += length;
    ++shown;
  }
  return out;
}

}  // namespace heteropipe::text
