// heteropipe._core.import_trace: trace files' bytes to the trace result, by
// the same readers and the same visitor as `heteropipe trace --json`.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "errors.hpp"
#include "heteropipe/cli/gzip.hpp"
#include "heteropipe/parse.hpp"
#include "heteropipe/text/trace_text.hpp"
#include "heteropipe/trace/model.hpp"
#include "inputs.hpp"
#include "strings.hpp"
#include "to_python.hpp"

namespace heteropipe::python {
namespace {

// One (label, bytes) per file as the Python layer read them, or for a
// directory (its label, [(label, bytes) of each of its trace files]).
using Sources = std::vector<std::pair<std::string, py::object>>;

// The file's bytes, inflated when gzip, read into `events`: as a file named
// by itself (read_trace_text), or as one of a directory's (whether it was a trace).
bool read_source(const std::string& label, const py::bytes& bytes, bool in_directory, TraceEvents& events) {
  std::string content = value_or_raise(io::inflate_if_gzip(std::string(bytes), label));
  if (in_directory) return value_or_raise(read_directory_trace_text(content, label, events));
  if (auto problem = read_trace_text(content, label, events)) raise(*problem);
  return true;
}

// The profiler step: one item, a number or numeric text as the CLI's
// --profiler-step reads it. It is read as a list of one, but its error is
// about the whole field ("profiler_step: is empty"), not a list's item 1.
double step_from(py::handle profiler_step) {
  py::object cause;
  Error e;
  try {
    return values_from(py::make_tuple(profiler_step), Field::profiler_step).at(0);
  } catch (py::error_already_set& caught) {
    const py::object type = py::module_::import("heteropipe._errors").attr("HeteropipeError");
    if (!caught.matches(type)) throw;
    e = error_of(caught.value());
    cause = caught.value().attr("__cause__");
  }
  e.index = kWholeField;
  raise_from(e, cause.is_none() ? py::object() : cause);
}

// stage_order and clock_offsets: None, a list (or any iterable) of numbers,
// or text as the CLI reads it; every bad item a coded error (values_from).
py::dict import_trace(const Sources& sources, const std::string& stat, const std::string& unit,
                      py::handle stage_order, const std::string& compute, const std::string& transfer,
                      const std::string& microbatch, py::handle clock_offsets, py::handle profiler_step) {
  TraceOptions options;
  options.stat = value_or_raise(trace_stat_from_name(stat));
  options.unit = value_or_raise(time_unit_from_name(unit));
  options.stage_order = value_or_raise(stage_order_of(values_from(stage_order, Field::stage_order)));
  options.compute_regex = compute;
  options.transfer_regex = transfer;
  options.microbatch_regex = microbatch;
  // Text as the CLI reads it, whose too large number is judged in the unit as the CLI judges it.
  options.clock_offsets = is_text(clock_offsets)
                              ? value_or_raise(clock_offsets_of_text(utf8_of(clock_offsets), options.unit))
                              : values_from(clock_offsets, Field::clock_offsets);
  if (!profiler_step.is_none()) options.profiler_step = value_or_raise(profiler_step_of(step_from(profiler_step)));
  TraceEvents events;
  for (const auto& [label, source] : sources) {
    if (py::isinstance<py::bytes>(source)) {
      read_source(label, source.cast<py::bytes>(), false, events);
      continue;
    }
    bool found = false;
    for (const auto& [member, bytes] : source.cast<std::vector<std::pair<std::string, py::bytes>>>()) {
      found = read_source(member, bytes, true, events) || found;
    }
    if (!found) raise(no_trace_files(label));
  }
  auto recovered = recover_model(events, options);
  if (!recovered) {
    // A clock offset typed as the CLI's text is quoted as typed (1e15, not 1e+15), as the CLI quotes it.
    Error e = recovered.error();
    if (is_text(clock_offsets)) quote_list_item(e, Field::clock_offsets, utf8_of(clock_offsets));
    raise(e);
  }
  const TraceResult& result = recovered.value();
  return to_python(result, Arrays::lists);
}

// A directory's names as os.listdir gives them: str, with surrogate escapes
// for bytes that are no UTF-8 (or bytes), taken back to their bytes and
// returned as os.listdir gave them, not refused as text that is no UTF-8.
py::list directory_files(const py::iterable& names) {
  std::vector<std::string> bytes;
  for (py::handle name : names) bytes.push_back(utf8_of(name));
  py::list kept;
  for (const std::string& name : trace_directory_files(std::move(bytes))) kept.append(decoded(name));
  return kept;
}

}  // namespace

void bind_trace(py::module_& m) {
  m.def("trace_directory_files", &directory_files, py::arg("names"),
        "Of a directory's file names, those of trace files (*.json, *.json.gz), sorted, as the CLI reads a directory.");
  m.def("import_trace", &import_trace, py::arg("sources"), py::arg("stat") = "p50", py::arg("unit") = "ms",
        py::arg("stage_order") = py::none(), py::arg("compute") = "", py::arg("transfer") = "",
        py::arg("microbatch") = "", py::arg("clock_offsets") = py::none(), py::arg("profiler_step") = py::none(),
        "The model recovered from trace files given as (label, bytes) pairs; the dict of `heteropipe trace --json`.");
}

}  // namespace heteropipe::python
