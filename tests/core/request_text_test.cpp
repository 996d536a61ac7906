// read_request: typed text to a checked request, one error per field.
#include <doctest/doctest.h>

#include <heteropipe/text/error_text.hpp>

#include "support.hpp"

using namespace heteropipe;

namespace {

std::vector<std::string> fields_of(const ReadRequest& read) {
  std::vector<std::string> fields;
  for (const Error& e : read.errors) fields.emplace_back(field_name(e.field));
  return fields;
}

}  // namespace

TEST_CASE("valid text becomes the request") {
  const ReadRequest read = read_request({"0.5，1，1，5", "0.2 0.1 0.3", "16", "0.8", std::string("42")});
  CHECK(read.errors.empty());
  CHECK(read.request.tau == std::vector<double>{0.5, 1, 1, 5});
  CHECK(read.request.d == std::vector<double>{0.2, 0.1, 0.3});
  CHECK(read.request.M == 16);
  CHECK(read.request.rho == 0.8);
  CHECK(read.request.T_real == 42.0);
}

TEST_CASE("defaults: M = 8, rho = 1, no T_real, no links") {
  RequestText text;
  text.tau = "1 2";
  const ReadRequest read = read_request(text);
  CHECK(read.errors.empty());
  CHECK(read.request.M == 8);
  CHECK(read.request.rho == 1);
  CHECK_FALSE(read.request.T_real.has_value());
  CHECK(read.request.d.empty());
}

TEST_CASE("every bad field gets one error, parse errors and range errors alike") {
  const ReadRequest read = read_request({"1,,2", "-1", "2.5", "abc", std::string("0")});
  CHECK(fields_of(read) == std::vector<std::string>{"tau", "d", "M", "rho", "T_real"});
  CHECK(read.errors[0].code == ErrorCode::empty_item);
  CHECK(read.errors[0].index == 1);
  CHECK(read.errors[1].code == ErrorCode::negative);  // judged against a stand-in tau of length 2
  CHECK(read.errors[2].code == ErrorCode::not_integer);
  CHECK(read.errors[3].code == ErrorCode::not_a_number);
  CHECK(read.errors[4].code == ErrorCode::not_positive);
}

TEST_CASE("a bad tau does not hide a d of the wrong length") {
  const ReadRequest read = read_request({"-1,2", "1,2,3", "8", "1", std::nullopt});
  REQUIRE(read.errors.size() == 2);
  CHECK(read.errors[0].code == ErrorCode::negative);
  CHECK(read.errors[0].index == 0);
  CHECK(read.errors[1].code == ErrorCode::wrong_length);
  CHECK(read.errors[1].value == 3);
}

TEST_CASE("blank scalars are empty, blank T_real text too") {
  const ReadRequest read = read_request({"1", "", " ", "", std::string("")});
  CHECK(fields_of(read) == std::vector<std::string>{"M", "rho", "T_real"});
  for (const Error& e : read.errors) CHECK(e.code == ErrorCode::empty);
}

TEST_CASE("a list item's range error quotes the item as typed, not the number it reads as") {
  const ReadRequest read = read_request({"1，２e15", "1e16", "8", "1", std::nullopt});
  REQUIRE(read.errors.size() == 2);
  CHECK(read.errors[0].code == ErrorCode::too_large);
  CHECK(read.errors[0].value == 2e15);
  CHECK(read.errors[0].token == "２e15");
  CHECK(text::describe(read.errors[0]) == "tau, item 2: must be at most 1e15 (got ２e15)");
  CHECK(text::describe(read.errors[1]) == "d, item 1: must be at most 1e15 (got 1e16)");
  const ReadRequest negative = read_request({"0.5 -0.50", "", "8", "1", std::nullopt});
  REQUIRE(negative.errors.size() == 1);
  CHECK(text::describe(negative.errors[0]) == "tau, item 2: must be >= 0 (got -0.50)");
  CHECK(list_item("1，２e15;3", 1) == "２e15");
  CHECK(list_item("1 2", 2).empty());
  CHECK(list_item("1 2", -1).empty());
}
