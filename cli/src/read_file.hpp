#pragma once

#include <string>

namespace heteropipe::cli {

// The whole of `file` (standard input for "-"), as bytes; false when it
// cannot be opened or read.
bool read_file(const std::string& file, std::string& content);

}  // namespace heteropipe::cli
