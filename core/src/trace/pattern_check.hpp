#pragma once

#include <string_view>

// Whether std::regex (ECMAScript) will accept a pattern, decided without
// constructing it: the WebAssembly core is built without exception catching,
// where std::regex's regex_error would abort instead of becoming an error.
// Conservative: a few exotic patterns it refuses may be valid ECMAScript.
namespace heteropipe::trace_detail {

bool pattern_is_safe(std::string_view pattern);

}  // namespace heteropipe::trace_detail
