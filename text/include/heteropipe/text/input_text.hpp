#pragma once
// The CLI's sentences about the inputs it reads and the output it writes
// (cli/src/read_file.cpp and every command), written here once with every
// other sentence; the CLI only finds the facts (an errno, a size).

#include <string>
#include <string_view>

namespace heteropipe::text {

// How a named input is called: "standard input" for "-", "(an empty file
// name)" for "", else the name quoted (text::quoted).
std::string input_label(std::string_view file);

// Why an input cannot be read, for the errno `error_number`: "no such file",
// "is a directory", "permission denied", ...; any other as "system error N".
std::string read_reason(int error_number);
// The reason of a path that opens but is no regular file (a GGUF path that names no file's size).
inline constexpr const char* kNotRegularFile = "not a regular file";

// "LABEL: cannot be read (REASON)", LABEL as input_label or text::quoted gives it.
std::string cannot_read(std::string_view label, std::string_view reason);

// "LABEL: more than N bytes, the most this input may hold".
std::string too_large_input(std::string_view label, double max_bytes);

// The CLI's line when its output cannot be written (a closed pipe, a full disk), without "error: ".
inline constexpr const char* kCannotWriteOutput = "could not write the output";
// The CLI's line when a command's --tau is missing, without "error: ".
inline constexpr const char* kTauRequired = "--tau is required";
// The CLI's line for a --timeline that names no regime ("--timeline: must be async or blocking (got 'x')").
std::string timeline_choice(std::string_view typed);
// The simulate command's line when both replacements of --service are given.
inline constexpr const char* kServiceGivenTwice = "--service-matrix and --service-samples both replace --service; give one";

}  // namespace heteropipe::text
