// heteropipe._core.plan and .catalog: the planner's report for JSON text,
// read by the same reader as the CLI's (the core's read_plan_json), and the catalog, both
// through their core visitors.
#include <optional>
#include <string>

#include "bindings.hpp"
#include "errors.hpp"
#include "heteropipe/plan/report.hpp"
#include "heteropipe/plan/read_json.hpp"
#include "strings.hpp"
#include "to_python.hpp"

namespace heteropipe::python {
namespace {

py::dict plan(py::handle text) {
  const std::string json = utf8_of(text);
  std::optional<Result<PlanReport>> report;
  std::vector<Error> errors;
  {
    py::gil_scoped_release no_gil;  // the core's work needs no Python
    PlanJson read = read_plan_json(json);
    errors = std::move(read.errors);
    if (errors.empty()) report.emplace(make_plan_report(read.request));
  }
  if (!errors.empty()) raise(errors);
  return to_python(value_or_raise(std::move(*report)), Arrays::lists);
}

}  // namespace

void bind_plan(py::module_& m) {
  m.def("plan", &plan, py::arg("text"),
        "The plan report for the planner's JSON input (str or UTF-8 bytes), as `heteropipe plan --json` prints it.");
  m.def(
      "catalog", [] { return to_python(Catalog{}, Arrays::lists); },
      "The estimator's catalog: {gpus, models, quants, links}, each entry with its source.");
}

}  // namespace heteropipe::python
