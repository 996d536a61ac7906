#pragma once

#include <optional>
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

// "--NAME=" with nothing after the '=', for an option NAME (of the
// subcommand named first, else the program's) that takes a value: the line
// after "error: " that refuses it, as '' is refused (CLI11 would take the
// next argument for its value); or for a flag (--json=), which takes none.
// None when no argument is such.
std::optional<std::string> empty_after_equals(CLI::App& app, const std::vector<std::string>& args);

// An option that takes a value, typed alone (--M, not --M=8), followed by an
// argument that looks like an option ("--" and a name, or a short flag the
// program knows, -h): the line after "error: " that refuses it, since CLI11
// would take it for the value (--M --json: M = "--json"). A negative number
// (-1) is a value, left to the option's range check. None when no argument
// is such.
std::optional<std::string> option_as_value(CLI::App& app, const std::vector<std::string>& args);

// The line after "error: " for a parse error of `app` over `args` (the
// arguments after the program's name).
std::string usage_error(CLI::App& app, const CLI::ParseError& error, const std::vector<std::string>& args);

}  // namespace heteropipe::cli
