#pragma once

#include <vector>

#include <pybind11/pybind11.h>

namespace heteropipe::python {

namespace py = pybind11;

// Lists of floats built in place, for the lists of one result. A value equal,
// bit for bit, to the one before it in its list, or to the one at the same
// position in an earlier list of the same length, shares that float object
// (floats are immutable). So d's zeros, sigma where it equals tau, and
// link_margin where it equals link_slack cost no objects: a large analysis
// then makes half the objects, in half the time and memory.
class FloatLists {
 public:
  py::list make(const std::vector<double>& values);

 private:
  std::vector<py::list> built_;
};

// One list of floats, on its own.
inline py::list float_list(const std::vector<double>& values) { return FloatLists().make(values); }

}  // namespace heteropipe::python
