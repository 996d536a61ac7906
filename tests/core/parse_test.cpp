// The shared number-list parser used by the CLI and the pages.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "heteropipe/text/error_text.hpp"
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

// Each text's first error is `code`, at the item and with the token given.
struct ItemError { const char* text; std::int64_t index; const char* token; };
void check_item_errors(ErrorCode code, std::initializer_list<ItemError> cases) {
  for (const ItemError& c : cases) {
    CAPTURE(c.text);
    const Error e = error_of(c.text);
    CHECK(e.code == code);
    CHECK(e.index == c.index);
    CHECK(e.token == c.token);
  }
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
  CHECK(parsed("0.5\xEF\xBC\x9B" "1;1; 5") == expected);                           // full-width semicolon
  CHECK(parsed("0.5\xE3\x80\x80" "1 1 5") == expected);                             // ideographic space
  CHECK(parsed("0.5,1,1,5,") == expected);
  CHECK(parsed("  0.5,1,1,5 ;  ") == expected);
}

TEST_CASE("a comma between digits that may be a decimal or thousands mark is refused, naming the pair") {
  // A list of commas alone is a list, as the CLI's --tau 1,2,3 always was.
  CHECK(parsed("1,2,3") == List{1, 2, 3});
  CHECK(parsed("0.5,1,1,5") == List{0.5, 1, 1, 5});
  CHECK(parsed("1, 2, 3") == List{1, 2, 3});
  CHECK(parsed("1,0") == List{1, 0});
  // Before, each of these read silently as another list: "0,5 1 1 5" as 5
  // stages [0, 5, 1, 1, 5], "1,000.5, 2" as [1, 0.5, 2].
  check_item_errors(ErrorCode::ambiguous_comma,
                    {{"0,5 1 1 5", 0, "0,5"}, {"0,5; 1; 1; 5", 0, "0,5"}, {"1; 2,5", 1, "2,5"},
                     {"1,000.5, 2", 0, "1,000.5"}, {"0,5\n1,25\n2", 0, "0,5"}, {"1,000", 0, "1,000"},
                     {"2,0,05", 1, "0,05"}, {"1\t2,5", 1, "2,5"}});
  CHECK(text::describe(error_of("0,5 1 1 5")) ==
        "tau, item 1: '0,5' is ambiguous: a comma between digits may be a decimal or thousands mark, not a "
        "separator; write numbers with a decimal point and no grouping (0.5, 1000), and separate items with a comma "
        "and a blank");
  // An error before it in the list is the one reported, as every item error is.
  CHECK(error_of("x 0,5 1").code == ErrorCode::not_a_number);
  // A quoted cell is one item, its comma inside it.
  CHECK(error_of("\"0,5\" 1").code == ErrorCode::not_a_number);
}

