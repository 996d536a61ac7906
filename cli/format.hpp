#pragma once

#include <cstdint>
#include <string>

// How the CLI writes numbers. Formatting only: every value comes from the core.
namespace heteropipe::cli {

// Shortest text that reads back to the same double (CSV, error messages).
std::string exact(double x);

// Ten significant digits, which hides the last-bit noise of sums such as
// 1.77 + 0.28 in the readable table.
std::string readable(double x);

// A fraction as a percentage with one decimal, e.g. 0.2941 -> "29.4 %".
std::string percent(double fraction);

// A whole number with thousands separators, e.g. 2e6 -> "2,000,000".
std::string grouped(double n);

// M is a double that holds an integer in [1, 2^53]; show it as one.
std::int64_t as_count(double M);

}  // namespace heteropipe::cli
