// heteropipe._core: the Python face of the C++ core, its text library and its
// command line. Everything here converts values and errors; every number
// comes from the core. Python-only rules (M must be an int, aliases for
// regimes) live in the pure-Python layer.
#include <optional>
#include <string>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "errors.hpp"
#include "heteropipe/heteropipe.hpp"
#include "heteropipe/text/error_text.hpp"
#include "inputs.hpp"
#include "strings.hpp"
#include "to_python.hpp"
#include "without_gil.hpp"

namespace hp = heteropipe;
namespace hpy = heteropipe::python;
namespace py = pybind11;

namespace {

py::dict analyze_values(py::handle tau, py::handle d, double M, double rho, std::optional<double> T_real,
                        bool with_lists) {
  hp::AnalysisRequest request;
  request.tau = hpy::values_from(tau, hp::Field::tau);
  request.d = hpy::values_from(d, hp::Field::d);
  request.M = M;
  request.rho = rho;
  request.T_real = T_real;
  std::optional<hp::Result<hp::Analysis>> analysis;
  {
    hpy::WithoutGil unlocked(static_cast<double>(request.tau.size()));
    analysis.emplace(hp::analyze(std::move(request)));
  }
  const hp::Analysis a = hpy::value_or_raise(std::move(*analysis));
  const hp::Lists lists = with_lists ? hp::Lists::include : hp::Lists::omit;
  // tau and d are the pipeline's own lists, which it keeps alive for their sequences.
  return hpy::python_object([&a, lists](auto&& visit) { hp::visit_fields(a, visit, lists); }, hpy::Arrays::sequences,
                            a.pipeline);
}

// The request as typed, and every error with its sentence, at most one per
// field (what the CLI and the pages report for the same text). Each argument
// is text (str or UTF-8 bytes); T_real may be None (not given).
py::dict read_typed(py::handle tau, py::handle d, py::handle M, py::handle rho, py::handle T_real) {
  hp::RequestText typed{hpy::text_from(tau, hp::Field::tau), hpy::text_from(d, hp::Field::d),
                        hpy::text_from(M, hp::Field::M), hpy::text_from(rho, hp::Field::rho), std::nullopt};
  if (!T_real.is_none()) typed.T_real = hpy::text_from(T_real, hp::Field::T_real);
  return hpy::to_python(hp::read_request(typed), hpy::Arrays::lists);
}

// A list of numbers: what Pipeline reads for tau or d (text, a buffer, any
// iterable), except that None is refused rather than read as no values.
std::vector<double> number_list(py::handle values, py::handle field) {
  const hp::Field f = hpy::field_from(field);
  if (values.is_none()) {
    hpy::raise(hp::Error{hp::ErrorCode::not_a_number, f, hp::kWholeField, 0.0, hpy::short_repr(values)});
  }
  return hpy::values_from(values, f);
}

py::dict limits() {
  return hpy::python_object([](auto&& visit) { hp::limits::visit_fields(visit); }, hpy::Arrays::lists);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "The heteropipe C++ core (closed forms, exact schedule engine, shared parser, command line).";
  m.attr("version") = hp::kVersion;
  m.attr("limits") = limits();

  hpy::bind_float64_array(m);
  hpy::bind_float_sequence(m);
  hpy::bind_pipeline(m);
  hpy::bind_cli(m);
  hpy::bind_plan(m);
  hpy::bind_trace(m);

  m.def("parse_number_list", &number_list, py::arg("values"), py::arg("field") = "tau");
  m.def(
      "parse_number",
      [](py::handle text, py::handle field) {
        const hp::Field f = hpy::field_from(field);
        return hpy::value_or_raise(hp::parse_number(hpy::text_from(text, f), f));
      },
      py::arg("text"), py::arg("field"));
  m.def(
      "parse_count",
      [](py::handle text, py::handle field) {
        const hp::Field f = hpy::field_from(field);
        return hpy::count_from_text(hpy::text_from(text, f), f);
      },
      py::arg("text"), py::arg("field"),
      "A count (M or points) typed as text, by the core's rules: a whole number in the field's range.");
  m.def("analyze", &analyze_values, py::arg("tau"), py::arg("d") = py::none(), py::arg("M") = 8.0,
        py::arg("rho") = 1.0, py::arg("T_real") = py::none(), py::arg("lists") = true);
  m.def("read_request", &read_typed, py::arg("tau"), py::arg("d") = "", py::arg("M") = "8", py::arg("rho") = "1",
        py::arg("T_real") = py::none());
  m.def("check_batches", &hpy::require_batches, py::arg("M"),
        "Raises the core's error for a bad number of micro-batches.");
  m.def("describe", &hpy::describe, py::arg("code"), py::arg("field"), py::arg("index"), py::arg("value"),
        py::arg("token"), py::arg("limit"), py::arg("fits_quant") = "", py::arg("fits_with_device") = py::none(),
        py::arg("column") = py::none(), py::arg("typed") = "",
        "The core's English sentence for an error given by its parts (index None for the whole field; "
        "fits_with_device None for no device; column None but for a matrix's cell; typed \"\" but for a trace "
        "file's value as typed).");
}
