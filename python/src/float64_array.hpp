#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace heteropipe::python {

// A read-only array of doubles handed to Python without a copy per element:
// it exposes the buffer protocol (memoryview, array.array, numpy.asarray all
// read it in place) and a tolist() for plain Python.
class Float64Array {
 public:
  explicit Float64Array(std::vector<double> values) : values_(std::move(values)) {}

  const double* data() const { return values_.data(); }
  std::size_t size() const { return values_.size(); }
  double at(std::size_t i) const { return values_[i]; }

 private:
  std::vector<double> values_;
};

}  // namespace heteropipe::python
