// The trace reader's numbers: the fast path gives strtod's bits, on the
// shapes profilers write and on random ones, at the fast path's edges too.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "json_cursor.hpp"

using heteropipe::json_detail::json_number_value;

namespace {

void check_same_bits(const std::string& token) {
  CAPTURE(token);
  const double expected = std::strtod(token.c_str(), nullptr);
  const double got = json_number_value(token);
  std::uint64_t a = 0, b = 0;
  std::memcpy(&a, &expected, sizeof a);
  std::memcpy(&b, &got, sizeof b);
  CHECK(a == b);
}

}  // namespace

TEST_CASE("trace numbers: the fast path's edges, and past them") {
  for (const char* token : {"0", "-0", "0.0", "1", "-1", "12.5", "1e22", "1e23", "9007199254740992",
                            "9007199254740993", "90071992547409921", "1.7976931348623157e308", "4.9e-324",
                            "123456789012345678901234567890", "0.1", "0.3", "1e-22", "1e-23", "5e-324",
                            "1701234567890123.456", "5417235889446.123", "12.000000000000000000001",
                            "2.5E+3", "2.5e-3", "100e-2", "0.0000000000000000000000001"}) {
    check_same_bits(token);
  }
}

TEST_CASE("trace numbers: halfway cases round to even, as strtod does") {
  // 2^52 + 0.5 and 2^52 + 1.5 lie halfway between two doubles; 2^51 + 0.25 and + 0.75 too.
  for (const char* token : {"4503599627370496.5", "4503599627370497.5", "2251799813685248.25",
                            "2251799813685248.75", "2251799813685248.250000000000000001", "1.5", "0.5"}) {
    check_same_bits(token);
  }
}

TEST_CASE("trace numbers: random tokens give strtod's bits") {
  std::mt19937_64 random(20261130);
  auto digit = [&random] { return static_cast<char>('0' + random() % 10); };
  for (int k = 0; k < 200000; ++k) {
    std::string token = random() % 8 == 0 ? "-" : "";
    const int whole = 1 + static_cast<int>(random() % 20);
    for (int i = 0; i < whole; ++i) token += digit();
    if (random() % 2) {
      token += '.';
      const int places = 1 + static_cast<int>(random() % 12);
      for (int i = 0; i < places; ++i) token += digit();
    }
    if (random() % 4 == 0) {
      token += random() % 2 ? "e-" : "e";
      token += std::to_string(random() % 40);
    }
    check_same_bits(token);
  }
  // A clock in microseconds with a fraction, as Kineto writes it: 16 digits, a point and 1 to 6.
  for (int k = 0; k < 200000; ++k) {
    std::string token = "16827";
    for (int i = 0; i < 11; ++i) token += digit();
    token += '.';
    const int places = 1 + static_cast<int>(random() % 6);
    for (int i = 0; i < places; ++i) token += digit();
    check_same_bits(token);
  }
}
