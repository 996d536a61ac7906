#include "heteropipe/decimal.hpp"

#include "heteropipe/limits.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <system_error>
#include <vector>

namespace heteropipe {
namespace {

// from_chars reads no leading '+'.
std::string_view without_plus(std::string_view token) {
  return !token.empty() && token[0] == '+' ? token.substr(1) : token;
}

constexpr std::uint32_t kBase = 1000000000;  // limbs of nine decimal digits, least significant first

void multiply(std::vector<std::uint32_t>& limbs, std::uint32_t factor) {
  std::uint64_t carry = 0;
  for (std::uint32_t& limb : limbs) {
    const std::uint64_t product = std::uint64_t{limb} * factor + carry;
    limb = static_cast<std::uint32_t>(product % kBase);
    carry = product / kBase;
  }
  while (carry != 0) {
    limbs.push_back(static_cast<std::uint32_t>(carry % kBase));
    carry /= kBase;
  }
}

// mantissa * 2^power exactly: an integer times a power of ten, by
// multiplying by 2^power, or by 5^-power and dividing by 10^-power.
Decimal exact_binary(std::uint64_t mantissa, int power) {
  if (mantissa == 0) return Decimal{};
  std::vector<std::uint32_t> limbs;
  for (; mantissa != 0; mantissa /= kBase) limbs.push_back(static_cast<std::uint32_t>(mantissa % kBase));
  for (int left = power; left > 0; left -= 29) multiply(limbs, std::uint32_t{1} << (left < 29 ? left : 29));
  for (int left = -power; left > 0; left -= 13) {
    std::uint32_t factor = 1;
    for (int k = 0; k < (left < 13 ? left : 13); ++k) factor *= 5;
    multiply(limbs, factor);
  }
  std::string digits = std::to_string(limbs.back());
  for (std::size_t k = limbs.size() - 1; k-- > 0;) {
    const std::string part = std::to_string(limbs[k]);
    digits += std::string(9 - part.size(), '0') + part;
  }
  return normalized(digits, static_cast<int>(digits.size()) - 1 + (power < 0 ? power : 0));
}

// The token's digits and the power of ten of its first (the grammar checked).
Decimal token_decimal(std::string_view t) {
  std::string digits;
  long long point = -1;  // the power of the first digit kept so far, counting zeros
  std::size_t i = 0;
  bool dot = false;
  for (; i < t.size() && t[i] != 'e' && t[i] != 'E'; ++i) {
    if (t[i] == '.') {
      dot = true;
      continue;
    }
    if (!dot) ++point;
    digits += t[i];
  }
  if (i < t.size()) {  // clamped: any |e| this large gives +-infinity or +-0 alike
    const bool down = t[++i] == '-';
    if (t[i] == '+' || t[i] == '-') ++i;
    long long e = 0;
    for (; i < t.size(); ++i) e = std::min(e * 10 + (t[i] - '0'), 100000LL);
    point += down ? -e : e;
  }
  if (point > 100000) point = 100000;
  if (point < -100000) point = -100000;
  return normalized(digits, static_cast<int>(point));
}

int compare(const Decimal& a, const Decimal& b) {
  const bool a_zero = a.digits == "0", b_zero = b.digits == "0";
  if (a_zero || b_zero) return a_zero == b_zero ? 0 : a_zero ? -1 : 1;
  if (a.exponent != b.exponent) return a.exponent < b.exponent ? -1 : 1;
  const int c = a.digits.compare(b.digits);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

// The double of bit pattern `bits` (positive) as mantissa * 2^power, and the
// point halfway to the next double up.
Decimal halfway_up(std::uint64_t bits) {
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  const auto biased = static_cast<int>(bits >> 52);
  const std::uint64_t mantissa = biased == 0 ? fraction : fraction | (std::uint64_t{1} << 52);
  const int power = biased == 0 ? -1074 : biased - 1075;
  return exact_binary(2 * mantissa + 1, power - 1);
}

}  // namespace

Decimal normalized(std::string digits, int exponent) {
  std::size_t lead = 0;
  while (lead + 1 < digits.size() && digits[lead] == '0') ++lead;
  digits.erase(0, lead);
  exponent -= static_cast<int>(lead);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  if (digits == "0") return Decimal{};
  return Decimal{digits, exponent};
}

Decimal exact_decimal(double x) {
  x = std::fabs(x);
  if (x == 0) return Decimal{};
  int power = 0;
  const double fraction = std::frexp(x, &power);
  return exact_binary(static_cast<std::uint64_t>(std::ldexp(fraction, 53)), power - 53);
}

double decimal_value_portable(std::string_view token) {
  token = without_plus(token);
  const bool negative = !token.empty() && token[0] == '-';
  if (negative) token.remove_prefix(1);
  // Most typed numbers: an integer below 2^53 times or over a power of ten up
  // to 10^22, both exact, so one correctly rounded operation (Clinger).
  static constexpr double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  {  // What people type, without building the decimal: up to 15 digits, no exponent.
    std::uint64_t whole = 0;
    int digits = 0, places = 0;
    bool dot = false, plain = true;
    for (const char c : token) {
      if (c == '.') {
        dot = true;
        continue;
      }
      if (c < '0' || c > '9' || digits == 15) {
        plain = false;
        break;
      }
      whole = whole * 10 + static_cast<std::uint64_t>(c - '0');
      ++digits;
      if (dot) ++places;
    }
    if (plain) {
      const double plain_value = static_cast<double>(whole) / kPowers[places];
      return negative ? -plain_value : plain_value;
    }
  }
  const Decimal x = token_decimal(token);
  double value = 0;
  const int scale = x.exponent - static_cast<int>(x.digits.size()) + 1;  // the power of the last digit
  if (x.digits == "0") {
    value = 0;
  } else if (x.digits.size() <= 15 && scale >= -22 && scale <= 22) {
    std::uint64_t whole = 0;
    for (const char c : x.digits) whole = whole * 10 + static_cast<std::uint64_t>(c - '0');
    value = scale >= 0 ? static_cast<double>(whole) * kPowers[scale] : static_cast<double>(whole) / kPowers[-scale];
  } else if (x.exponent > 309) {
    value = std::numeric_limits<double>::infinity();
  } else if (x.exponent >= -325) {
    // The first bit pattern whose halfway point up lies above x (at it: the
    // even one of the two), by bisection on the patterns, which order the
    // positive doubles: the pattern of infinity when none does. Near a first
    // guess (its leading digits scaled by exact powers of ten, a few dozen
    // roundings off at most), else over every pattern.
    const auto rounds_below = [&x](std::uint64_t bits) {
      const int c = compare(x, halfway_up(bits));
      return c < 0 || (c == 0 && bits % 2 == 0);
    };
    std::uint64_t guess_bits = 0;
    double guess = 0;
    for (std::size_t k = 0; k < 17 && k < x.digits.size(); ++k) guess = guess * 10 + (x.digits[k] - '0');
    for (int e = x.exponent - static_cast<int>(x.digits.size() < 17 ? x.digits.size() : 17) + 1; e != 0;) {
      const int step = e > 22 ? 22 : e < -22 ? -22 : e;
      guess = step > 0 ? guess * kPowers[step] : guess / kPowers[-step];
      e -= step;
    }
    std::memcpy(&guess_bits, &guess, sizeof guess_bits);
    constexpr std::uint64_t kInfinity = 0x7FF0000000000000, kNear = 64;
    std::uint64_t low = guess_bits > kNear ? guess_bits - kNear : 0;
    std::uint64_t high = guess_bits < kInfinity - kNear ? guess_bits + kNear : kInfinity;
    if ((low > 0 && rounds_below(low - 1)) || (high < kInfinity && !rounds_below(high))) low = 0, high = kInfinity;
    while (low < high) {
      const std::uint64_t mid = low + (high - low) / 2;
      if (rounds_below(mid)) high = mid;
      else low = mid + 1;
    }
    std::memcpy(&value, &low, sizeof value);
  }
  return negative ? -value : value;
}

bool lost_below_normal(std::string_view token, double value) {
  if (value != 0) return std::fabs(value) < limits::kMinNormalNumber;
  for (const char c : token) {
    if (c == 'e' || c == 'E') break;
    if (c >= '1' && c <= '9') return true;
  }
  return false;
}

double decimal_value(std::string_view token) {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  const std::string_view digits = without_plus(token);
  double value = std::numeric_limits<double>::quiet_NaN();
  const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  // Out of range std::from_chars leaves the value alone; the portable reader
  // gives the +-infinity or +-0 that strtod does.
  if (result.ec == std::errc::result_out_of_range) return decimal_value_portable(token);
  return value;
#else
  return decimal_value_portable(token);
#endif
}

}  // namespace heteropipe
