// The profiler steps of the files (torch.profiler's "ProfilerStep#N" ranges,
// one per prof.step()) and the one imported (docs/traces.md, "Profiler
// steps"). A schedule that records several steps writes them into one file,
// and each step repeats the micro-batches' names: importing them together
// would merge step 2's micro-batch 0 into step 1's. Steps whose ranges
// repeat no name (a prof.step() per micro-batch) are one run together.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <set>

#include "classify.hpp"
#include "heteropipe/limits.hpp"
#include "measured.hpp"

namespace heteropipe::trace_detail {
namespace {

constexpr std::string_view kStepPrefix = "ProfilerStep#";

// N of a name "ProfilerStep#N", if it is one.
std::optional<std::int64_t> step_number(const std::string& name) {
  if (name.size() <= kStepPrefix.size() || name.compare(0, kStepPrefix.size(), kStepPrefix) != 0) return std::nullopt;
  std::int64_t n = 0;
  const char* first = name.data() + kStepPrefix.size();
  const char* last = name.data() + name.size();
  const auto [end, problem] = std::from_chars(first, last, n);
  if (problem != std::errc() || end != last || n < 0) return std::nullopt;
  return n;
}

}  // namespace

bool ProfilerSteps::keeps(const TraceEvent& e) const {
  if (e.file >= window.size() || !window[e.file]) return true;
  const Interval& w = *window[e.file];
  return e.start + kTraceResolution >= w.first && e.start < w.second;
}

Result<ProfilerSteps> profiler_steps(const TraceEvents& events, const TraceOptions& options, Classifier& c) {
  // Each step's start, per file (the earliest of its ranges: the host's, and
  // a device's annotation where the trace has one), and each file's
  // micro-batch numbers.
  const std::size_t files = events.files.size();
  std::vector<std::map<std::int64_t, double>> in_file(files);
  std::vector<std::vector<std::int64_t>> microbatches(files);
  std::map<std::uint32_t, std::optional<std::int64_t>> numbers;  // by name, each name parsed once
  for (const TraceEvent& e : events.events) {
    if (e.file >= files) continue;
    if (c.role(events, e) == Role::annotation) {
      if (auto m = c.microbatch_number(events, e)) microbatches[e.file].push_back(*m);
      continue;
    }
    auto [it, added] = numbers.try_emplace(e.name);
    if (added) it->second = step_number(events.names[e.name]);
    if (!it->second) continue;
    const auto [step, first] = in_file[e.file].try_emplace(*it->second, e.start);
    if (!first) step->second = std::min(step->second, e.start);
  }
  if (auto slow = c.too_slow()) return *slow;
  bool names_repeat = false;
  for (std::vector<std::int64_t>& m : microbatches) {
    std::sort(m.begin(), m.end());
    names_repeat = names_repeat || std::adjacent_find(m.begin(), m.end()) != m.end();
  }
  std::set<std::int64_t> all;
  for (const auto& steps : in_file) {
    for (const auto& [n, range] : steps) all.insert(n);
  }
  ProfilerSteps out;
  out.window.resize(files);
  if (!options.profiler_step && (all.size() < 2 || !names_repeat)) return out;
  out.count = static_cast<std::int64_t>(all.size());
  const double last = all.empty() ? 0.0 : static_cast<double>(*all.rbegin());
  if (all.empty()) {
    if (options.profiler_step) {
      return Error{ErrorCode::unknown_id, Field::profiler_step, kWholeField, static_cast<double>(*options.profiler_step),
                   {}, 0.0};
    }
    return out;
  }
  out.chosen = options.profiler_step.value_or(*all.begin());
  out.last = *all.rbegin();
  for (std::size_t f = 0; f < in_file.size(); ++f) {
    if (in_file[f].empty()) continue;  // a file without steps keeps every event
    const auto found = in_file[f].find(out.chosen);
    if (found == in_file[f].end()) {
      return Error{ErrorCode::unknown_id, Field::profiler_step, static_cast<std::int64_t>(f),
                   static_cast<double>(out.chosen), {}, last};
    }
    // A step lasts until the next begins: work it launched may run past its
    // host range (a device's kernels, a wait after prof.step()).
    const auto next = std::next(found);
    out.window[f] = Interval{found->second, next == in_file[f].end() ? INFINITY : next->second};
  }
  return out;
}

}  // namespace heteropipe::trace_detail
