#pragma once

#include <pybind11/pybind11.h>

// The parts of heteropipe._core, each defined in its own file and put
// together in module.cpp.
namespace heteropipe::python {

namespace py = pybind11;

void bind_float64_array(py::module_& m);  // float64_array.cpp
void bind_pipeline(py::module_& m);       // pipeline_binding.cpp
void bind_cli(py::module_& m);            // cli_binding.cpp
void bind_trace(py::module_& m);          // trace_binding.cpp

}  // namespace heteropipe::python
