#pragma once
// The sentences of GGUF files' errors (gguf_text.cpp).

#include <optional>
#include <string>

#include "heteropipe/error.hpp"

namespace heteropipe::text::detail {

// "GGUF file, byte <n>: <what>", or nullopt for an error of no GGUF file.
std::optional<std::string> describe_gguf_error(const Error& e);

}  // namespace heteropipe::text::detail
