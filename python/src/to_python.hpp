#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

#include <pybind11/pybind11.h>

#include "float64_array.hpp"
#include "float_lists.hpp"
#include "heteropipe/visit.hpp"
#include "strings.hpp"

// Any visitable result as a Python dict (see heteropipe/visit.hpp): the same
// keys, in the same order, as the CLI's JSON. Every result the module returns
// is built here; no result has dict code of its own.
namespace heteropipe::python {

namespace py = pybind11;

// How number arrays cross: as lists (a result's per-stage series, which people
// compare with == and write with json.dumps; see float_lists.hpp), or as
// read-only Float64Array buffers (timelines and curves, which may hold
// millions of values).
enum class Arrays { lists, buffers };

template <class Fields>
py::dict python_object(const Fields& fields, Arrays arrays);

template <class T>
py::object python_value(const T& value, Arrays arrays, FloatLists& lists) {
  if constexpr (std::is_same_v<T, bool>) {
    return py::bool_(value);
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return py::int_(value);
  } else if constexpr (std::is_same_v<T, double>) {
    return py::float_(value);
  } else if constexpr (std::is_same_v<T, std::string_view>) {
    return decoded(value);
  } else if constexpr (std::is_same_v<T, std::vector<double>>) {
    if (arrays == Arrays::buffers) return py::cast(std::make_shared<Float64Array>(value));
    return lists.make(value);
  } else if constexpr (is_object<T>::value) {
    return python_object(value.fields, arrays);
  } else {
    static_assert(is_objects<T>::value, "a visitor reported a value outside the protocol of visit.hpp");
    py::list list;
    for (const auto& item : value.items) {
      list.append(python_object([&item](auto&& visit) { visit_fields(item, visit); }, arrays));
    }
    return std::move(list);
  }
}

template <class Fields>
py::dict python_object(const Fields& fields, Arrays arrays) {
  py::dict out;
  FloatLists lists;
  fields([&out, arrays, &lists](std::string_view name, const auto& value) {
    out[py::str(name.data(), name.size())] = python_value(value, arrays, lists);
  });
  return out;
}

// The dict of a result whose visit_fields is found by argument lookup.
template <class T>
py::dict to_python(const T& result, Arrays arrays) {
  return python_object([&result](auto&& visit) { visit_fields(result, visit); }, arrays);
}

}  // namespace heteropipe::python
