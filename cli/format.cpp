#include "format.hpp"

#include <charconv>
#include <cstdio>

namespace heteropipe::cli {

std::string exact(double x) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, result.ptr);
}

std::string readable(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.10g", x);
  return buffer;
}

std::string percent(double fraction) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.1f %%", fraction * 100);
  return buffer;
}

std::string grouped(double n) {
  char buffer[400];
  std::snprintf(buffer, sizeof buffer, "%.0f", n);
  const std::string digits = buffer;
  std::string out;
  const std::size_t first = digits[0] == '-' ? 1 : 0;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > first && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::int64_t as_count(double M) { return static_cast<std::int64_t>(M); }

}  // namespace heteropipe::cli
