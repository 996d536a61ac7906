// The English layer: every error's one sentence, the limits it quotes (taken
// from limits.hpp), and how numbers and typed text are written.
#include <doctest/doctest.h>

#include <heteropipe/heteropipe.hpp>
#include <heteropipe/text/error_text.hpp>
#include <heteropipe/text/input_text.hpp>
#include <heteropipe/text/numbers.hpp>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>

using namespace heteropipe;
using text::describe;

namespace {

std::string message_of(AnalysisRequest request) {
  auto result = analyze(std::move(request));
  REQUIRE_FALSE(result.ok());
  return describe(result.error());
}

std::string message_of_text(RequestText typed) {
  const ReadRequest read = read_request(typed);
  REQUIRE_FALSE(read.errors.empty());
  return describe(read.errors.front());
}

}  // namespace

TEST_CASE("every error code has its sentence, with the limit it broke") {
  CHECK(message_of({{}, {}, 8, 1, {}}) == "tau: needs at least one value");
  CHECK(message_of({{1, -1}, {}, 8, 1, {}}) == "tau, item 2: must be >= 0 (got -1)");
  CHECK(message_of({{0, 0}, {}, 8, 1, {}}) == "tau: at least one stage time must be > 0");
  CHECK(message_of({{1e-20}, {}, 8, 1, {}}) ==
        "tau: the largest stage time must be at least 1e-15 (got 1e-20)");
  CHECK(message_of({{1, 2}, {2e15}, 8, 1, {}}) == "d, item 1: must be at most 1e15 (got 2e+15)");
  CHECK(message_of({{1, 2, 3, 4}, {1, 2}, 8, 1, {}}) ==
        "d: needs S-1 = 3 link latencies, one per link, or none (got 2)");
  CHECK(message_of({{1}, {}, 2.5, 1, {}}) == "M: must be a whole number (got 2.5)");
  CHECK(message_of({{1}, {}, 0, 1, {}}) == "M: must be between 1 and 2^53 (got 0)");
  CHECK(message_of({{1}, {}, 8, 1.5, {}}) == "rho: must be between 0 and 1 (got 1.5)");
  CHECK(message_of({{1}, {}, 8, 1, 0.0}) == "T_real: must be > 0 (got 0)");
  CHECK(message_of({{1}, {}, 8, 1, 2e15}) == "T_real: must be at most 1e15 (got 2e+15)");
  CHECK(message_of_text({"1,,2", "", "8", "1", {}}) == "tau, item 2: empty item between separators");
  CHECK(message_of_text({"1 0x10", "", "8", "1", {}}) == "tau, item 2: '0x10' is not a number");
  CHECK(message_of_text({"1", "", "", "1", {}}) == "M: is empty");
  CHECK(message_of_text({"1 nan", "", "8", "1", {}}) == "tau, item 2: 'nan' is not a number");
  CHECK(message_of_text({"1 1e400", "", "8", "1", {}}) == "tau, item 2: must be at most 1e15 (got 1e400)");
  CHECK(message_of_text({"1", "", "1e400", "1", {}}) == "M: must be between 1 and 2^53 (got 1e400)");

  const auto cells = timeline(Pipeline::create({1, 2}).value(), 2e6, Regime::async);
  REQUIRE_FALSE(cells.ok());
  CHECK(cells.error().limit == limits::kMaxTimelineCells);
  CHECK(describe(cells.error()) == "M: M x S = 4,000,000 cells is over the limit of 2,000,000");

  Error too_many{ErrorCode::too_many, Field::tau, kWholeField, 2e7, {}, static_cast<double>(limits::kMaxStages)};
  CHECK(describe(too_many) == "tau: at most 10,000,000 values");
  Error too_long{ErrorCode::too_long, Field::d, kWholeField, 3.6e8, {}, limits::kMaxTextBytes};
  CHECK(describe(too_long) == "d: at most 134,217,728 bytes of text (got 360,000,000)");
  Error memory{ErrorCode::out_of_memory, Field::tau, kWholeField, 3e9};
  CHECK(describe(memory) == "tau: not enough memory for this request");
  Error headroom{ErrorCode::no_overlap_headroom, Field::T_real};
  CHECK(describe(headroom) == "T_real: no overlap headroom: T_block equals T_async, so the overlap ratio is undefined");
  Error not_a_list{ErrorCode::not_a_number, Field::tau, kWholeField, 0, "42"};
  CHECK(describe(not_a_list) == "tau: must be a list of numbers or a text list like '1, 2.5, 3' (got 42)");
}

