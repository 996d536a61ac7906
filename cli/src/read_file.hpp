#pragma once

#include <optional>
#include <string>

namespace heteropipe::cli {

// Reads the whole of `file` (standard input for "-") into `content`, as
// bytes. On failure returns the reason as the CLI's sentence, for example
// "docs: cannot be read (is a directory)", and leaves `content` unspecified.
std::optional<std::string> read_file(const std::string& file, std::string& content);

}  // namespace heteropipe::cli
