#pragma once
// Pieces that both halves of the error sentences use (error_text.cpp and
// tool_sentences.cpp).

#include <string>

#include "heteropipe/error.hpp"
#include "heteropipe/text/numbers.hpp"

namespace heteropipe::text::detail {

// The offending text as typed when the parser kept it, else the value.
inline std::string shown(const Error& e) { return e.token.empty() ? shortest(e.value) : quoted(e.token); }

inline std::string got(const Error& e) { return " (got " + shown(e) + ")"; }

}  // namespace heteropipe::text::detail
