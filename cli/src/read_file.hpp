#pragma once

#include <optional>
#include <string>

namespace heteropipe::cli {

// Reads the whole of `file` (standard input for "-") into `content`, as
// bytes, up to `max_bytes` (the limit of what the input may hold: a plan's
// limits::kMaxTextBytes, a trace's kMaxTraceBytes). On failure returns the
// reason as the CLI's sentence, for example "docs: cannot be read (is a
// directory)", or "big.json: more than 134,217,728 bytes, the most this input
// may hold" (a regular file by its size, before reading it; a pipe or a
// device as soon as it reads past the limit, so that /dev/zero or an endless
// pipe ends in an error, not in all of memory), and leaves `content`
// unspecified.
std::optional<std::string> read_file(const std::string& file, std::string& content, double max_bytes);

// The sentence of `file` that cannot be read for the errno `error_number`:
// "docs: cannot be read (permission denied)".
std::string read_failure(const std::string& file, int error_number);

// Why `file` cannot be opened or read from its first byte, as read_file words
// it, or nothing when it can (reading at most that byte).
std::optional<std::string> open_failure(const std::string& file);

}  // namespace heteropipe::cli
