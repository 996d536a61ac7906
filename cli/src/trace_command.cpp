#include "trace_command.hpp"

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>
#include <iostream>
#include <tuple>

#include "heteropipe/cli/cli.hpp"
#include "heteropipe/cli/gzip.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "heteropipe/text/error_text.hpp"
#include "heteropipe/text/input_text.hpp"
#include "heteropipe/text/numbers.hpp"
#include "heteropipe/text/trace_text.hpp"
#include "heteropipe/trace/model.hpp"
#include "json.hpp"
#include "read_file.hpp"
#include "trace_table.hpp"

namespace heteropipe::cli {
namespace {

Result<TraceOptions> options_of(const TraceChoices& c) {
  TraceOptions o;
  auto stat = trace_stat_from_name(c.stat);
  if (!stat) return stat.error();
  auto unit = time_unit_from_name(c.unit);
  if (!unit) return unit.error();
  o.stat = stat.value();
  o.unit = unit.value();
  for (auto [given, text, field] : {std::tuple{c.stage_order_given, &c.stage_order, Field::stage_order},
                                    std::tuple{c.clock_offsets_given, &c.clock_offsets, Field::clock_offsets},
                                    std::tuple{c.profiler_step_given, &c.profiler_step, Field::profiler_step}}) {
    if (given && text->empty()) return Error{ErrorCode::empty, field, kWholeField, 0.0, {}};
  }
  auto order = stage_order_of_text(c.stage_order);
  if (!order) return order.error();
  o.stage_order = std::move(order).value();
  auto offsets = clock_offsets_of_text(c.clock_offsets, o.unit);
  if (!offsets) return offsets.error();
  o.clock_offsets = offsets.value();
  if (!c.profiler_step.empty()) {
    auto step = profiler_step_of_text(c.profiler_step);
    if (!step) return step.error();
    o.profiler_step = step.value();
  }
  o.compute_regex = c.compute;
  o.transfer_regex = c.transfer;
  o.microbatch_regex = c.microbatch;
  return o;
}

// A directory's trace files as paths (trace_directory_files of its plain
// files and links to them), or why it cannot be listed, as read_file words it.
std::optional<std::string> directory_files(const std::string& directory, std::vector<std::string>& paths) {
  std::vector<std::string> names;
  std::error_code code;
  for (std::filesystem::directory_iterator it(directory, code), end; !code && it != end; it.increment(code)) {
    std::error_code kind;
    if (it->is_regular_file(kind)) names.push_back(it->path().filename().string());
  }
  if (code) return read_failure(directory, code.value());
  paths.clear();
  for (const std::string& name : trace_directory_files(std::move(names))) {
    paths.push_back((std::filesystem::path(directory) / name).string());
  }
  return std::nullopt;
}

int refuse(const Error& e, std::ostream& err) {
  err << "error: " << text::describe(e) << '\n';
  return kExitBadInput;
}

}  // namespace

int run_trace(const TraceChoices& c, std::ostream& out, std::ostream& err) {
  const auto options = options_of(c);
  if (!options) return refuse(options.error(), err);
  TraceEvents events;
  for (const std::string& given : c.files) {
    // A directory stands for its trace files (trace_directory_files), each
    // read as a file given by name, a run's own JSON record beside them left out.
    std::error_code code;
    const bool directory = given != "-" && std::filesystem::is_directory(given, code);
    std::vector<std::string> files{given};
    if (directory) {
      if (auto problem = directory_files(given, files)) {
        err << "error: " << *problem << '\n';
        return kExitBadInput;
      }
    }
    bool found = false;
    for (const std::string& file : files) {
      std::string bytes;
      if (auto problem = read_file(file, bytes, limits::kMaxTraceBytes)) {
        err << "error: " << *problem << '\n';
        return kExitBadInput;
      }
      const std::string label = file == "-" ? "(standard input)" : file;
      auto content = io::inflate_if_gzip(std::move(bytes), label);
      if (!content) return refuse(content.error(), err);
      if (!directory) {
        if (auto problem = read_trace_text(content.value(), label, events)) return refuse(*problem, err);
        continue;
      }
      auto read = read_directory_trace_text(content.value(), label, events);
      if (!read) return refuse(read.error(), err);
      found = found || read.value();
    }
    if (directory && !found) return refuse(no_trace_files(given), err);
  }
  const auto result = recover_model(events, options.value());
  if (!result) {
    // A clock offset past the limit is quoted as typed (1e15, not 1e+15).
    Error e = result.error();
    quote_list_item(e, Field::clock_offsets, c.clock_offsets);
    return refuse(e, err);
  }
  if (c.json) out << to_json(result.value()).dump(2) << '\n';
  else write_trace_table(out, result.value());
  out.flush();
  if (out) return kExitOk;
  err << "error: " << text::kCannotWriteOutput << '\n';
  return kExitOutputFailed;
}

}  // namespace heteropipe::cli
