#include "rounding.hpp"

namespace heteropipe::text::detail {
namespace {

bool is_zero(const Decimal& d) { return d.digits == "0"; }

}  // namespace

Decimal cut(const Decimal& d, int last, bool up) {
  // Kept: the digits of power exponent .. last; with a leading zero, so that a
  // carry out of the first digit has room.
  std::string digits = "0";
  const int kept = d.exponent - last + 1;
  if (!is_zero(d) && kept > 0) digits += d.digits.substr(0, static_cast<std::size_t>(kept));
  if (!is_zero(d) && kept > static_cast<int>(d.digits.size())) {
    digits += std::string(static_cast<std::size_t>(kept) - d.digits.size(), '0');
  }
  const int first = static_cast<int>(digits.size()) - 1 + last;  // the power of the leading zero
  if (up) {
    std::size_t k = digits.size();
    while (k-- > 0) {
      if (digits[k] != '9') {
        ++digits[k];
        break;
      }
      digits[k] = '0';
    }
  }
  return normalized(digits, first);
}

Decimal rounded(const Decimal& d, int last) {
  if (is_zero(d)) return d;
  const Decimal down = cut(d, last, false);
  // The digits past 10^last: above, at or below half a unit of 10^last.
  const int next = d.exponent - last + 1;  // index in d.digits of the digit of power last - 1
  if (next < 0) return down;               // below a tenth of the unit
  const auto index = static_cast<std::size_t>(next);
  if (index >= d.digits.size()) return down;  // nothing past the unit
  const char first = d.digits[index];
  const bool more = index + 1 < d.digits.size();
  bool up = first > '5' || (first == '5' && more);
  if (first == '5' && !more) {  // halfway: to the even neighbour
    const std::string kept = digits_between(down, last, last);
    up = (kept[0] - '0') % 2 == 1;
  }
  return up ? cut(d, last, true) : down;
}

std::string digits_between(const Decimal& d, int high, int low) {
  std::string out;
  for (int p = high; p >= low; --p) {
    const int index = d.exponent - p;
    out += !is_zero(d) && index >= 0 && index < static_cast<int>(d.digits.size())
               ? d.digits[static_cast<std::size_t>(index)]
               : '0';
  }
  return out;
}

}  // namespace heteropipe::text::detail
