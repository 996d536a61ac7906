#pragma once

#include <ostream>
#include <string>
#include <vector>

// The heteropipe command line, whole: arguments in, text out. The native
// binary and the Python `heteropipe` command both run this, so they give the
// same bytes, exit status and errors for the same arguments.
namespace heteropipe::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitOutputFailed = 1;
inline constexpr int kExitBadInput = 2;

// args excludes the program name. Writes the report to out and "error: ..."
// lines to err; returns the exit status.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace heteropipe::cli
