#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

// exp and log for the simulator's samplers, from +, -, x, / and the bits of
// a double only, so that the native build, the WebAssembly module and the
// Python extension draw the same bits whatever their C library's exp and log
// do (glibc's and musl's need not agree in the last bit). Both are within
// about one unit in the last place over the whole range; docs/simulation.md
// gives the method and tests/core/sim_elementary_test.cpp holds them to the
// C library's. The build compiles with -ffp-contract=off, so no compiler
// fuses a product and a sum here into one rounding on one target only.
namespace heteropipe::sim {

namespace elementary_detail {

inline std::uint64_t bits_of(double x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

inline double double_of(std::uint64_t b) {
  double x = 0;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// 2^k for a k of a normal double's exponent, -1022..1023.
inline double power_of_two(std::int64_t k) { return double_of(static_cast<std::uint64_t>(k + 1023) << 52); }

// ln 2 split in two: the high part keeps 21 significant bits, so that k x
// kLn2High is exact for every k either function meets; the low part is the
// double nearest ln 2 - kLn2High.
constexpr double kLn2High = 0.6931467056274414;
constexpr double kLn2Low = 4.7493250390316726e-07;
constexpr double kInvLn2 = 1.4426950408889634;
constexpr double kRoundingShift = 6755399441055744.0;  // 1.5 x 2^52

// 2^(j/128) for j = 0..127, each as the nearest double and the nearest double
// to the rest (scripts/exp-table.py writes them from 60 decimal digits).
constexpr int kExpTableBits = 7;
constexpr int kExpTableSize = 1 << kExpTableBits;
extern const double kPowersOfTwo[kExpTableSize][2];

// e^x = 2^k 2^(j/128) e^r: n = 128k + j is x times 128 / ln 2 rounded to the
// nearest whole number, r = x - n ln 2 / 128, |r| <= ln 2 / 256 (about).
// Returns 2^(j/128) e^r, in [1, 2) give or take an ulp, and sets n. The
// table's two parts carry 2^(j/128) to far beyond a double, e^r - 1 is its
// Taylor series to r^5 (the first term left out is below 2^-60), and the one
// rounding that matters is the last sum's: within about half an ulp.
inline double exp_split(double x, std::uint64_t& n) {
  // Adding 1.5 x 2^52 leaves the whole number in the low bits of the sum
  // (|128 x / ln 2| < 2^51), so the sum's bits less the shift's are n.
  const double shifted = x * (kExpTableSize * kInvLn2) + kRoundingShift;
  const double nn = shifted - kRoundingShift;
  n = bits_of(shifted) - bits_of(kRoundingShift);
  // kLn2High / 128 is still exact times any n (its 21 significant bits and
  // n's 18 fit in a double's 53).
  const double r = (x - nn * (kLn2High / kExpTableSize)) - nn * (kLn2Low / kExpTableSize);
  const double r2 = r * r;
  const double e_r_less_one = r + r2 * ((1.0 / 2 + r * (1.0 / 6)) + r2 * (1.0 / 24 + r * (1.0 / 120)));
  const double* t = kPowersOfTwo[n % kExpTableSize];
  return t[0] + (t[1] + t[0] * e_r_less_one);
}

// Beyond this |x|, 2^k leaves the normal range or the result overflows or
// vanishes, and portable_exp takes care; within it exp_split's part with k
// added to its exponent is the whole job.
constexpr double kExpPlainLimit = 708;

// e^x for |x| > kExpPlainLimit or NaN: overflow, underflow, subnormal results.
double exp_far(double x);

}  // namespace elementary_detail

// e^x (see exp_split), within about half an ulp over the whole range. The
// far ranges are a call, so that the usual case stays small enough for a
// sampler's loop to inline.
inline double portable_exp(double x) {
  using namespace elementary_detail;
  if (!(x >= -kExpPlainLimit && x <= kExpPlainLimit)) return exp_far(x);
  std::uint64_t n = 0;
  const double part = exp_split(x, n);
  // Times 2^k, k = n / 128 rounded down, exactly: k added to the exponent
  // field (n as two's complement; the shifts keep k's low 12 bits, all the
  // field needs, and the result stays normal).
  return double_of(bits_of(part) + ((n >> kExpTableBits) << 52));
}

// The natural logarithm. x = 2^e m with m in (sqrt(2)/2, sqrt(2)], f = m - 1
// (exact), and with s = f / (2 + f),
//   ln m = 2 atanh(s) = f - f^2/2 + s (f^2/2 + R),  R = sum 2 s^2k / (2k + 1),
// so that f, exact, carries the result and the series only a small correction
// (R to s^22: the first term left out is below 2^-60 of the result).
inline double portable_log(double x) {
  using namespace elementary_detail;
  if (x != x) return x;
  if (x <= 0) return x == 0 ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  if (x == std::numeric_limits<double>::infinity()) return x;
  std::int64_t e = 0;
  std::uint64_t b = bits_of(x);
  if (b < (std::uint64_t{1} << 52)) {  // subnormal: scale into the normal range first
    b = bits_of(x * power_of_two(54));
    e = -54;
  }
  e += static_cast<std::int64_t>(b >> 52) - 1023;
  double m = double_of((b & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1023} << 52));
  if (m > 1.4142135623730951) {
    m = m / 2;
    e += 1;
  }
  const double f = m - 1;
  const double s = f / (2 + f);
  const double z = s * s;
  const double z2 = z * z;
  const double p0 = 2.0 / 3 + z * (2.0 / 5);
  const double p1 = 2.0 / 7 + z * (2.0 / 9);
  const double p2 = 2.0 / 11 + z * (2.0 / 13);
  const double p3 = 2.0 / 15 + z * (2.0 / 17);
  const double p4 = 2.0 / 19 + z * (2.0 / 21);
  const double p5 = 2.0 / 23;
  const double R = z * (p0 + z2 * (p1 + z2 * (p2 + z2 * (p3 + z2 * (p4 + z2 * p5)))));
  const double half_f2 = 0.5 * f * f;
  const double ed = static_cast<double>(e);
  return ed * kLn2High - ((half_f2 - (s * (half_f2 + R) + ed * kLn2Low)) - f);
}

}  // namespace heteropipe::sim
