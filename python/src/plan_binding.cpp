// heteropipe._core.plan and .catalog: the planner's report for JSON text,
// read by the same reader as the CLI's (plan_json), and the catalog, both
// through their core visitors.
#include <optional>
#include <string>

#include "bindings.hpp"
#include "errors.hpp"
#include "heteropipe/plan/report.hpp"
#include "heteropipe/plan_json/read_plan_json.hpp"
#include "strings.hpp"
#include "to_python.hpp"

namespace heteropipe::python {
namespace {

py::dict plan(py::handle text) {
  const std::string json = utf8_of(text);
  std::optional<Result<PlanReport>> report;
  {
    py::gil_scoped_release no_gil;  // the core's work needs no Python
    auto request = read_plan_json(json);
    report.emplace(request ? make_plan_report(request.value()) : Result<PlanReport>(request.error()));
  }
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
