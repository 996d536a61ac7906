#pragma once

#include <cstdint>
#include <string>
#include <string_view>

// Decimal text to a double and a double to its exact decimal, the same on
// every host: no locale (under a comma-decimal C locale strtod reads "0.5"
// as 0), the same bits natively and in WebAssembly, and no strtod or printf
// linked into the calculator's WebAssembly module.
namespace heteropipe {

// The nearest double (ties to even) to `token`, which the caller has checked
// against [+-]? (digits [. digits*] | . digits) ([eE] [+-]? digits)?:
// +-infinity past the largest double and +-0 below the smallest, as strtod
// gives. std::from_chars where the library has it for double.
double decimal_value(std::string_view token);

// Whether `value`, decimal_value's reading of `token` (the same grammar),
// lost a number typed other than 0: it read as 0 though a digit of the
// mantissa is not 0 (1e-400), or as a subnormal, below
// limits::kMinNormalNumber (1e-310). The one rule by which every reader of
// typed numbers refuses such a number as too_small instead of reading 0.
bool lost_below_normal(std::string_view token, double value);

// The same without std::from_chars, which Emscripten's libc++ lacks for
// double (what decimal_value uses there); tests hold the two to the same
// bits.
double decimal_value_portable(std::string_view token);

// A positive decimal, or zero: digits[0] is not '0' and the last digit is not
// '0' ("0" alone is zero); `exponent` is the power of ten of the first digit.
struct Decimal {
  std::string digits = "0";
  int exponent = 0;
};

// The exact value of |x|, which is finite: every double is a finite decimal.
Decimal exact_decimal(double x);

// `digits` (leading and trailing zeros allowed) with the power of ten of its
// first digit, as a Decimal: those zeros dropped, the power moved with them.
Decimal normalized(std::string digits, int exponent);

}  // namespace heteropipe
