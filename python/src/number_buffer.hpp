#pragma once

#include <optional>
#include <vector>

#include <pybind11/pybind11.h>

#include "heteropipe/error.hpp"

namespace heteropipe::python {

namespace py = pybind11;

// The numbers of a one-dimensional buffer (array.array, memoryview, numpy
// and ctypes arrays), read in C++ without a Python object per item: float64
// in one copy, float32 and the integer formats converted, any byte order and
// any stride. nullopt for an object without a buffer, or whose items are
// read here in no other way than one by one (float16, characters, structs):
// those go through iteration. Refused (not_a_number): a buffer of more or
// fewer than one dimension (the whole field), and a buffer of bools (item 1,
// as a bool is refused).
std::optional<std::vector<double>> numbers_from_buffer(py::handle obj, Field field);

}  // namespace heteropipe::python
