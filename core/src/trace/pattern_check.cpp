#include "pattern_check.hpp"

#include <cstddef>
#include <string_view>
#include <vector>

namespace heteropipe::trace_detail {
namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// A {n}, {n,} or {n,m} quantifier at pattern[i] ('{'); its end in `end`.
bool brace_quantifier(std::string_view p, std::size_t i, std::size_t& end) {
  std::size_t j = i + 1;
  long low = 0, high = -1;
  if (j >= p.size() || !digit(p[j])) return false;
  for (; j < p.size() && digit(p[j]); ++j) {
    if (low > 100000) return false;
    low = low * 10 + (p[j] - '0');
  }
  if (j < p.size() && p[j] == ',') {
    ++j;
    if (j < p.size() && digit(p[j])) {
      high = 0;
      for (; j < p.size() && digit(p[j]); ++j) {
        if (high > 100000) return false;
        high = high * 10 + (p[j] - '0');
      }
      if (high < low) return false;
    }
  }
  if (j >= p.size() || p[j] != '}') return false;
  end = j;
  return true;
}

// A bracket class starting at pattern[i] ('['); its closing ']' in `end`.
bool bracket_class(std::string_view p, std::size_t i, std::size_t& end) {
  std::size_t j = i + 1;
  if (j < p.size() && p[j] == '^') ++j;
  if (j < p.size() && p[j] == ']') return false;  // empty or ']'-first classes: left out
  int previous = -1;  // the last plain character, for ranges
  while (j < p.size() && p[j] != ']') {
    if (p[j] == '[') return false;  // [: :] and nested brackets: left out
    if (p[j] == '\\') {
      if (j + 1 >= p.size()) return false;
      const char e = p[j + 1];
      if (((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || digit(e)) &&
          std::string_view("dDsSwWnrtfv").find(e) == std::string_view::npos) {
        return false;
      }
      if (j + 2 < p.size() && p[j + 2] == '-' && j + 3 < p.size() && p[j + 3] != ']') return false;
      previous = -1;
      j += 2;
      continue;
    }
    if (p[j] == '-' && previous >= 0 && j + 1 < p.size() && p[j + 1] != ']') {
      if (p[j + 1] == '\\' || p[j + 1] == '[') return false;
      if (static_cast<unsigned char>(p[j + 1]) < previous) return false;
      previous = -1;
      j += 2;
      continue;
    }
    previous = static_cast<unsigned char>(p[j]);
    ++j;
  }
  if (j >= p.size()) return false;
  end = j;
  return true;
}

}  // namespace

bool pattern_is_safe(std::string_view p) {
  std::vector<bool> lookahead;  // per open group: whether it is (?= or (?!, which cannot repeat
  bool can_repeat = false, just_repeated = false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    std::size_t end = i;
    switch (c) {
      case '\\': {
        if (i + 1 >= p.size()) return false;
        const char e = p[++i];
        if (digit(e) && e != '0') return false;  // back-references: left out
        const bool letter = (e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z');
        // Classes, the control escapes and word boundaries; any other letter
        // (\x, \u, \c with their operands, or unknown ones) is left out.
        if (letter && std::string_view("dDsSwWbBnrtfv").find(e) == std::string_view::npos) return false;
        can_repeat = e != 'b' && e != 'B';  // an assertion cannot repeat
        just_repeated = false;
        continue;
      }
      case '[':
        if (!bracket_class(p, i, end)) return false;
        i = end;
        can_repeat = true;
        just_repeated = false;
        continue;
      case '(':
        if (i + 1 < p.size() && p[i + 1] == '?') {
          if (i + 2 >= p.size() || (p[i + 2] != ':' && p[i + 2] != '=' && p[i + 2] != '!')) return false;
          lookahead.push_back(p[i + 2] != ':');
          i += 2;
        } else {
          lookahead.push_back(false);
        }
        can_repeat = false;
        just_repeated = false;
        continue;
      case ')':
        if (lookahead.empty() || (i > 0 && p[i - 1] == '(')) return false;
        can_repeat = !lookahead.back();
        lookahead.pop_back();
        just_repeated = false;
        continue;
      case '*': case '+': case '?':
        if (c == '?' && just_repeated) {  // lazy
          just_repeated = false;
          can_repeat = false;
          continue;
        }
        if (!can_repeat) return false;
        can_repeat = false;
        just_repeated = true;
        continue;
      case '{':
        if (!can_repeat || !brace_quantifier(p, i, end)) return false;
        i = end;
        can_repeat = false;
        just_repeated = true;
        continue;
      case '}': case ']':
        return false;
      case '|':
      case '^':
      case '$':
        can_repeat = false;
        just_repeated = false;
        continue;
      default:
        can_repeat = true;
        just_repeated = false;
    }
  }
  return lookahead.empty();
}

}  // namespace heteropipe::trace_detail