TEST_CASE("errors carry the limit they broke") {
  CHECK(analyze({{1, 2e15}, {}, 8, 1, {}}).error().limit == limits::kMaxValue);
  CHECK(analyze({{1e-20}, {}, 8, 1, {}}).error().limit == limits::kMinStageTime);
  CHECK(analyze({{1, 2, 3}, {1}, 8, 1, {}}).error().limit == 2);  // the expected count, S-1
  CHECK(analyze({{1}, {}, 0, 1, {}}).error().limit == limits::kMinBatches);
  CHECK(analyze({{1}, {}, 8, -0.5, {}}).error().limit == limits::kMinRho);
  CHECK(analyze({{1}, {}, 8, 2, {}}).error().limit == limits::kMaxRho);
}

TEST_CASE("typed text is echoed safely: control characters escaped, long tokens cut") {
  CHECK(text::quoted("0.5\r\nerror: fake") == "0.5\\u000d\\u000aerror: fake");
  CHECK(text::quoted("\x1b[31mred") == "\\u001b[31mred");
  CHECK(text::quoted("8\v") == "8\\u000b");
  CHECK(text::quoted(std::string("1\0002", 3)) == "1\\u00002");
  CHECK(text::quoted("\xE2\x80\x8B") == "\\u200b");           // zero-width space
  CHECK(text::quoted("1\xED\xA0\x80") == "1\\ud800");          // a lone surrogate, as Python passes it
  CHECK(text::quoted("\xEF\xBC\x91.5") == "\xEF\xBC\x91.5");  // a visible full-width digit stays
  // Overlong forms and values past U+10FFFF are no UTF-8: each byte escaped, never
  // copied (C1 81 made the message invalid UTF-8) nor read as what it spells (C0 80: NUL).
  CHECK(text::quoted("1\xC1\x81") == "1\\u00c1\\u0081");
  CHECK(text::quoted("\xE0\x80\x80") == "\\u00e0\\u0080\\u0080");
  CHECK(text::quoted("\xF4\x90\x80\x80") == "\\u00f4\\u0090\\u0080\\u0080");
  CHECK(text::quoted("\xF0\x9F\x98\x80") == "\xF0\x9F\x98\x80");  // U+1F600 stays as typed
  const std::string long_token(131'072, '7');
  const std::string cut = text::quoted(long_token);
  CHECK(cut == std::string(text::kMaxQuoted, '7') + "\u2026");
  Error forged{ErrorCode::not_a_number, Field::rho, kWholeField, 0, "0.5\r\nerror: fake"};
  CHECK(describe(forged).find('\n') == std::string::npos);
}

TEST_CASE("limits are written as people write them") {
  CHECK(text::bound(limits::kMaxBatches) == "2^53");
  CHECK(text::bound(limits::kMaxValue) == "1e15");
  CHECK(text::bound(limits::kMinStageTime) == "1e-15");
  CHECK(text::bound(static_cast<double>(limits::kMaxStages)) == "10,000,000");
  CHECK(text::bound(limits::kMaxStreamWork) == "4,000,000,000");
  CHECK(text::bound(0) == "0");
  CHECK(text::bound(1) == "1");
  // Not 1e-09 (std::to_chars pads the exponent), nor 1e-04 for a tenth of a thousandth.
  CHECK(text::bound(limits::kMinCv) == "1e-9");
  CHECK(text::bound(1e-4) == "0.0001");
  CHECK(text::bound(limits::kMemoryWarningFraction) == "0.95");
  CHECK(text::bound(1.5e-7) == "1.5e-7");
  CHECK(text::bound(2.5e13) == "2.5e13");
}

TEST_CASE("shortest text that reads back to the same double, on every build") {
  const std::pair<double, const char*> known[] = {
      {0.0, "0"}, {-0.0, "-0"}, {0.1, "0.1"}, {100.0, "100"}, {1e15, "1e+15"}, {2e15, "2e+15"},
      {1e16, "1e+16"}, {123456789.0, "123456789"}, {1e-5, "1e-05"}, {0.0001, "1e-04"}, {0.001, "0.001"}, {1002787546051120640.0, "1002787546051120640"}, {1.13, "1.13"},
      {0.30000000000000004, "0.30000000000000004"}, {5e-324, "5e-324"},
      {1.7976931348623157e308, "1.7976931348623157e+308"}, {9007199254740992.0, "9007199254740992"},
      {-2.5, "-2.5"}};
  for (const auto& entry : known) {
    const double x = entry.first;
    CAPTURE(x);
    CHECK(text::shortest(x) == entry.second);
    CHECK(text::shortest_portable(x) == entry.second);
  }
}

#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
// Only where the library has the floating-point std::to_chars to compare with
// (not the wasm toolchain's, which is why shortest_portable exists).
TEST_CASE("the portable shortest form equals std::to_chars on random doubles") {
  const auto to_chars_text = [](double x) {
    char buffer[64];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, x);
    return std::string(buffer, r.ptr);
  };
  std::mt19937_64 random(20261130);
  for (int i = 0; i < 200'000; ++i) {
    std::uint64_t bits = random();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (!std::isfinite(x)) continue;
    if (i % 2) x = std::ldexp(static_cast<double>(random() % 100000), static_cast<int>(random() % 80) - 40);
    CAPTURE(x);
    REQUIRE(text::shortest_portable(x) == to_chars_text(x));
  }
}
#endif

