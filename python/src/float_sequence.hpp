#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

namespace heteropipe::python {

namespace py = pybind11;

// A read-only sequence of floats that reads a result's own memory: no Python
// object per value until one is asked for. It indexes (negative indexes and
// slices too), has a len, iterates, compares equal to a list of the same
// floats, converts with list(...) and tolist(), and shows itself as a list
// does; memoryview and numpy read it in place (buffer protocol).
class FloatSequence {
 public:
  // Values that `owner` keeps alive (the result they belong to).
  FloatSequence(std::shared_ptr<const void> owner, const double* data, std::size_t size)
      : owner_(std::move(owner)), data_(data), size_(size) {}
  // Values of its own.
  explicit FloatSequence(std::vector<double> values);

  const double* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  std::shared_ptr<const void> owner_;
  const double* data_;
  std::size_t size_;
};

void bind_float_sequence(py::module_& m);

}  // namespace heteropipe::python
