// Trace patterns: the dialect each pattern is checked against (with the
// character and the kind of each problem), what matches, the first group's
// text, and searches that stay linear on the patterns that make a
// backtracking engine take exponential time. Runs natively and in wasm; the
// native build also holds the matcher to RE2 (pattern_oracle_test.cpp).
#include <doctest/doctest.h>

#include <heteropipe/limits.hpp>

#include <string>

#include "trace/pattern.hpp"

using namespace heteropipe;
using trace_detail::Pattern;

namespace {

Pattern compiled(const std::string& pattern) {
  auto p = Pattern::compile(pattern, Field::compute_regex);
  REQUIRE_MESSAGE(p.ok(), pattern);
  return std::move(p).value();
}

bool found(const std::string& pattern, const std::string& text) { return compiled(pattern).found_in(text); }

std::string group(const std::string& pattern, const std::string& text) {
  const auto g = compiled(pattern).first_group(text);
  return g ? std::string(*g) : std::string("<none>");
}

}  // namespace

TEST_CASE("patterns: outside the dialect, the character and what is wrong there") {
  struct Case {
    const char* pattern;
    std::int64_t character;
    double what;
  };
  for (const Case c : {Case{"(", 0, kPatternSyntax}, Case{"ab(c", 2, kPatternSyntax}, Case{")", 0, kPatternSyntax},
                       Case{"a)", 1, kPatternSyntax}, Case{"[", 0, kPatternSyntax}, Case{"[b-a]", 2, kPatternSyntax},
                       Case{"*a", 0, kPatternSyntax}, Case{"a**", 2, kPatternSyntax}, Case{"a{2,1}", 1, kPatternSyntax},
                       Case{"a{", 1, kPatternSyntax}, Case{"a{x}", 1, kPatternSyntax}, Case{"}", 0, kPatternSyntax},
                       Case{"]", 0, kPatternSyntax}, Case{"\\", 0, kPatternSyntax}, Case{"(?<n>a)", 0, kPatternSyntax},
                       Case{"a|*", 2, kPatternSyntax}, Case{"[]", 1, kPatternSyntax}, Case{"[^]", 2, kPatternSyntax},
                       Case{"[\\^-=]", 3, kPatternSyntax}, Case{"[a-\\d]", 2, kPatternSyntax},
                       Case{"[[:alpha:]]", 1, kPatternSyntax}, Case{"^*", 1, kPatternSyntax},
                       Case{"\\b+", 2, kPatternSyntax}, Case{"a*??", 3, kPatternSyntax}, Case{"\\x41", 0, kPatternSyntax},
                       Case{"\\u0041", 0, kPatternSyntax}, Case{"\\cA", 0, kPatternSyntax}, Case{"\\01", 0, kPatternSyntax},
                       Case{"[\\b]", 1, kPatternSyntax}, Case{"(?i)a", 0, kPatternSyntax},
                       // Lookarounds and back-references, named apart: they were ECMAScript's.
                       Case{"(?=a)", 0, kPatternLookaround}, Case{"x(?!a)", 1, kPatternLookaround},
                       Case{"(?<=a)b", 0, kPatternLookaround}, Case{"(?<!a)b", 0, kPatternLookaround},
                       Case{"(a)\\1", 3, kPatternBackReference}, Case{"\\2(a)", 0, kPatternBackReference},
                       // A character, not a byte: 'é' is two bytes.
                       Case{"é(", 1, kPatternSyntax}, Case{"éé\\3", 2, kPatternBackReference}}) {
    CAPTURE(c.pattern);
    const auto p = Pattern::compile(c.pattern, Field::microbatch_regex);
    REQUIRE(!p.ok());
    CHECK(p.error().code == ErrorCode::bad_pattern);
    CHECK(p.error().field == Field::microbatch_regex);
    CHECK(p.error().token == c.pattern);
    CHECK(p.error().index == c.character);
    CHECK(p.error().value == c.what);
    CHECK(p.error().limit == 0);
  }
}

TEST_CASE("patterns: the dialect's forms compile") {
  for (const char* good : {"microbatch_(\\d+)", "^nccl.*(Send|Recv)", "gemm|conv", "a{2}b{1,}c{0,3}?",
                           "[A-Za-z_]+\\.[0-9]", "(?:fwd)+", "x*?y", "\\(literal\\)", "()", "a|", "|", "(|a)",
                           "[-a]", "[a-]", "[^\\]]", "[\\d\\s.]", "\\0", "\\bx\\B", "[\\n\\r\\t\\f\\v]", "a{0}",
                           "(?:){5000}", "é+"}) {
    CAPTURE(good);
    CHECK(Pattern::compile(good, Field::compute_regex).ok());
  }
}

