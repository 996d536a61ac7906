// A directory given as a trace input: which of its files are traces, in
// which order, and the run's own records kept beside them left out.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "heteropipe/trace/events.hpp"

namespace heteropipe {
namespace {

bool ends_with(std::string_view name, std::string_view suffix) {
  return name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
}

}  // namespace

std::vector<std::string> trace_directory_files(std::vector<std::string> names) {
  names.erase(std::remove_if(names.begin(), names.end(),
                             [](const std::string& name) {
                               return name.empty() || name.front() == '.' ||
                                      !(ends_with(name, ".json") || ends_with(name, ".json.gz"));
                             }),
              names.end());
  std::sort(names.begin(), names.end());
  return names;
}

Result<bool> read_directory_trace_text(std::string_view text, std::string_view label, TraceEvents& into) {
  auto problem = read_trace_text(text, label, into);
  if (!problem) return true;
  // The reader refuses a top-level object without traceEvents only once the
  // text's end is checked, so the file is whole JSON: not a trace. On error
  // `into` keeps what it held before this file.
  if (problem->code == ErrorCode::missing_field && problem->field == Field::traceEvents) return false;
  return *problem;
}

Error no_trace_files(std::string_view directory) {
  return Error{ErrorCode::empty, Field::trace, kWholeField, 0.0, std::string(directory)};
}

}  // namespace heteropipe
