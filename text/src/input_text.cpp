#include "heteropipe/text/input_text.hpp"

#include <cerrno>

#include "heteropipe/text/numbers.hpp"

namespace heteropipe::text {

std::string input_label(std::string_view file) {
  // An empty name ('' typed, or a variable that was not set) would leave the line starting with ": ".
  return file == "-" ? "standard input" : file.empty() ? "(an empty file name)" : quoted(file);
}

// The few reasons a user can act on, in words; any other is named by its number.
std::string read_reason(int error_number) {
  switch (error_number) {
    case ENOENT: return "no such file";
    case ENOTDIR: return "a folder on its path is not a folder";
    case EISDIR: return "is a directory";
    case EACCES:
    case EPERM: return "permission denied";
    case EBADF: return "not open";
    case EIO: return "input/output error";
    case ENOMEM: return "not enough memory";
    default: return "system error " + std::to_string(error_number);
  }
}

std::string cannot_read(std::string_view label, std::string_view reason) {
  return std::string(label) + ": cannot be read (" + std::string(reason) + ")";
}

std::string timeline_choice(std::string_view typed) {
  return "--timeline: must be async or blocking (got '" + quoted(typed) + "')";
}

std::string too_large_input(std::string_view label, double max_bytes) {
  return std::string(label) + ": more than " + grouped(max_bytes) + " bytes, the most this input may hold";
}

}  // namespace heteropipe::text
