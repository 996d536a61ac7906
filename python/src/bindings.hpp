#pragma once

#include <string>

#include <pybind11/pybind11.h>

#include "heteropipe/pipeline.hpp"

// The parts of heteropipe._core, each defined in its own file and put
// together in module.cpp.
namespace heteropipe::python {

namespace py = pybind11;

void bind_float64_array(py::module_& m);  // float64_array.cpp
void bind_pipeline(py::module_& m);       // pipeline_binding.cpp
void bind_cli(py::module_& m);            // cli_binding.cpp
void bind_plan(py::module_& m);           // plan_binding.cpp

// Pipeline.simulate (sim_binding.cpp): every option checked by the core.
py::dict simulate_dict(const Pipeline& p, double M, const std::string& links, py::handle shared, py::handle buffers,
                       py::handle service, py::handle link_service, py::handle service_matrix,
                       py::handle link_matrix,
                       py::handle service_samples, bool quantiles, py::handle service_probabilities, bool scaled,
                       double reps, double seed, bool timeline);
void bind_trace(py::module_& m);          // trace_binding.cpp

}  // namespace heteropipe::python