TEST_CASE("describe_detail is the sentence without the field's name, and describe puts it back") {
  namespace hp = heteropipe;
  const hp::Error item{hp::ErrorCode::negative, hp::Field::tau, 1, -1.0, {}};
  CHECK(hp::text::describe_detail(item) == "item 2: must be >= 0 (got -1)");
  CHECK(hp::text::describe(item) == "tau, " + hp::text::describe_detail(item));
  const hp::Error whole{hp::ErrorCode::not_integer, hp::Field::seed, hp::kWholeField, 1.5, {}};
  CHECK(hp::text::describe_detail(whole) == "must be a whole number (got 1.5)");
  CHECK(hp::text::describe(whole) == "seed: " + hp::text::describe_detail(whole));
  const hp::Error stage{hp::ErrorCode::not_a_number, hp::Field::service, 2, 0.0, "x"};
  CHECK(hp::text::describe_detail(stage) == "stage 3: 'x' is not a number");
  // A sentence that names its own place stays whole.
  const hp::Error typo{hp::ErrorCode::unknown_key, hp::Field::memory, 1, 1.0, "memroy"};
  CHECK(hp::text::describe_detail(typo) == hp::text::describe(typo));
}

TEST_CASE("a count's range is worded from the bound its reader takes") {
  // profiler_step 0 (ProfilerStep#0) and a model's expert_count 0 are read, but -1 said "between 1 and 2^53".
  CHECK(text::describe(profiler_step_of_text("-1").error()) == "profiler_step: must be between 0 and 2^53 (got -1)");
  CHECK(profiler_step_of_text("0").value() == 0);
  CHECK(text::describe(profiler_step_of_text("1e400").error()) ==
        "profiler_step: must be between 0 and 2^53 (got 1e400)");
  for (Field fact : {Field::n_embd, Field::n_head, Field::n_head_kv, Field::context_length, Field::expert_count,
                     Field::expert_used_count, Field::key_length, Field::value_length, Field::feed_forward_length,
                     Field::vocab_size, Field::sliding_window}) {
    const auto low = parse_count("-1", fact, 0, limits::kMaxModelCount);
    CHECK(text::describe(low.error()) == std::string(field_name(fact)) + ": must be between 0 and 2^53 (got -1)");
    CHECK(parse_count("0", fact, 0, limits::kMaxModelCount).value() == 0);
  }
  // M past the double range, by the one-number parser too, is out of its range as 1e20 is.
  const Error M = parse_number("1e999", Field::M).error();
  CHECK(M.code == ErrorCode::out_of_range);
  CHECK(text::describe(M) == "M: must be between 1 and 2^53 (got 1e999)");
}

TEST_CASE("text: the CLI's sentences about its inputs and output are written here, once") {
  // They were written in cli/src (read_file.cpp, gguf_file.cpp, and "could not write the output" in five commands).
  CHECK(text::input_label("-") == "standard input");
  CHECK(text::input_label("") == "(an empty file name)");
  CHECK(text::input_label("a.json") == "a.json");
  CHECK(text::cannot_read(text::input_label("docs"), text::read_reason(EISDIR)) == "docs: cannot be read (is a directory)");
  CHECK(text::read_reason(ENOENT) == "no such file");
  CHECK(text::read_reason(EACCES) == text::read_reason(EPERM));
  CHECK(text::read_reason(EACCES) == "permission denied");
  CHECK(text::read_reason(EIO) == "input/output error");
  CHECK(text::read_reason(ENOSPC) == "system error " + std::to_string(ENOSPC));
  CHECK(text::cannot_read("m.gguf", text::kNotRegularFile) == "m.gguf: cannot be read (not a regular file)");
  CHECK(text::too_large_input("standard input", 134217728) ==
        "standard input: more than 134,217,728 bytes, the most this input may hold");
  CHECK(text::timeline_choice("sideways") == "--timeline: must be async or blocking (got 'sideways')");
  CHECK(std::string(text::kCannotWriteOutput) == "could not write the output");
  CHECK(std::string(text::kTauRequired) == "--tau is required");
}
