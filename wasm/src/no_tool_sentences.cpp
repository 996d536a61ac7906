// The calculator's WebAssembly module has no operation that returns a tool's
// code or names a tool's field, so it carries none of their sentences (see
// tool_sentences.hpp): the common sentence, or the code's name, stands in.
#include "heteropipe/text/tool_sentences.hpp"

namespace heteropipe::text::detail {

std::optional<std::string> tool_sentence(const Error&) { return std::nullopt; }

std::optional<std::string> tool_what(const Error&) { return std::nullopt; }

}  // namespace heteropipe::text::detail
