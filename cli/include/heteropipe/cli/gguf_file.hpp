#pragma once

#include <optional>
#include <string>

#include "heteropipe/error.hpp"
#include "heteropipe/plan/estimate.hpp"
#include "heteropipe/plan/gguf.hpp"

// GGUF files from disk, for the CLI and the Python package: the core reads
// the header from the ranges it asks for (heteropipe/plan/gguf.hpp), and this
// reads those ranges, never the weights.
namespace heteropipe::cli {

// The facts of the GGUF file at `path`. When the file cannot be opened or
// read, `io_failure` is set to the CLI's sentence ("'x.gguf': cannot be read
// (no such file)") and the result's error is meaningless.
Result<ModelInfo> read_gguf_file(const std::string& path, std::string& io_failure);

// A plan request's "gguf" path read into its model facts: relative to
// `base_folder` (the JSON file's; empty for the current directory).
// Returns what went wrong, as read_gguf_file says it, if anything.
std::optional<Error> load_gguf(PlanRequest& request, const std::string& base_folder, std::string& io_failure);

}  // namespace heteropipe::cli
