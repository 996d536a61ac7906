// heteropipe._core.plan and .catalog: the planner's report for JSON text,
// read by the same reader as the CLI's (the core's read_plan_json), and the catalog, both
// through their core visitors.
#include <optional>
#include <string>

#include "bindings.hpp"
#include "errors.hpp"
#include "heteropipe/cli/gguf_file.hpp"
#include "heteropipe/plan/report.hpp"
#include "heteropipe/plan/read_json.hpp"
#include "strings.hpp"
#include "to_python.hpp"

namespace heteropipe::python {
namespace {

// A file that cannot be opened or read is Python's OSError, worded as the CLI words it.
[[noreturn]] void raise_io(const std::string& sentence) {
  PyErr_SetString(PyExc_OSError, sentence.c_str());
  throw py::error_already_set();
}

py::dict plan(py::handle text) {
  const std::string json = utf8_of(text);
  std::optional<Result<PlanReport>> report;
  std::vector<Error> errors;
  std::string io_failure;
  {
    py::gil_scoped_release no_gil;  // the core's work needs no Python
    PlanJson read = read_plan_json(json);
    errors = std::move(read.errors);
    // "gguf": a path from the current directory (text has no folder of its own).
    if (errors.empty()) {
      if (auto e = cli::load_gguf(read.request, "", io_failure)) errors.push_back(*e);
    }
    if (errors.empty()) report.emplace(make_plan_report(read.request));
  }
  if (!io_failure.empty()) raise_io(io_failure);
  if (!errors.empty()) raise(errors);
  return to_python(value_or_raise(std::move(*report)), Arrays::lists);
}

py::dict model_info(const std::string& path) {
  std::string io_failure;
  std::optional<Result<ModelInfo>> info;
  {
    py::gil_scoped_release no_gil;
    info.emplace(cli::read_gguf_file(path, io_failure));
  }
  if (!io_failure.empty()) raise_io(io_failure);
  return to_python(value_or_raise(std::move(*info)), Arrays::lists);
}

}  // namespace

void bind_plan(py::module_& m) {
  m.def("plan", &plan, py::arg("text"),
        "The plan report for the planner's JSON input (str or UTF-8 bytes), as `heteropipe plan --json` prints it.");
  m.def("model_info", &model_info, py::arg("path"),
        "A GGUF file's facts, as `heteropipe model --json` prints them (its header and tensor table only).");
  m.def(
      "catalog", [] { return to_python(Catalog{}, Arrays::lists); },
      "The estimator's catalog: {gpus, models, quants, links}, each entry with its source.");
}

}  // namespace heteropipe::python
