// Numbers read and written the same on every host: decimal_value (std::from_chars
// natively) and its portable twin (the wasm build's) give the same bits as
// strtod in the C locale; the printer's forms, written by hand from the exact
// decimal, give printf's text in the C locale; and a comma-decimal locale
// changes nothing.
#include <doctest/doctest.h>

#include <heteropipe/decimal.hpp>
#include <heteropipe/parse.hpp>
#include <heteropipe/text/numbers.hpp>

#include <cfloat>
#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <locale>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "json_cursor.hpp"

using namespace heteropipe;

namespace {

std::uint64_t bits_of(double x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

void check_reads_as_strtod(const std::string& token) {
  CAPTURE(token);
  const std::uint64_t expected = bits_of(std::strtod(token.c_str(), nullptr));
  CHECK(bits_of(decimal_value(token)) == expected);
  CHECK(bits_of(decimal_value_portable(token)) == expected);
}

std::string printed(const char* format, double x) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, format, x);
  return buffer;
}

// A comma-decimal locale set for C (setlocale, what Python's
// locale.setlocale calls) and for C++ streams (std::locale::global), and
// the C locale back when the test ends.
class CommaLocale {
 public:
  CommaLocale() {
    for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "ru_RU.UTF-8"}) {
      if (!std::setlocale(LC_ALL, name)) continue;
      try {
        std::locale::global(std::locale(name));
      } catch (const std::runtime_error&) {
        // The C library knows the name; the C++ library may not.
      }
      if (std::string(std::localeconv()->decimal_point) == ",") {
        name_ = name;
        return;
      }
    }
    std::setlocale(LC_ALL, "C");
  }
  ~CommaLocale() {
    std::setlocale(LC_ALL, "C");
    std::locale::global(std::locale::classic());
  }
  CommaLocale(const CommaLocale&) = delete;
  CommaLocale& operator=(const CommaLocale&) = delete;
  const std::string& name() const { return name_; }

 private:
  std::string name_;
};

}  // namespace

TEST_CASE("decimals read as strtod reads them in the C locale: edges, ranges, signs") {
  for (const char* token : {"0", "-0", "+0", "0.5", "+2.5", "-2.5", ".5", "5.", "1e22", "1e23", "2.5E+3",
                            "9007199254740993", "1.7976931348623157e308", "1.7976931348623158e308",
                            "1.7976931348623159e308", "1e400", "-1e400", "4.9e-324", "2.4703282292062328e-324",
                            "2.4703282292062327e-324", "1e-400", "-1e-400", "2.2250738585072011e-308",
                            "2.2250738585072014e-308", "0.1", "0.3", "4503599627370496.5", "4503599627370497.5",
                            "123456789012345678901234567890", "0.000000000000000000000000000000001",
                            "1e-999999999", "1e999999999"}) {
    check_reads_as_strtod(token);
  }
  CHECK(std::isinf(decimal_value("1e400")));
  CHECK(decimal_value("1e-400") == 0);
}

TEST_CASE("decimals read as strtod reads them in the C locale: random tokens") {
  std::mt19937_64 random(20261201);
  auto digit = [&random] { return static_cast<char>('0' + random() % 10); };
  for (int k = 0; k < 20'000; ++k) {
    std::string token = random() % 4 == 0 ? "-" : random() % 8 == 0 ? "+" : "";
    const int whole = static_cast<int>(random() % 22);
    for (int i = 0; i < whole; ++i) token += digit();
    if (whole == 0 || random() % 2) {
      token += '.';
      const int places = 1 + static_cast<int>(random() % 22);
      for (int i = 0; i < places; ++i) token += digit();
    }
    if (random() % 2) {
      token += random() % 2 ? "e-" : "E";
      token += std::to_string(random() % 340);
    }
    check_reads_as_strtod(token);
  }
}

TEST_CASE("the shortest form equals std::to_chars at powers of two, subnormals and the range's ends") {
  std::vector<double> values{DBL_MAX, DBL_MIN, DBL_TRUE_MIN, 5e-324, 1e23, 9007199254740993.0, 0.1, 1e-7, 123456789.0};
  for (int e = -1074; e <= 1023; ++e) {
    values.push_back(std::ldexp(1.0, e));
    values.push_back(std::nextafter(std::ldexp(1.0, e), 0.0));
    values.push_back(std::nextafter(std::ldexp(1.0, e), INFINITY));
  }
  for (int e = -323; e <= 308; ++e) values.push_back(std::pow(10.0, e));
  for (const double x : values) {
    CAPTURE(x);
    REQUIRE(text::shortest_portable(x) == text::shortest(x));
    REQUIRE(text::shortest_portable(-x) == text::shortest(-x));
  }
}

