#pragma once
// The sentences that only the tools' codes and fields need: the planner's,
// the simulator's and trace import's. They live apart from the calculator's
// so that the calculator's WebAssembly module, which has none of those
// operations, links none of their words (it links
// wasm/src/no_tool_sentences.cpp in their place); every other build links
// tool_sentences.cpp.

#include <optional>
#include <string>

#include "heteropipe/error.hpp"

namespace heteropipe::text::detail {

// The whole sentence, for an error that has its own form (a place in a
// trace file); nullopt for "<field>: <what>".
std::optional<std::string> tool_sentence(const Error& e);

// What is wrong, for a tool's own code or a tool's field where the common
// sentence does not fit; nullopt for the common sentence.
std::optional<std::string> tool_what(const Error& e);

}  // namespace heteropipe::text::detail
