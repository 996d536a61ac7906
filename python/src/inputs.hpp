#pragma once

#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "heteropipe/error.hpp"
#include "heteropipe/schedule.hpp"

// Python arguments to the core's inputs. Only conversion happens here; every
// range is judged by the core.
namespace heteropipe::python {

namespace py = pybind11;

// tau or d: None (no values); text, as str or as UTF-8 bytes (the core's
// shared parser); a buffer of numbers (number_buffer.hpp); or any iterable of
// numbers or numeric text. Errors name the 0-based item: an item that is not
// a number, an int beyond the double range (too_large, as the parser says
// for 1e400), or an exception raised by the iterable (not_a_number, with
// that exception as its cause).
std::vector<double> values_from(py::handle obj, Field field);

// A text argument (str, bytes or bytearray) as UTF-8 bytes; anything else is
// refused as not_a_number for the whole field.
std::string text_from(py::handle obj, Field field);

// "async" or "blocking", or a former spelling ("asynchronous", "block"; regime_from_name).
Regime regime_from(const std::string& name);

}  // namespace heteropipe::python
