// A trace pattern (the regular-expression subset of docs/traces.md#patterns)
// and a text cut at the first NUL: compiled, then searched.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "heteropipe/limits.hpp"
#include "trace/pattern.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace heteropipe;
  const std::string_view input = fuzz::bytes(data, size);
  const std::size_t nul = input.find('\0');
  const std::string_view pattern = input.substr(0, nul);
  const std::string_view text = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
  auto compiled = trace_detail::Pattern::compile(pattern, Field::compute_regex);
  if (!compiled) {
    const Error& e = compiled.error();
    if (e.code != ErrorCode::bad_pattern) fuzz::fail("a pattern refused with another code", "compile");
    if (e.index != kWholeField && (e.index < 0 || static_cast<std::size_t>(e.index) > pattern.size())) {
      fuzz::fail("a bad pattern's index outside the pattern", "compile");
    }
    fuzz::check_error(e);
    return 0;
  }
  const auto& p = compiled.value();
  if (p.states() > limits::kMaxPatternStates) fuzz::fail("a program past its state limit", "compile");
  const bool found = p.found_in(text);
  const auto group = p.first_group(text);
  if (group) {
    if (!found) fuzz::fail("a group of a pattern not found", "first_group");
    if (group->data() < text.data() || group->data() + group->size() > text.data() + text.size()) {
      fuzz::fail("a group outside the text", "first_group");
    }
  }
  fuzz::finite(p.work(), "work");
  return 0;
}
