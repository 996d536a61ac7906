#pragma once

#include <cstdint>
#include <string>
#include <string_view>

// How numbers and quoted text are written for people. Formatting only: every
// value comes from the core.
namespace heteropipe::text {

// The shortest text that reads back to the same double, in the style of
// std::to_chars (fixed or scientific, whichever is shorter): 0.1, 2e+15.
// Written by hand because the WebAssembly toolchain's library lacks the
// floating-point std::to_chars, and every interface must print the same text.
std::string shortest(double x);
// The same text computed without std::to_chars (what shortest uses where the
// library lacks it); tests hold the two to the same output.
std::string shortest_portable(double x);

// Ten significant digits, which hides the last-bit noise of sums such as
// 1.77 + 0.28 in a readable table.
std::string readable(double x);

// A fraction as a percentage with one decimal, e.g. 0.2941 -> "29.4 %".
std::string percent(double fraction);

// Four significant figures, trailing zeros dropped, as the pages' formatter
// writes a speed (halfway cases to even): 14.381947 -> "14.38", 19.5 ->
// "19.5", 15 -> "15", 12345.6 -> "12350".
std::string four_figures(double x);

// A byte count in GiB (2^30 bytes) to four significant figures below 1000
// GiB (three places below 1 GiB), e.g. 92312869273.6 -> "85.97 GiB".
std::string gibibytes(double bytes);

// A whole number with thousands separators, e.g. 2e6 -> "2,000,000".
std::string grouped(double n);

// The same for a whole number's own decimal digits (an optional '-', then
// digits), for one a double does not hold exactly: "18446744073709551615" ->
// "18,446,744,073,709,551,615".
std::string grouped_digits(std::string_view digits);

// A limit as people write it: 2^53 for large powers of two; a whole number
// below 10^12 grouped; else its shortest digits, plainly from 0.0001 up
// (0.95), and past that as 1e15, 1e-9 or 1e-15 (never 1e-09 or 1e+15).
// The pages' fmt.bound (web/js/format.js) writes the same.
std::string bound(double limit);

// Text a user typed, made safe to echo: control characters and other
// invisible code points escaped as \uXXXX, and cut after kMaxQuoted code
// points with an ellipsis, so an error line can neither forge another line
// nor flood a terminal.
inline constexpr std::size_t kMaxQuoted = 80;
std::string quoted(std::string_view typed);

}  // namespace heteropipe::text
