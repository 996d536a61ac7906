#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"

// Trace patterns (--compute, --transfer, --microbatch): a small regular
// expression dialect, docs/traces.md#patterns, compiled to a Pike VM. Matching
// keeps one thread per program state and steps them over the text together,
// so a search takes time linear in the text's length (text bytes x program
// size, the program bounded by limits::kMaxPatternStates), whatever the
// pattern; nothing recurses. The same code runs natively and in WebAssembly,
// so every interface matches alike by construction.
namespace heteropipe::trace_detail {

class Pattern {
 public:
  // A pattern of the dialect, else bad_pattern on `field`: index = the
  // 0-based character where the problem lies, value = kPatternSyntax,
  // kPatternLookaround, kPatternBackReference or kPatternTooLarge (limit =
  // the states allowed), token = the pattern.
  static Result<Pattern> compile(std::string_view pattern, Field field);

  // Whether the pattern matches somewhere in `text`.
  bool found_in(std::string_view text) const;
  // The first group's text in the leftmost match, with Perl's (and RE2's)
  // priorities: earlier alternatives first, greedy repeats longest. None
  // when there is no match or the group took no part in it.
  std::optional<std::string_view> first_group(std::string_view text) const;

  // The program, for tests that bound it.
  std::size_t states() const { return program_.size(); }
  // Steps taken by every search so far (a thread stepped over one byte, or
  // a search started at one position): the classifier bounds their sum.
  double work() const { return work_; }

  enum class Op : std::uint8_t { byte_in, split, jump, save, text_begin, text_end, word_edge, not_word_edge, match };
  struct Inst {
    Op op;
    std::int32_t x = 0, y = 0;  // split: x first, then y; jump: x; save: x = the slot (0 or 1)
    std::array<std::uint64_t, 4> bytes{};  // byte_in: the bytes it takes, one bit each
  };

 private:
  bool run(std::string_view text, bool want_group, std::int32_t group[2]) const;
  std::vector<Inst> program_;
  mutable double work_ = 0;
};

}  // namespace heteropipe::trace_detail
