#pragma once

// What every fuzz target checks (docs/testing.md#coverage-guided-fuzzing):
// a result's numbers are all finite, and a refusal is a coded Error whose
// numbers are finite and whose sentence the text library can write. A broken
// invariant aborts, which libFuzzer reports as a crash with its input.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "heteropipe/error.hpp"
#include "heteropipe/text/error_text.hpp"
#include "heteropipe/visit.hpp"

namespace heteropipe::fuzz {

[[noreturn]] inline void fail(const char* what, std::string_view where) {
  std::fprintf(stderr, "fuzz invariant broken: %s at %.*s\n", what, static_cast<int>(where.size()), where.data());
  std::abort();
}

inline void finite(double x, std::string_view where) {
  if (!std::isfinite(x)) fail("a number that is not finite", where);
}

// Walks one visited value (heteropipe/visit.hpp's protocol) and checks its numbers.
struct FiniteVisitor {
  template <class T>
  void operator()(std::string_view name, const T& value) const {
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
      finite(value, name);
    } else if constexpr (std::is_same_v<T, std::vector<double>>) {
      for (double x : value) finite(x, name);
    } else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>) {
      // Whole numbers are finite by their type.
    } else if constexpr (std::is_same_v<T, ComputedList>) {
      for (std::int64_t i = 0; i < value.size; ++i) finite(value.at(i), name);
    } else if constexpr (std::is_same_v<T, std::optional<double>>) {
      if (value) finite(*value, name);
    } else if constexpr (std::is_same_v<T, std::optional<std::vector<double>>>) {
      if (value) (*this)(name, *value);
    } else if constexpr (is_object<T>::value) {
      value.fields(*this);
    } else if constexpr (is_objects<T>::value || is_tuples<T>::value) {
      for (const auto& item : value.items) visit_fields(item, *this);
    } else {
      static_assert(std::is_integral_v<T> || std::is_same_v<T, std::string_view> || std::is_same_v<T, bool>,
                    "a visited type the fuzz check does not know");
    }
  }
};

template <class T>
void check_result(const T& result) {
  visit_fields(result, FiniteVisitor{});
}

// A refusal: a known code and field, finite value and limit, and a sentence.
inline void check_error(const Error& e) {
  if (error_code_name(e.code).empty()) fail("an error without a known code", "code");
  if (field_name(e.field).empty()) fail("an error without a known field", error_code_name(e.code));
  finite(e.value, error_code_name(e.code));
  finite(e.limit, error_code_name(e.code));
  if (text::describe(e).empty()) fail("an error without a sentence", error_code_name(e.code));
  if (text::describe_detail(e).empty()) fail("an error without a detail sentence", error_code_name(e.code));
}

template <class T>
void check_errors(const std::vector<T>& errors) {
  for (const Error& e : errors) check_error(e);
}

inline std::string_view bytes(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The input cut into parts at each "\n--\n" line (several files, or several
// typed fields), at most `most` parts: the last keeps the rest.
inline std::vector<std::string_view> parts(std::string_view text, std::size_t most) {
  std::vector<std::string_view> out;
  constexpr std::string_view kSeparator = "\n--\n";
  while (out.size() + 1 < most) {
    const std::size_t at = text.find(kSeparator);
    if (at == std::string_view::npos) break;
    out.push_back(text.substr(0, at));
    text.remove_prefix(at + kSeparator.size());
  }
  out.push_back(text);
  return out;
}

}  // namespace heteropipe::fuzz
