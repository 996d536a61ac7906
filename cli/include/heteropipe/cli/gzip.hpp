#pragma once

#include <string>
#include <string_view>

#include "heteropipe/error.hpp"
#include "heteropipe/limits.hpp"

// Gzip for the front ends that read trace files: the CLI's file reading, and
// Python, which compiles the CLI in. It lives outside the core, which also
// builds to WebAssembly without zlib.
namespace heteropipe::io {

bool is_gzip(std::string_view bytes);

// The bytes inflated when they are gzip (every member of a multi-member
// file), else the bytes as they are. Stops at `limit` decompressed bytes
// (too_large, field trace, value the bytes so far), so a gzip bomb cannot
// fill memory; damaged data is bad_gzip. Errors carry the label as token and
// the compressed byte offset as index.
Result<std::string> inflate_if_gzip(std::string bytes, std::string_view label,
                                    double limit = limits::kMaxTraceBytes);

}  // namespace heteropipe::io