TEST_CASE("patterns: a pattern over the states limit is refused where it grows too large") {
  const double limit = static_cast<double>(limits::kMaxPatternStates);
  for (const auto& item : {std::pair<std::string, std::int64_t>{"a{2001}", 1},
                                           {"(?:a{100}){100}", 10},
                                           {"x(?:abc){700,}", 8},
                                           {"[ab]{1000,2000}", 4},
                                           {"(?:){3000,}z", -1},  // fine: the empty group is no states
                                           {"a{99999999999999999999}", 1},
                                           {std::string(2500, 'a'), 2001}}) {
    // Named copies, not a structured binding: clang 14 cannot capture those in CAPTURE's lambda.
    const std::string& pattern = item.first;
    const std::int64_t character = item.second;
    CAPTURE(pattern);
    const auto p = Pattern::compile(pattern, Field::transfer_regex);
    if (character < 0) {
      CHECK(p.ok());
      continue;
    }
    REQUIRE(!p.ok());
    CHECK(p.error().value == kPatternTooLarge);
    CHECK(p.error().limit == limit);
    CHECK(p.error().index == character);
  }
  // Just within: a{1999} and its match state.
  REQUIRE(Pattern::compile("a{1999}", Field::compute_regex).ok());
  CHECK(compiled("a{1999}").states() == limits::kMaxPatternStates);
  // A nesting far deeper than any call stack would allow is read without recursion.
  const std::string deep = std::string(100000, '(') + "a" + std::string(100000, ')');
  CHECK(found(deep, "xay"));  // the first group's two saves; the others add no state
  CHECK(group(deep, "xay") == "a");
  const std::string plain_deep = [] {
    std::string s;
    for (int k = 0; k < 100000; ++k) s += "(?:";
    return s + "a" + std::string(100000, ')');
  }();
  CHECK(found(plain_deep, "xay"));
}

TEST_CASE("patterns: what matches") {
  CHECK(found("gemm", "volta_sgemm_128x64"));
  CHECK(!found("gemm", "conv2d"));
  CHECK(found("^nccl", "ncclKernel_SendRecv"));
  CHECK(!found("^nccl", "xncclKernel"));
  CHECK(found("Recv$", "ncclRecv"));
  CHECK(!found("Recv$", "ncclRecvX"));
  CHECK(found("a.c", "abc"));
  CHECK(!found("a.c", "a\nc"));
  CHECK(!found("a.c", "a\rc"));
  CHECK(found("\\bmm\\b", "a mm b"));
  CHECK(!found("\\bmm\\b", "gemm"));
  CHECK(found("\\Bmm", "gemm"));
  CHECK(found("[^a-z]", "abc1"));
  CHECK(!found("[^a-z]", "abc"));
  CHECK(found("\\s", "a\vb"));
  CHECK(found("^\\w+$", "Ab_9"));
  CHECK(!found("^\\w+$", "Ab-9"));
  CHECK(found("^a{2,3}$", "aaa"));
  CHECK(!found("^a{2,3}$", "aaaa"));
  CHECK(!found("^a{2,3}$", "a"));
  CHECK(found("^(?:ab){2,}$", "ababab"));
  CHECK(found("^$", ""));
  CHECK(found("", "anything"));
  CHECK(found("a|", "b"));
  CHECK(found("\\0", std::string("x\0y", 3)));
  CHECK(found("é", "caf\xc3\xa9"));
  CHECK(found("\\(x\\)", "f(x)"));
  CHECK(found("a\\.b", "a.b"));
  CHECK(!found("a\\.b", "axb"));
}

TEST_CASE("patterns: the first group of the leftmost match") {
  CHECK(group("microbatch_(\\d+)", "## microbatch_12 ##") == "12");
  CHECK(group("microbatch_(\\d+)", "microbatch_") == "<none>");
  CHECK(group("(a|ab)(c|bcd)", "abcd") == "a");            // earlier alternatives first
  CHECK(group("(a+)", "xaaay") == "aaa");                  // greedy
  CHECK(group("(a+?)", "xaaay") == "a");                   // lazy
  CHECK(group("x(a*)(a)", "xaaa") == "aa");
  CHECK(group("x(a*?)(a)", "xaaa") == "");
  CHECK(group("(\\d+)_(\\d+)", "7_8") == "7");             // the first group only
  CHECK(group("(?:mb)(\\d)", "mb3 mb4") == "3");           // the leftmost match
  CHECK(group("(b)|c", "c") == "<none>");                  // the group took no part
  CHECK(group("(?:(\\d)x)+", "1x2x3x") == "3");           // a repeated group keeps its last text
}

TEST_CASE("patterns: pathological patterns search long names in linear time") {
  // A backtracking engine takes time exponential (or high-degree polynomial)
  // in the name's length on each of these, so it would not finish before the
  // test presets' timeout; here each is a few steps per byte and state. How
  // fast is the benchmarks' business (docs/benchmarks.md), not this test's.
  const std::string xs(4096, 'x'), as(4096, 'a'), long_as(20000, 'a');
  struct Case {
    const char* pattern;
    const std::string* text;
    bool matches;
  };
  for (const Case c : {Case{"(x*)*z", &xs, false}, Case{"(x+x+)+y", &xs, false}, Case{"(a|a)*b", &as, false},
                       Case{"(a*)*$", &as, true}, Case{"(a|aa)+$", &as, true}, Case{"^(a?){64}a{64}$", &as, false},
                       Case{"(.*a){20}b", &as, false}, Case{"(a*)*b", &long_as, false},
                       Case{"(?:a|a?)+?c", &long_as, false}, Case{"(\\w+\\s?)+$", &long_as, true}}) {
    CAPTURE(std::string(c.pattern));
    CAPTURE(c.text->size());
    const Pattern p = compiled(c.pattern);
    CHECK(p.found_in(*c.text) == c.matches);
    CHECK(p.first_group(*c.text).has_value() == c.matches);
  }
}
