// The profiler steps of the files (torch.profiler's "ProfilerStep#N" ranges,
// one per prof.step()) and the one imported (docs/traces.md, "Profiler
// steps"). A schedule that records several steps writes them into one file,
// and each step repeats the micro-batches' names: importing them together
// would merge step 2's micro-batch 0 into step 1's. Steps whose ranges
// repeat no name (a prof.step() per micro-batch) are one run together.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <iterator>
#include <limits>
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

// The profiler windows (measured.hpp): files join one window when their
// step numbers meet, directly or through another file's. A pipeline's ranks
// step together, so each window's files are its ranks, and a window's steps
// are numbered apart from the other windows'. With two windows or more, the
// one holding the step asked for (or the lowest step) is imported and the
// others' files are left out; returns which files are, per file, and sets
// the windows found, the imported one's first step and the files left out.
// A step no file holds chooses no window: the caller names it as missing.
std::vector<bool> profiler_windows(const std::vector<std::map<std::int64_t, double>>& in_file,
                                   const TraceOptions& options, ProfilerSteps& out) {
  const std::size_t files = in_file.size();
  std::vector<std::size_t> parent(files);
  for (std::size_t f = 0; f < files; ++f) parent[f] = f;
  auto root = [&](std::size_t f) {
    while (parent[f] != f) f = parent[f] = parent[parent[f]];
    return f;
  };
  std::map<std::int64_t, std::size_t> holder;  // step -> a file holding it
  for (std::size_t f = 0; f < files; ++f) {
    for (const auto& [n, start] : in_file[f]) {
      const auto [it, added] = holder.emplace(n, f);
      if (!added) parent[root(f)] = root(it->second);
    }
  }
  std::vector<bool> left_out(files, false);
  std::set<std::size_t> windows;
  for (std::size_t f = 0; f < files; ++f) {
    if (!in_file[f].empty()) windows.insert(root(f));
  }
  out.windows = static_cast<std::int64_t>(windows.size());
  if (windows.size() < 2) return left_out;
  const auto wanted = options.profiler_step ? holder.find(*options.profiler_step) : holder.begin();
  if (wanted == holder.end()) return left_out;
  const std::size_t chosen = root(wanted->second);
  out.first_of_window = std::numeric_limits<std::int64_t>::max();
  for (std::size_t f = 0; f < files; ++f) {
    if (in_file[f].empty()) continue;
    if (root(f) == chosen) {
      out.first_of_window = std::min(out.first_of_window, in_file[f].begin()->first);
    } else {
      left_out[f] = true;
      ++out.files_left_out;
    }
  }
  return left_out;
}

}  // namespace

bool ProfilerSteps::keeps(const TraceEvent& e) const {
  if (e.file < left_out.size() && left_out[e.file]) return false;
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
  // Each file's micro-batch numbers, of its host ranges and of the device's
  // copies (Kineto's gpu_user_annotation), each the whole file's numbers.
  std::vector<std::vector<std::int64_t>> microbatches(files), on_device(files);
  std::map<std::uint32_t, std::optional<std::int64_t>> numbers;  // by name, each name parsed once
  // Without a micro-batch pattern, on a CPU pipeline, each file's messages
  // (the transport's events, not the c10d wrappers around them): their
  // starts by direction. On a device, a step's kernels run past its host
  // range and no GPU pipeline's steps were tried, so its steps stay one run.
  const bool by_transfers = options.microbatch_regex.empty() && c.cpu_run();
  std::vector<std::array<std::vector<double>, 3>> messages(files);
  for (const TraceEvent& e : events.events) {
    if (e.file >= files) continue;
    const Role role = c.role(events, e);
    if (by_transfers && role == Role::transfer && !c.is_wrapper(events, e)) {
      const Direction d = c.direction(events, e);
      messages[e.file][d == Direction::send ? 0 : d == Direction::recv ? 1 : 2].push_back(e.start);
      continue;
    }
    if (role == Role::annotation) {
      if (auto m = c.microbatch_number(events, e)) {
        (c.is_device_range(events, e) ? on_device : microbatches)[e.file].push_back(*m);
      }
      continue;
    }
    auto [it, added] = numbers.try_emplace(e.name);
    if (added) it->second = step_number(events.names[e.name]);
    if (!it->second) continue;
    const auto [step, first] = in_file[e.file].try_emplace(*it->second, e.start);
    if (!first) step->second = std::min(step->second, e.start);
  }
  if (auto slow = c.too_slow()) return *slow;
  ProfilerSteps out;
  out.window.resize(files);
  out.left_out = profiler_windows(in_file, options, out);
  bool names_repeat = false;
  for (std::size_t f = 0; f < files; ++f) {
    std::vector<std::int64_t>& m = on_device[f].empty() ? microbatches[f] : on_device[f];
    std::sort(m.begin(), m.end());
    names_repeat = names_repeat || (!out.left_out[f] && std::adjacent_find(m.begin(), m.end()) != m.end());
  }
  std::set<std::int64_t> all;
  for (std::size_t f = 0; f < files; ++f) {
    if (out.left_out[f]) continue;
    for (const auto& [n, range] : in_file[f]) all.insert(n);
  }
  // Without ranges, steps are a loop's iterations (each a whole pass of the
  // micro-batches through the pipeline, which fills and drains in each)
  // when every step of every file with steps holds two messages or more one
  // way; a prof.step() per micro-batch holds one a step (docs/traces.md,
  // "Profiler steps"). Imported together, the iterations' micro-batches
  // would be one stream: M their sum, T_real across the steps.
  if (by_transfers && all.size() >= 2) {
    bool iterations = false, each_holds_several = true;
    for (std::size_t f = 0; f < files && each_holds_several; ++f) {
      if (in_file[f].empty() || out.left_out[f]) continue;
      iterations = true;
      for (auto& starts : messages[f]) std::sort(starts.begin(), starts.end());
      for (auto step = in_file[f].begin(); step != in_file[f].end() && each_holds_several; ++step) {
        const auto next = std::next(step);
        const double from = step->second - kTraceResolution;
        const double to = next == in_file[f].end() ? INFINITY : next->second - kTraceResolution;
        std::size_t most = 0;
        for (const auto& starts : messages[f]) {
          const auto a = std::lower_bound(starts.begin(), starts.end(), from);
          const auto b = std::lower_bound(starts.begin(), starts.end(), to);
          most = std::max(most, static_cast<std::size_t>(b - a));
        }
        each_holds_several = most >= 2;
      }
    }
    names_repeat = names_repeat || (iterations && each_holds_several);
  }
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
    if (in_file[f].empty() || out.left_out[f]) continue;  // a file without steps keeps every event
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
