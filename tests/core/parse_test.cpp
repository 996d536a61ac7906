// The shared number-list parser used by the CLI and the pages.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support.hpp"

using namespace heteropipe;
using List = std::vector<double>;

namespace {

List parsed(std::string_view text) {
  auto r = parse_number_list(text, Field::tau);
  REQUIRE_MESSAGE(r.ok(), "text: " << std::string(text));
  return r.value();
}

Error error_of(std::string_view text, Field field = Field::tau) {
  auto r = parse_number_list(text, field);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

}  // namespace

TEST_CASE("separators: commas, blanks, semicolons, Chinese commas, trailing") {
  const List expected{0.5, 1, 1, 5};
  CHECK(parsed("0.5,1,1,5") == expected);
  CHECK(parsed("0.5 1 1 5") == expected);
  CHECK(parsed("0.5\t1\n1\r\n5") == expected);
  CHECK(parsed("0.5, 1 ,1 ,  5") == expected);
  CHECK(parsed("0.5;1;1;5") == expected);
  CHECK(parsed("0.5\xEF\xBC\x8C" "1\xEF\xBC\x8C" "1\xEF\xBC\x8C" "5") == expected);  // 0.5，1，1，5
  CHECK(parsed("0.5\xE3\x80\x81" "1\xE3\x80\x81" "1\xE3\x80\x81" "5") == expected);  // 0.5、1、1、5
  CHECK(parsed("0.5\xEF\xBC\x9B" "1;1,5") == expected);                            // full-width semicolon
  CHECK(parsed("0.5\xE3\x80\x80" "1 1 5") == expected);                             // ideographic space
  CHECK(parsed("0.5,1,1,5,") == expected);
  CHECK(parsed("  0.5,1,1,5 ;  ") == expected);
}

TEST_CASE("number forms: signs, exponents, leading and trailing dots") {
  CHECK(parsed("1e3 2.5E-1 +4 .5 5. -0") == List{1000, 0.25, 4, 0.5, 5, 0});
  CHECK(parsed("") == List{});
  CHECK(parsed("   \t ") == List{});
  CHECK(parsed("0.1") == List{0.1});  // correctly rounded
  CHECK(parsed("-3") == List{-3});    // range is the pipeline's business
}

TEST_CASE("empty items are rejected with their position") {
  Error e = error_of("1,,2");
  CHECK(e.code == ErrorCode::empty_item);
  CHECK(e.index == 1);
  e = error_of(",1");
  CHECK(e.code == ErrorCode::empty_item);
  CHECK(e.index == 0);
  e = error_of("1, ,2", Field::d);
  CHECK(e.code == ErrorCode::empty_item);
  CHECK(e.field == Field::d);
  CHECK(e.index == 1);
  CHECK(error_of("1,2,,").index == 2);
  CHECK(error_of("1\xEF\xBC\x8C\xEF\xBC\x8C" "2").code == ErrorCode::empty_item);
}

TEST_CASE("non-numbers are rejected with their position and text") {
  for (const char* bad : {"1e", "0x10", "abc", "nan", "inf", "-inf", "1.2.3", "e5", "+", ".", "1e+", "--1", "1_000",
                          "\xEF\xBC\x91"}) {  // full-width digit one
    CAPTURE(bad);
    const std::string text = std::string("2 3 ") + bad;
    const Error e = error_of(text);
    CHECK(e.code == ErrorCode::not_a_number);
    CHECK(e.index == 2);
    CHECK(e.token == bad);
  }
}

TEST_CASE("overflowing numbers are too large, not infinite") {
  const Error e = error_of("1 1e400");
  CHECK(e.code == ErrorCode::too_large);
  CHECK(e.index == 1);
  CHECK(e.token == "1e400");
}

TEST_CASE("parse_number reads one scalar") {
  CHECK(parse_number(" 16 ", Field::M).value() == 16);
  CHECK(parse_number("0.8", Field::rho).value() == 0.8);
  CHECK(parse_number("", Field::M).error().code == ErrorCode::empty);
  const Error e = parse_number("12abc", Field::T_real).error();
  CHECK(e.code == ErrorCode::not_a_number);
  CHECK(e.field == Field::T_real);
  CHECK(e.index == kWholeField);
  CHECK(e.token == "12abc");
  CHECK(parse_number("1 2", Field::M).error().code == ErrorCode::not_a_number);
}
