#pragma once
// Pieces that the error sentences share (error_text.cpp, tool_sentences.cpp
// and trace_text.cpp), each written once.

#include <string>

#include "heteropipe/error.hpp"
#include "heteropipe/text/numbers.hpp"

namespace heteropipe::text::detail {

// The offending text as typed when the parser kept it, else the value.
inline std::string shown(const Error& e) { return e.token.empty() ? shortest(e.value) : quoted(e.token); }

inline std::string got(const Error& e) { return " (got " + shown(e) + ")"; }

// What a value breaks, after its field's name.
inline constexpr const char* kNotANumber = "is not a number";
inline constexpr const char* kNegative = "must be >= 0";
inline constexpr const char* kNotFinite = "must be a finite number";
inline constexpr const char* kAtMost = "must be at most ";
inline constexpr const char* kNotInteger = "must be a whole number";
inline constexpr const char* kWrongType = "has the wrong type of value";
// duplicate_key of a JSON object, after "key 'K'", wherever the object was read.
inline constexpr const char* kGivenTwice =
    " is given a second time in its object (which of its values holds is not defined)";
// utf16_text, wherever the text was read.
inline constexpr const char* kUtf16Text =
    "the text is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8, which every reader takes";
// utf32_text, likewise.
inline constexpr const char* kUtf32Text =
    "the text is UTF-32 (it starts with a UTF-32 byte-order mark); save it as UTF-8, which every reader takes";

// What an index counts in a field's list: "device", "link", "layer", ... ("item" elsewhere).
std::string_view position_noun(Field field);

}  // namespace heteropipe::text::detail
