#pragma once

#include <optional>

#include <pybind11/pybind11.h>

namespace heteropipe::python {

// Lets other Python threads run while the core works, when the work (in
// items or cells) is large enough to be worth the two thread switches. Only
// C++ values may be touched while it lives.
class WithoutGil {
 public:
  explicit WithoutGil(double steps) {
    if (steps >= kWorthReleasing) release_.emplace();
  }

 private:
  static constexpr double kWorthReleasing = 10'000;
  std::optional<pybind11::gil_scoped_release> release_;
};

}  // namespace heteropipe::python