TEST_CASE("a time typed with its unit is has_unit at the number's item, naming both as typed") {
  // Before, "12 ms, 3 ms" was split at the blank and "ms" named as item 2.
  check_item_errors(ErrorCode::has_unit,
                    {{"12 ms, 3 ms", 0, "12 ms"}, {"12ms 3ms", 0, "12ms"}, {"1, 2 \xC2\xB5s", 1, "2 \xC2\xB5s"},
                     {"1; 2.5e-3 s", 1, "2.5e-3 s"}, {"1 2 3ns", 2, "3ns"}, {"\"4 us\"", 0, "\"4 us\""},
                     {"\xEF\xBC\x91\xEF\xBC\x92 ms", 0, "\xEF\xBC\x91\xEF\xBC\x92 ms"}});
  CHECK(text::describe(error_of("12 ms, 3 ms")) ==
        "tau, item 1: '12 ms' has a unit: type plain numbers, every time in the same unit");
  // A unit after a separator belongs to no number, and a word that is no unit is no number.
  CHECK(error_of("1, ms").code == ErrorCode::not_a_number);
  CHECK(error_of("1, ms").index == 1);
  CHECK(error_of("12 kg").code == ErrorCode::not_a_number);
  CHECK(error_of("12 kg").index == 1);
  CHECK(error_of("x ms").code == ErrorCode::not_a_number);
  CHECK(error_of("x ms").index == 0);
  // A single number alike.
  const auto t = parse_number(" 160 ms ", Field::T_real);
  REQUIRE(!t);
  CHECK(t.error().code == ErrorCode::has_unit);
  CHECK(t.error().token == "160 ms");
  CHECK(!parse_number("ms", Field::T_real));
  CHECK(parse_number("ms", Field::T_real).error().code == ErrorCode::not_a_number);
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
                          "\xEF\xBC\xA1"}) {  // full-width letter A
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

TEST_CASE("a number typed other than 0 that would read as 0 or a subnormal is too_small, quoted as typed") {
  // The smallest normal double, and the largest subnormal just below it.
  CHECK(limits::kMinNormalNumber == std::numeric_limits<double>::min());
  for (const char* typed : {"1e-400", "-1e-400", "1e-310", "4.9e-324", "2.2250738585072009e-308", "0.000001e-305",
                            "\xEF\xBC\x91" "e-400"}) {
    const Error e = error_of(std::string("1 ") + typed);
    CHECK(e.code == ErrorCode::too_small);
    CHECK(e.field == Field::tau);
    CHECK(e.index == 1);
    CHECK(e.token == typed);
    CHECK(e.limit == limits::kMinNormalNumber);
    const Error scalar = parse_number(typed, Field::rho).error();
    CHECK(scalar.code == ErrorCode::too_small);
    CHECK(scalar.index == kWholeField);
    CHECK(scalar.token == typed);
  }
  CHECK(text::describe(error_of("1 1e-400")) ==
        "tau, item 2: is too small to read (got 1e-400): a number other than 0 must be at least "
        "2.2250738585072014e-308 in size");
  // Zero in any spelling, and the smallest normal double itself, read as they are.
  CHECK(parsed("0 0.0e-400 -0e-999 0e400 2.2250738585072014e-308") == List{0, 0, 0, 0, limits::kMinNormalNumber});
  // A count is judged by its digits first: not a whole number.
  CHECK(parse_count("1e-400", Field::M, 1, limits::kMaxBatches).error().code == ErrorCode::not_integer);
}

TEST_CASE("a subnormal given as a double (a binding's float or buffer item) is the same too_small as typed") {
  // Python's Pipeline([1, 5e-324]) read the float as it was, and [5e-324] alone said "the largest stage
  // time must be at least 1e-15"; the bindings now ask subnormal_error, which gives the typed text's error.
  const double largest_subnormal = std::nextafter(limits::kMinNormalNumber, 0.0);
  for (double x : {5e-324, -5e-324, 1e-310, largest_subnormal}) {
    const auto e = subnormal_error(x, Field::tau, 1, "x");
    REQUIRE(e);
    CHECK(e->code == ErrorCode::too_small);
    CHECK(e->field == Field::tau);
    CHECK(e->index == 1);
    CHECK(e->token == "x");
    CHECK(e->limit == limits::kMinNormalNumber);
  }
  CHECK(text::describe(*subnormal_error(5e-324, Field::tau, 1, "5e-324")) == text::describe(error_of("1 5e-324")));
  for (double x : {0.0, -0.0, limits::kMinNormalNumber, -limits::kMinNormalNumber, 1.0,
                   std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    CHECK(!subnormal_error(x, Field::tau, 0, "x"));
  }
}

TEST_CASE("the core's own checks refuse a subnormal double in every list, at the place the CLI names") {
  // The npm module's and Python's list readers each judged it (request.cpp, sim_ops.cpp, inputs.cpp,
  // number_buffer.cpp); now every front end gets it from one place, with the same code, field and index.
  const auto too_small = [](const Error& e, Field field, std::int64_t index, double value) {
    CHECK(e.code == ErrorCode::too_small);
    CHECK(e.field == field);
    CHECK(e.index == index);
    CHECK(e.value == value);
    CHECK(e.token.empty());
    CHECK(e.limit == limits::kMinNormalNumber);
  };
  // tau before d, each before any other item check (a negative tau after it, a d of the wrong length).
  too_small(Pipeline::create({1, 5e-324, -1}, {}).error(), Field::tau, 1, 5e-324);
  too_small(Pipeline::create({1, 1}, {-5e-324}).error(), Field::d, 0, -5e-324);
  too_small(Pipeline::create({1, 1}, {1, 5e-324}).error(), Field::d, 1, 5e-324);
  CHECK(text::describe(Pipeline::create({1, 5e-324}, {}).error()) == text::describe(error_of("1 5e-324")));
  CHECK(Pipeline::create({1, 0, -0.0, limits::kMinNormalNumber}, {}).ok());

  const Pipeline p = Pipeline::create({1, 1, 1}, {}).value();
  const auto first = [&p](const sim::Options& o) {
    const auto errors = sim::option_errors(p, o);
    REQUIRE(errors.size() == 1);
    return errors[0];
  };
  sim::Options o;
  o.M = 2;
  o.buffers = std::vector<double>{1, 5e-324};
  too_small(first(o), Field::buffers, 1, 5e-324);
  CHECK(text::describe(first(o)).rfind("buffers, link 2: is too small to read (got 5e-324)", 0) == 0);
  o = sim::Options{};
  o.M = 2;
  o.service_matrix = std::vector<double>{1, 1, 1, 1, 5e-324, 1};
  too_small(first(o), Field::service_matrix, 1, 5e-324);
  CHECK(first(o).column == 1);
  o = sim::Options{};
  o.M = 2;
  o.link_matrix = std::vector<double>{1, 1, -5e-324, 1};
  too_small(first(o), Field::link_matrix, 1, -5e-324);
  CHECK(first(o).column == 0);
  o = sim::Options{};
  o.M = 2;
  o.service_samples = std::vector<sim::Empirical>{{{1}}, {{2, 5e-324}}, {{3}}};
  too_small(first(o), Field::service_samples, 1, 5e-324);
  CHECK(first(o).column == kWholeField);
  o.service_samples = std::vector<sim::Empirical>{{{1, 2}}, {{2, 3}}, {{3, 4}}};
  o.service_probabilities = {5e-324, 1};
  too_small(first(o), Field::service_probabilities, 0, 5e-324);
  too_small(sim::shared_link(5e-324, 2).error(), Field::shared, 2, 5e-324);
  CHECK(sim::shared_link(0, 0).value() == 0);
  too_small(stage_order_of({0, 5e-324, 1}).error(), Field::stage_order, 1, 5e-324);
}

TEST_CASE("rho and T_real given as a subnormal double are too_small, as typed, not read or not_positive") {
  // Python's analyze(rho=5e-324) and the module's {rho: 5e-324} were read; T_real -5e-324 said "must be > 0".
  const auto rho = check_rho(5e-324);
  REQUIRE(rho);
  CHECK(rho->code == ErrorCode::too_small);
  CHECK(rho->field == Field::rho);
  CHECK(rho->limit == limits::kMinNormalNumber);
  CHECK(text::describe(*rho) == text::describe(parse_number("5e-324", Field::rho).error()));
  for (double T : {5e-324, -5e-324, 1e-310}) {
    const auto e = check_T_real(T);
    REQUIRE(e);
    CHECK(e->code == ErrorCode::too_small);
    CHECK(e->field == Field::T_real);
    CHECK(e->value == T);
  }
  CHECK(text::describe(*check_T_real(-5e-324)) ==
        "T_real: is too small to read (got -5e-324): a number other than 0 must be at least 2.2250738585072014e-308 "
        "in size");
  CHECK(!check_rho(0.0));
  CHECK(!check_rho(limits::kMinNormalNumber));
  CHECK(!check_T_real(limits::kMinNormalNumber));
  CHECK(check_T_real(0.0)->code == ErrorCode::not_positive);
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

TEST_CASE("full-width digits, signs, period and e read as their ASCII forms (NFKC)") {
  // １.１３，２.９０ ２.６２
  CHECK(parsed("\xEF\xBC\x91\xEF\xBC\x8E\xEF\xBC\x91\xEF\xBC\x93\xEF\xBC\x8C\xEF\xBC\x92.90 2.62") ==
        List{1.13, 2.90, 2.62});
  CHECK(parse_number("\xEF\xBC\x8D\xEF\xBC\x95", Field::rho).value() == -5);          // －５
  CHECK(parse_number("\xEF\xBC\x91\xEF\xBD\x85\xEF\xBC\x93", Field::T_real).value() == 1000);  // １ｅ３
  const Error e = error_of("1 \xEF\xBC\x91x");  // １x: the token stays as typed
  CHECK(e.code == ErrorCode::not_a_number);
  CHECK(e.token == "\xEF\xBC\x91x");
}

TEST_CASE("Unicode white space separates items and is trimmed from scalars on both sides") {
  CHECK(parsed("1\xC2\xA0" "2\xE2\x80\x83" "3\v4\f5") == List{1, 2, 3, 4, 5});
  for (const char* typed : {"16\xE3\x80\x80", "\xE3\x80\x80" "16", " 16\v", "\xC2\xA0" "16\xE2\x80\xAF"}) {
    CAPTURE(typed);
    CHECK(parse_number(typed, Field::M).value() == 16);
    CHECK(parse_count(typed, Field::M, 1, 9007199254740992.0).value() == 16);
  }
  CHECK(trim_blanks("\xE3\x80\x80 x y\t") == "x y");
  CHECK(trim_blanks(" \xE3\x80\x80 ").empty());
}

TEST_CASE("counts are judged from their digits, before any rounding") {
  const double high = 9007199254740992.0;  // 2^53
  const auto count = [&](const char* text) { return parse_count(text, Field::M, 1, high); };
  CHECK(count("9007199254740992").value() == high);
  CHECK(count("9.007199254740992e15").value() == high);
  CHECK(count("2.5e1").value() == 25);
  CHECK(count("1000e-3").value() == 1);
  CHECK(count("00012.000").value() == 12);
  const auto check = [&](const char* text, ErrorCode code, double limit) {
    CAPTURE(text);
    const auto r = count(text);
    REQUIRE_FALSE(r.ok());
    CHECK(error_code_name(r.error().code) == error_code_name(code));
    CHECK(r.error().limit == limit);
    CHECK(r.error().token == text);
  };
  check("9007199254740993", ErrorCode::out_of_range, high);
  check("9007199254740994", ErrorCode::out_of_range, high);
  check("90071992547409921", ErrorCode::out_of_range, high);
  check("1e300", ErrorCode::out_of_range, high);
  check("1e400", ErrorCode::out_of_range, high);  // as 1e300: it said "at most", 1e300 "between"
  check("9007199254740992.5", ErrorCode::not_integer, 0);
  check("0.99999999999999999", ErrorCode::not_integer, 0);
  check("1e-400", ErrorCode::not_integer, 0);
  check("2.5", ErrorCode::not_integer, 0);
  check("0", ErrorCode::out_of_range, 1);
  check("-3", ErrorCode::out_of_range, 1);
  check("-0", ErrorCode::out_of_range, 1);
  CHECK(count("1e99999999999999999999").error().code == ErrorCode::out_of_range);
  CHECK(count("x").error().code == ErrorCode::not_a_number);
  CHECK(count(" ").error().code == ErrorCode::empty);
}

TEST_CASE("a list past kMaxStages items is refused by its count, before any item is converted") {
  // One item past the limit, the first of them no number: the count is what is reported, so no
  // item was read before it (reading all ten million first took seconds in the module).
  std::string text = "x";
  text.reserve(static_cast<std::size_t>(limits::kMaxStages) * 2 + 2);
  for (std::int64_t k = 0; k < limits::kMaxStages; ++k) text += ",1";
  Error e = error_of(text);
  CHECK(e.code == ErrorCode::too_many);
  CHECK(e.field == Field::tau);
  CHECK(e.limit == static_cast<double>(limits::kMaxStages));
  // Exactly at the limit, the items are read: the bad one is named.
  text.resize(text.size() - 2);
  e = error_of(text);
  CHECK(e.code == ErrorCode::not_a_number);
  CHECK(e.index == 0);
  // Blanks and full-width separators count as the parser reads them: "1\u30011 1" is three items.
  CHECK(parsed("1\xE3\x80\x81" "1 1").size() == 3);
}

TEST_CASE("a cell in double quotes (RFC 4180) reads as its content; an error quotes it as typed") {
  CHECK(parsed("\"1.5\",\"2.0\"") == List{1.5, 2.0});
  CHECK(parsed("\"1.5\";2 \"3\"") == List{1.5, 2, 3});
  // A separator inside the quotes belongs to the cell: one item, and no number (no decimal comma).
  Error e = error_of("1,\"1,5\",2");
  CHECK(e.code == ErrorCode::not_a_number);
  CHECK(e.index == 1);
  CHECK(e.token == "\"1,5\"");
  // "" is an escaped quote inside the cell: its content 1"5 is no number.
  e = error_of("\"1\"\"5\"");
  CHECK(e.code == ErrorCode::not_a_number);
  CHECK(e.token == "\"1\"\"5\"");
  // An empty quoted cell is no number, a quote left open is none either; the limits stay as they are.
  CHECK(error_of("\"\",1").code == ErrorCode::not_a_number);
  CHECK(error_of("\"1").token == "\"1");
  e = error_of("\"1e400\"");
  CHECK(e.code == ErrorCode::too_large);
  CHECK(e.token == "\"1e400\"");
  CHECK(e.limit == limits::kMaxValue);
  CHECK(parse_number_list_or_inf("\"inf\",1", Field::buffers).value() == List{INFINITY, 1});
}

TEST_CASE("a UTF-8 byte-order mark before typed list text is skipped, as a file's is") {
  CHECK(parsed("\xEF\xBB\xBF" "1,2") == List{1, 2});
  CHECK(parsed("\xEF\xBB\xBF") == List{});
  CHECK(list_item("\xEF\xBB\xBF" "1,x", 1) == "x");
  // Only at the start: a mark between items is no number.
  CHECK(error_of("1,\xEF\xBB\xBF" "2").code == ErrorCode::not_a_number);
}

TEST_CASE("a UTF-8 byte-order mark before a typed number or count is skipped too") {
  CHECK(parse_number("\xEF\xBB\xBF" "2.5", Field::rho).value() == 2.5);
  CHECK(parse_count("\xEF\xBB\xBF" "8", Field::M, limits::kMinBatches, limits::kMaxBatches).value() == 8);
  const Error e = parse_count("\xEF\xBB\xBF" "8.5", Field::M, limits::kMinBatches, limits::kMaxBatches).error();
  CHECK(e.code == ErrorCode::not_integer);
  CHECK(e.token == "8.5");
}

TEST_CASE("a typed name is read as a typed number is: the blanks around it and a byte-order mark before it are not its") {
  // --reps ' 5' was read while --links ' serial' was refused.
  CHECK(parse_count(" 5", Field::reps, 1, 10).value() == 5);
  CHECK(sim::link_mode_from_name(" serial").value() == sim::LinkMode::serial);
  CHECK(sim::link_mode_from_name("blocking\t\n").value() == sim::LinkMode::blocking);
  CHECK(sim::link_mode_from_name("\xEF\xBB\xBF" "async").value() == sim::LinkMode::async);
  CHECK(sim::link_mode_from_name("\xE3\x80\x80" "delay").value() == sim::LinkMode::async);  // an ideographic space
  CHECK(time_unit_from_name(" us").value() == TimeUnit::us);
  CHECK(trace_stat_from_name("p50 ").value() == TraceStat::p50);
  CHECK(objective_from_name(" throughput ").value() == Objective::throughput);
  CHECK(device_order_from_name(" search").value() == DeviceOrder::search);
  CHECK(phase_from_name("prefill ").value() == Phase::prefill);
  CHECK(regime_from_name(" blocking") == Regime::blocking);
  // A blank inside a name is the name's, and an unknown one is quoted without the blanks around it.
  const Error e = sim::link_mode_from_name(" se rial ").error();
  CHECK(e.code == ErrorCode::unknown_name);
  CHECK(e.token == "se rial");
  CHECK(!sim::link_mode_from_name("").ok());
  CHECK(!sim::link_mode_from_name("   ").ok());
}

TEST_CASE("a number past the double range is refused as its field refuses any number that far out") {
  // -1e400 said "must be at most 1e15" (tau, rho, T_real) or "at most 2^53" (M).
  CHECK(text::describe(parse_number_list("1, -1e400", Field::tau).error()) == "tau, item 2: must be >= 0 (got -1e400)");
  CHECK(text::describe(parse_number("-1e400", Field::T_real).error()) == "T_real: must be > 0 (got -1e400)");
  CHECK(text::describe(parse_number("-1e400", Field::M).error()) == "M: must be between 1 and 2^53 (got -1e400)");
  CHECK(text::describe(parse_number("-1e400", Field::rho).error()) == "rho: must be between 0 and 1 (got -1e400)");
  CHECK(text::describe(parse_number("1e400", Field::rho).error()) == "rho: must be between 0 and 1 (got 1e400)");
  CHECK(text::describe(parse_number("1e400", Field::tau).error()) == "tau: must be at most 1e15 (got 1e400)");
  const Error below = parse_count("-1e400", Field::M, limits::kMinBatches, limits::kMaxBatches).error();
  CHECK(below.code == ErrorCode::out_of_range);
  CHECK(below.limit == limits::kMinBatches);
  CHECK(text::describe(below) == "M: must be between 1 and 2^53 (got -1e400)");
  const Error above = parse_count("\xEF\xBC\x91" "e400", Field::reps, 1, limits::kMaxReps).error();  // a full-width 1
  CHECK(above.code == ErrorCode::out_of_range);
  CHECK(above.limit == limits::kMaxReps);
  CHECK(text::describe(above) == "reps: must be between 1 and 1,000,000 (got \xEF\xBC\x91" "e400)");
  // Worded as a count far out inside the range is: 1e400 said "at most 2^53" beside 1e20's "between".
  for (const char* far : {"1e400", "-1e400"}) {
    const Error e = parse_count(far, Field::M, limits::kMinBatches, limits::kMaxBatches).error();
    const char* inside = far[0] == '-' ? "-1e20" : "1e20";
    const Error near = parse_count(inside, Field::M, limits::kMinBatches, limits::kMaxBatches).error();
    CHECK(e.code == near.code);
    CHECK(e.limit == near.limit);
  }
  CHECK(parse_count("\xEF\xBC\x8D" "1e400", Field::seed, 0, limits::kMaxBatches).error().limit == 0);  // a full-width minus
}
