// The trace pattern matcher held to an independent one: RE2 (native builds
// only), on patterns generated from the dialect's grammar and on random
// strings of its characters, searched in random names. Both must agree on
// whether each name matches and on the first group's text. Draws come from
// the core's own Stream (test_random.hpp), so every run tests the same cases.
#include <doctest/doctest.h>

#include <re2/re2.h>

#include <cstdio>
#include <string>

#include "test_random.hpp"
#include "trace/pattern.hpp"

using namespace heteropipe;
using trace_detail::Pattern;

namespace {

// Draws from the tests' generator (the core's Stream), with the shapes the
// generators below need.
class Draws {
 public:
  explicit Draws(std::uint64_t seed) : r_(seed) {}
  std::uint64_t below(std::uint64_t n) { return r_() % n; }
  bool chance(std::uint64_t in) { return below(in) == 0; }
  char of(std::string_view set) { return set[below(set.size())]; }

 private:
  test::TestRandom r_;
};

// Names are drawn from these bytes: letters the patterns use, a digit or two,
// the separators of kernel names, a newline and a byte above ASCII.
constexpr std::string_view kNameBytes = "aabbcx1_- \n\xe9";
constexpr std::string_view kLiterals = "abcx1_- ";

std::string pattern_of(Draws& d, int depth);

std::string atom(Draws& d, int depth, bool& repeatable) {
  repeatable = true;
  switch (d.below(depth > 0 ? 12 : 9)) {
    case 0: case 1: case 2: return std::string(1, d.of(kLiterals));
    case 3: return ".";
    case 4: {
      static constexpr const char* escapes[] = {"\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\n", "\\-", "\\.", "(?:\\0)"};
      return escapes[d.below(10)];
    }
    case 5: {
      std::string c = d.chance(3) ? "[^" : "[";
      for (std::uint64_t k = 0, n = 1 + d.below(3); k < n; ++k) {
        switch (d.below(4)) {
          case 0: {
            char lo = d.of("abcx1"), hi = d.of("abcx1");
            if (hi < lo) std::swap(lo, hi);
            c += std::string{lo, '-', hi};
            break;
          }
          case 1: c += d.of("\\") == '\\' ? std::string("\\") + d.of("dDwWsSn") : ""; break;
          default: c += d.of("abcx_ "); break;
        }
      }
      return c + "]";
    }
    case 6: case 7: {
      repeatable = false;
      static constexpr const char* assertions[] = {"^", "$", "\\b", "\\B"};
      return assertions[d.below(4)];
    }
    case 8: return std::string(1, d.of(kLiterals)) + d.of(kLiterals);
    default: return (d.chance(2) ? "(" : "(?:") + pattern_of(d, depth - 1) + ")";
  }
}

std::string quantifier(Draws& d) {
  std::string q;
  switch (d.below(6)) {
    case 0: q = "*"; break;
    case 1: q = "+"; break;
    case 2: q = "?"; break;
    case 3: q = "{" + std::to_string(d.below(4)) + "}"; break;
    case 4: q = "{" + std::to_string(d.below(3)) + ",}"; break;
    default: {
      const auto low = d.below(3);
      q = "{" + std::to_string(low) + "," + std::to_string(low + d.below(3)) + "}";
    }
  }
  return d.chance(3) ? q + "?" : q;
}

std::string pattern_of(Draws& d, int depth) {
  std::string p;
  for (std::uint64_t branch = 0, branches = d.chance(3) ? 2 + d.below(2) : 1; branch < branches; ++branch) {
    if (branch > 0) p += "|";
    for (std::uint64_t k = 0, n = d.below(4) + (branch == 0); k < n; ++k) {
      bool repeatable = false;
      p += atom(d, depth, repeatable);
      if (repeatable && d.chance(3)) p += quantifier(d);
    }
  }
  return p;
}

// The same pattern in RE2's syntax: '.', \s and \S by the dialect's
// definitions, and escaped bytes spelled as \xHH.
std::string for_re2(const std::string& p) {
  std::string out;
  bool in_class = false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      const char e = p[++i];
      if (e == 's' || e == 'S') {
        const std::string set = e == 's' ? "[:space:]" : "[:^space:]";
        out += in_class ? set : "[" + set + "]";
      } else if (std::string_view("dDwWbBnrtfv").find(e) != std::string_view::npos) {
        out += std::string{'\\', e};
      } else {
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned char>(e == '0' ? '\0' : e));
        out += hex;
      }
      continue;
    }
    if (!in_class && c == '[') {
      in_class = true;
      out += c;
      if (i + 1 < p.size() && p[i + 1] == '^') out += p[++i];
      continue;
    }
    if (in_class && c == ']') in_class = false;
    out += (!in_class && c == '.') ? std::string("[^\\n\\r]") : std::string(1, c);
  }
  return out;
}

RE2::Options latin1() {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);
  o.set_log_errors(false);
  return o;
}

std::string name_of(Draws& d) {
  std::string name;
  for (std::uint64_t k = 0, n = d.below(24); k < n; ++k) name += d.of(kNameBytes);
  return name;
}

// Whether our matcher and RE2 agree on `pattern` (which our dialect takes)
// over `names` names; counts the matches seen.
void agree(const std::string& pattern, Draws& d, int names, int& matches) {
  CAPTURE(pattern);
  const auto ours = Pattern::compile(pattern, Field::compute_regex);
  REQUIRE(ours.ok());
  const std::string translated = for_re2(pattern);
  CAPTURE(translated);
  const RE2 oracle(translated, latin1());
  REQUIRE_MESSAGE(oracle.ok(), oracle.error());
  for (int k = 0; k < names; ++k) {
    const std::string name = name_of(d);
    CAPTURE(name);
    const bool found = ours.value().found_in(name);
    CHECK(found == RE2::PartialMatch(name, oracle));
    matches += found;
    if (oracle.NumberOfCapturingGroups() < 1) continue;
    re2::StringPiece group;
    if (!RE2::PartialMatch(name, oracle, &group)) continue;
    const auto our_group = ours.value().first_group(name);
    CHECK(our_group.has_value() == (group.data() != nullptr));
    if (our_group && group.data() != nullptr) {
      CHECK(our_group->data() - name.data() == group.data() - name.data());
      CHECK(our_group->size() == group.size());
    }
  }
}

}  // namespace

TEST_CASE("pattern oracle: generated patterns match as RE2 matches them") {
  Draws d(1);
  int matches = 0, searches = 0;
  for (int k = 0; k < 4000; ++k) {
    agree(pattern_of(d, 3), d, 25, matches);
    searches += 25;
  }
  // Both outcomes are well represented.
  CHECK(matches > searches / 10);
  CHECK(matches < searches * 9 / 10);
}

TEST_CASE("pattern oracle: any string of the dialect's characters we take, RE2 takes and matches alike") {
  const std::string alphabet = "abx1()[]{}*+?|^$\\-,0123:!=.dswbDSWB";
  Draws d(2);
  int taken = 0, matches = 0;
  for (int k = 0; k < 200000; ++k) {
    std::string pattern;
    for (std::uint64_t n = 1 + d.below(8); pattern.size() < n;) pattern += d.of(alphabet);
    if (!Pattern::compile(pattern, Field::compute_regex).ok()) continue;
    ++taken;
    agree(pattern, d, 4, matches);
  }
  CHECK(taken > 5000);
}
