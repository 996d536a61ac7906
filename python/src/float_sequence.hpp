#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include "heteropipe/visit.hpp"

namespace heteropipe::python {

namespace py = pybind11;

// A read-only sequence of floats that reads a result's own memory, or
// computes each value when asked (a ComputedList): no Python object per value,
// and for a computed list no array at all, until one is asked for. It indexes
// (negative indexes and slices too), has a len, iterates, compares equal to a
// list of the same floats, converts with list(...) and tolist(), and shows
// itself as a list does; memoryview and numpy read it in place (buffer
// protocol; a computed list makes its array then, once).
class FloatSequence {
 public:
  // Values that `owner` keeps alive (the result they belong to).
  FloatSequence(std::shared_ptr<const void> owner, const double* data, std::size_t size)
      : owner_(std::move(owner)), data_(data), size_(size) {}
  // Values of its own.
  explicit FloatSequence(std::vector<double> values);
  // Values computed when asked.
  explicit FloatSequence(ComputedList computed);

  double operator[](std::size_t i) const { return data_ ? data_[i] : computed_->at(static_cast<std::int64_t>(i)); }
  std::size_t size() const { return size_; }
  // The values in one array, made on the first call for a computed list.
  const double* data() const;

 private:
  std::shared_ptr<const void> owner_;
  const double* data_ = nullptr;
  std::size_t size_ = 0;
  // A computed list, and its array once data() made it (shared by copies).
  std::shared_ptr<const ComputedList> computed_;
  std::shared_ptr<std::vector<double>> made_;
};

void bind_float_sequence(py::module_& m);

}  // namespace heteropipe::python