TEST_CASE("readable, percent and grouped write what printf writes in the C locale") {
  std::mt19937_64 random(20261202);
  std::vector<double> values{0.0, -0.0, 0.5, 1.5, 2.5, 0.05, 0.15, 0.25, 0.35, 1e-5, 1e-4, 9999999999.5,
                             99999.999995, 1e10, 123456789012.0, 1.77 + 0.28, 1e300, DBL_MAX, DBL_TRUE_MIN,
                             0.00095, 12345678.45, 0.29405};
  for (int k = 0; k < 100'000; ++k) {
    double x = 0;
    if (k % 2) {
      const std::uint64_t b = random();
      std::memcpy(&x, &b, sizeof x);
      if (!std::isfinite(x)) continue;
    } else {
      // Few digits, so that halfway cases come up.
      x = std::ldexp(static_cast<double>(random() % 2000001) - 1000000, static_cast<int>(random() % 40) - 20);
    }
    values.push_back(x);
  }
  for (const double x : values) {
    CAPTURE(x);
    REQUIRE(text::readable(x) == printed("%.10g", x));
    if (std::fabs(x) < 1e30) {
      REQUIRE(text::percent(x) == printed("%.1f %%", x * 100));
      std::string digits = printed("%.0f", x), expected;
      const std::size_t first = digits[0] == '-' ? 1 : 0;
      for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > first && (digits.size() - i) % 3 == 0) expected += ',';
        expected += digits[i];
      }
      REQUIRE(text::grouped(x) == expected);
    }
  }
}

TEST_CASE("four_figures rounds to four significant figures and drops trailing zeros (a speed's band)") {
  CHECK(text::four_figures(14.38194705040756) == "14.38");
  CHECK(text::four_figures(19.45792836231611) == "19.46");
  CHECK(text::four_figures(15) == "15");
  CHECK(text::four_figures(19.5) == "19.5");
  CHECK(text::four_figures(0) == "0");
  CHECK(text::four_figures(9.99996) == "10");
  CHECK(text::four_figures(999.96) == "1000");
  CHECK(text::four_figures(1000) == "1000");
  CHECK(text::four_figures(12345.6) == "12350");
  CHECK(text::four_figures(0.0123456) == "0.01235");
  CHECK(text::four_figures(-14.381) == "-14.38");
  CHECK(text::four_figures(1e-7) == "0.0000001");
}

TEST_CASE("a comma-decimal locale changes no number read or written") {
  const CommaLocale locale;
  MESSAGE("comma-decimal locale: " << (locale.name().empty() ? std::string("none on this host") : locale.name()));
  const auto list = parse_number_list("0.5,1,1,5", Field::tau);
  REQUIRE(list.ok());
  CHECK(list.value() == std::vector<double>{0.5, 1, 1, 5});
  const auto scalar = parse_number("2.5e-3", Field::rho);
  REQUIRE(scalar.ok());
  CHECK(scalar.value() == 0.0025);
  const auto count = parse_count("12.0", Field::M, 1, 100);
  REQUIRE(count.ok());
  CHECK(count.value() == 12);
  CHECK(decimal_value("0.5") == 0.5);
  CHECK(decimal_value_portable("0.5") == 0.5);
  // Past the trace reader's fast path (more than 18 digits).
  CHECK(json_detail::json_number_value("0.1234567890123456789012345") == 0.1234567890123456789012345);
  CHECK(text::shortest(0.5) == "0.5");
  CHECK(text::shortest_portable(1234.5) == "1234.5");
  CHECK(text::readable(1234.5) == "1234.5");
  CHECK(text::readable(2.5e-12) == "2.5e-12");
  CHECK(text::percent(0.2941) == "29.4 %");
  CHECK(text::grouped(2e6) == "2,000,000");
  CHECK(text::grouped_digits("18446744073709551615") == "18,446,744,073,709,551,615");
  CHECK(text::grouped_digits("-1234") == "-1,234");
  CHECK(text::grouped_digits("999") == "999");
}
