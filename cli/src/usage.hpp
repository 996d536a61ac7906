#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

// Usage errors: CLI11's parse errors worded as the CLI's other errors, the
// option first, then the 1-based argument where it was given, the sentence,
// and what was typed, quoted safely (heteropipe::text::quoted).
namespace heteropipe::cli {

// Every flag (--json, --recurrence, --timeline of simulate) given twice, or
// given a value (--json=yes), is refused as an option given twice is.
void refuse_repeated_flags(CLI::App& app);

// The line after "error: " for a parse error of `app` over `args` (the
// arguments after the program's name).
std::string usage_error(CLI::App& app, const CLI::ParseError& error, const std::vector<std::string>& args);

}  // namespace heteropipe::cli
