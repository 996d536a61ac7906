#pragma once

#include <vector>

#include <pybind11/pybind11.h>

#include "heteropipe/error.hpp"
#include "heteropipe/schedule.hpp"

// Python arguments to the core's inputs. Only conversion happens here; every
// range is judged by the core.
namespace heteropipe::python {

namespace py = pybind11;

// tau or d: None (no values), text (the core's shared parser), a buffer of
// doubles, or any iterable of numbers or numeric text. Errors name the
// 0-based item.
std::vector<double> values_from(py::handle obj, Field field);

// "asynchronous" or "blocking" (the pure-Python layer maps the aliases).
Regime regime_from(const std::string& name);

}  // namespace heteropipe::python
