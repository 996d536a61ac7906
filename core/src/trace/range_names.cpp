// The range names a trace holds, for a user whose micro-batch pattern
// matched none of a stage's (no_microbatch_ranges, docs/traces.md "Patterns").
#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <string_view>

#include "heteropipe/limits.hpp"
#include "measured.hpp"
#include "../utf8.hpp"

namespace heteropipe::trace_detail {
namespace {

bool starts_with(std::string_view name, std::string_view prefix) { return name.substr(0, prefix.size()) == prefix; }

// A name's form: each run of digits one '#', so that microbatch_0 and
// microbatch_15 are one form and stage0_mb3 and stage1_mb3 another's.
std::string form_of(std::string_view name) {
  std::string form;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const bool digit = std::isdigit(static_cast<unsigned char>(name[i])) != 0;
    if (!digit) {
      form += name[i];
    } else if (i == 0 || !std::isdigit(static_cast<unsigned char>(name[i - 1]))) {
      form += '#';
    }
  }
  return form;
}

// The first `bytes` bytes of a name, not cutting a UTF-8 character.
std::string cut(const std::string& name, std::size_t bytes) {
  if (name.size() <= bytes) return name;
  std::size_t end = bytes;
  while (end > 0 && (static_cast<unsigned char>(name[end]) & 0xC0) == 0x80) --end;
  return name.substr(0, end);
}

}  // namespace

bool names_range(const TraceEvents& events, const TraceEvent& e) {
  const std::string& category = events.names[e.category];
  // Kineto marks record_function's host ranges; its device copies
  // (gpu_user_annotation) repeat them, and its ops, kernels and Python
  // frames have categories of their own.
  if (category == "user_annotation") return !starts_with(events.names[e.name], "ProfilerStep#");
  if (!category.empty()) return false;
  // torch's CPU profiler writes no category: its ops are namespaced
  // (aten::mm, c10d::send_), gloo's transport is gloo:send, and the
  // profiler's steps are its own.
  const std::string& name = events.names[e.name];
  return name.find("::") == std::string::npos && !starts_with(name, "gloo:") && !starts_with(name, "ProfilerStep#") &&
         name != "record_param_comms";
}

std::vector<RangeName> frequent_range_names(const TraceEvents& events, const std::vector<std::int64_t>& counts) {
  // Per form: its first name (by the name table's order, the order names
  // were first read) and the ranges of that form.
  std::map<std::string, RangeName> forms;
  for (std::size_t id = 0; id < counts.size() && id < events.names.size(); ++id) {
    if (counts[id] == 0) continue;
    const std::string& name = events.names[id];
    const std::string_view head(name.data(), std::min(name.size(), limits::kTraceNameMatchBytes));
    auto [it, added] = forms.try_emplace(form_of(head));
    // Shown as UTF-8, each malformed byte U+FFFD, then cut.
    if (added) it->second.name = cut(as_utf8(name), limits::kMaxRangeNameBytes);
    it->second.count += counts[id];
  }
  std::vector<RangeName> found;
  for (auto& [form, named] : forms) found.push_back(std::move(named));
  std::stable_sort(found.begin(), found.end(),
                   [](const RangeName& a, const RangeName& b) { return a.count > b.count; });
  if (found.size() > limits::kMaxRangeNames) found.resize(limits::kMaxRangeNames);
  return found;
}

}  // namespace heteropipe::trace_detail
