// heteropipe._core.Pipeline: the core's Pipeline and every formula on it.
// Scalars are checked by the core before each call; results cross through
// the generic serializer (to_python.hpp).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "errors.hpp"
#include "heteropipe/heteropipe.hpp"
#include "inputs.hpp"
#include "to_python.hpp"

namespace heteropipe::python {
namespace {

std::shared_ptr<Pipeline> make_pipeline(py::handle tau, py::handle d) {
  std::vector<double> tau_values = values_from(tau, Field::tau);
  std::vector<double> d_values = values_from(d, Field::d);
  return std::make_shared<Pipeline>(value_or_raise(Pipeline::create(std::move(tau_values), std::move(d_values))));
}

py::dict make_timeline(const Pipeline& p, double M, const std::string& regime) {
  require_batches(M);
  return to_python(value_or_raise(timeline(p, M, regime_from(regime))), Arrays::buffers);
}

py::dict make_curve(const Pipeline& p, py::handle batches) {
  const std::vector<double> values = values_from(batches, Field::M);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (auto e = check_batches(values[i])) {
      e->index = static_cast<std::int64_t>(i);
      raise(*e);
    }
  }
  return to_python(makespan_curve(p, values), Arrays::buffers);
}

py::dict make_analysis(std::shared_ptr<Pipeline> p, double M, double rho, std::optional<double> T_real) {
  require_batches(M);
  require_rho(rho);
  if (T_real) require_T_real(*T_real);
  return to_python(analyze(std::move(p), M, rho, T_real), Arrays::lists);
}

// A formula of (pipeline, M) whose M the core checks first.
template <class Formula>
auto at_batches(Formula formula) {
  return [formula](const Pipeline& p, double M) {
    require_batches(M);
    return formula(p, M);
  };
}

template <class Formula>
auto at_measured(Formula formula) {
  return [formula](const Pipeline& p, double M, double T_real) {
    require_batches(M);
    require_T_real(T_real);
    return formula(p, M, T_real);
  };
}

}  // namespace

void bind_pipeline(py::module_& m) {
  using P = Pipeline;
  py::class_<P, std::shared_ptr<P>>(m, "Pipeline", "A validated chain of stages (the core's Pipeline).")
      .def(py::init(&make_pipeline), py::arg("tau"), py::arg("d") = py::none())
      .def_property_readonly("S", &P::S)
      .def_property_readonly("tau", &P::tau)
      .def_property_readonly("d", &P::d)
      .def_property_readonly("sigma", [](const P& p) { return p.sigma(); })
      .def_property_readonly("tau_max", &P::tau_max)
      .def_property_readonly("sigma_max", &P::sigma_max)
      .def_property_readonly("bottleneck_stage", &P::bottleneck_stage)
      .def_property_readonly("blocking_bottleneck_stage", &P::blocking_bottleneck_stage)
      .def("makespan_free", at_batches([](const P& p, double M) { return makespan_free(p, M); }))
      .def("makespan_async", at_batches([](const P& p, double M) { return makespan_async(p, M); }))
      .def("makespan_blocking", at_batches([](const P& p, double M) { return makespan_blocking(p, M); }))
      .def("makespan_gpipe", at_batches([](const P& p, double M) { return makespan_gpipe(p, M); }))
      .def("homogeneity_bias", &homogeneity_bias)
      .def("full_bias", &full_bias)
      .def("phase_transition", &phase_transition)
      .def("overlap_gap", at_batches([](const P& p, double M) { return overlap_gap(p, M); }))
      .def("effective_slope",
           [](const P& p, double rho) {
             require_rho(rho);
             return effective_slope(p, rho);
           })
      .def("asymptotic_throughput_async", &asymptotic_throughput_async)
      .def("asymptotic_throughput_blocking", &asymptotic_throughput_blocking)
      .def("crossover_batches", &crossover_batches)
      .def("gpipe_overestimate", at_batches([](const P& p, double M) { return gpipe_overestimate(p, M); }))
      .def("has_overlap_headroom", at_batches([](const P& p, double M) { return has_overlap_headroom(p, M); }))
      .def("overlap_ratio",
           at_measured([](const P& p, double M, double T_real) { return overlap_ratio(p, M, T_real); }))
      .def("sandwich_position", at_measured([](const P& p, double M, double T_real) {
             return std::string(sandwich_position_name(sandwich_position(p, M, T_real)));
           }))
      .def("analyze", &make_analysis, py::arg("M"), py::arg("rho") = 1.0, py::arg("T_real") = py::none())
      .def("recurrence_makespan",
           [](const P& p, double M, const std::string& regime) {
             require_batches(M);
             return value_or_raise(recurrence_makespan(p, M, regime_from(regime)));
           })
      .def("timeline", &make_timeline)
      .def("curve_batches",
           [](const P& p, double M, std::int64_t max_points) {
             require_batches(M);
             return curve_batches(p, M, max_points);
           })
      .def("makespan_curve", &make_curve);
}

}  // namespace heteropipe::python
