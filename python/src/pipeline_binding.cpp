// heteropipe._core.Pipeline: the core's Pipeline and every formula on it.
// Scalars are checked by the core before each call; results cross through
// the generic serializer (to_python.hpp). Long work (building a large
// pipeline, the recurrence, the timeline, the curve) runs without the GIL, so
// other Python threads go on meanwhile; the core's Pipeline is immutable.
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
#include "without_gil.hpp"

namespace heteropipe::python {
namespace {

std::shared_ptr<Pipeline> make_pipeline(py::handle tau, py::handle d) {
  std::vector<double> tau_values = values_from(tau, Field::tau);
  std::vector<double> d_values = values_from(d, Field::d);
  std::optional<Result<Pipeline>> created;
  {
    WithoutGil unlocked(static_cast<double>(tau_values.size()));
    created.emplace(Pipeline::create(std::move(tau_values), std::move(d_values)));
  }
  return std::make_shared<Pipeline>(value_or_raise(std::move(*created)));
}

double work_of(const Pipeline& p, double M) { return static_cast<double>(p.S()) * M; }

double recurrence(const Pipeline& p, double M, const std::string& regime) {
  require_batches(M);
  const Regime r = regime_from(regime);
  std::optional<Result<double>> makespan;
  {
    WithoutGil unlocked(work_of(p, M));
    makespan.emplace(recurrence_makespan(p, M, r));
  }
  return value_or_raise(std::move(*makespan));
}

py::dict make_timeline(const Pipeline& p, double M, const std::string& regime) {
  require_batches(M);
  const Regime r = regime_from(regime);
  std::optional<Result<Timeline>> schedule;
  {
    WithoutGil unlocked(work_of(p, M));
    schedule.emplace(timeline(p, M, r));
  }
  return to_python(value_or_raise(std::move(*schedule)), Arrays::buffers);
}

// points: a count the Python layer read by the core's rules (Field::points).
py::dict make_curve(const Pipeline& p, double M, std::int64_t points) {
  require_batches(M);
  Curve curve;
  {
    WithoutGil unlocked(static_cast<double>(points));
    curve = makespan_curve(p, curve_batches(p, M, points));
  }
  return to_python(curve, Arrays::buffers);
}

py::dict make_analysis(std::shared_ptr<Pipeline> p, double M, double rho, std::optional<double> T_real,
                       bool with_lists) {
  require_batches(M);
  require_rho(rho);
  if (T_real) require_T_real(*T_real);
  const Analysis a = analyze(std::move(p), M, rho, T_real);
  const Lists lists = with_lists ? Lists::include : Lists::omit;
  // tau and d are the pipeline's own lists, which it keeps alive for their sequences.
  return python_object([&a, lists](auto&& visit) { visit_fields(a, visit, lists); }, Arrays::sequences, a.pipeline);
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
      .def_property_readonly("tau", [](const P& p) { return float_list(p.tau()); })
      .def_property_readonly("d", [](const P& p) { return float_list(p.d()); })
      .def_property_readonly("sigma", [](const P& p) { return float_list(p.sigma()); })
      .def("same_stages", [](const P& p, const P& other) { return p.tau() == other.tau() && p.d() == other.d(); })
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
      .def("analyze", &make_analysis, py::arg("M"), py::arg("rho") = 1.0, py::arg("T_real") = py::none(),
           py::arg("lists") = true)
      .def("recurrence_makespan", &recurrence)
      .def("timeline", &make_timeline)
      .def("curve", &make_curve)
      .def("simulate", &simulate_dict, py::arg("M"), py::arg("links"), py::arg("shared"), py::arg("buffers"),
           py::arg("service"), py::arg("link_service"), py::arg("service_matrix"), py::arg("link_matrix"), py::arg("service_samples"),
           py::arg("quantiles"), py::arg("service_probabilities"), py::arg("scaled"), py::arg("reps"), py::arg("seed"), py::arg("timeline"));
}

}  // namespace heteropipe::python
