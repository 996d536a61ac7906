#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include <pybind11/pybind11.h>

#include "float64_array.hpp"
#include "float_sequence.hpp"
#include "float_lists.hpp"
#include "heteropipe/visit.hpp"
#include "strings.hpp"

// Any visitable result as a Python dict (see heteropipe/visit.hpp): the same
// keys, in the same order, as the CLI's JSON. Every result the module returns
// is built here; no result has dict code of its own.
namespace heteropipe::python {

namespace py = pybind11;

// How number arrays cross: as lists (see float_lists.hpp), as read-only
// Float64Array buffers (timelines and curves, which may hold millions of
// values), or as FloatSequences (an analysis's per-stage lists: read in place,
// and equal to the lists of their values; see float_sequence.hpp).
enum class Arrays { lists, buffers, sequences };

// What keeps a result's lists alive for FloatSequences that read them in
// place; without one, a sequence holds a copy of a list passed by reference.
using Owner = std::shared_ptr<const void>;

template <class Fields>
py::dict python_object(const Fields& fields, Arrays arrays, const Owner& owner = {});

// A list passed as a temporary (computed on demand, see visit.hpp) is moved.
template <class V>
py::object python_value(V&& value, Arrays arrays, FloatLists& lists, const Owner& owner) {
  using T = std::decay_t<V>;
  if constexpr (std::is_same_v<T, bool>) {
    return py::bool_(value);
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return py::int_(value);
  } else if constexpr (std::is_same_v<T, double>) {
    return py::float_(value);
  } else if constexpr (std::is_same_v<T, std::optional<double>>) {
    return value ? py::object(py::float_(*value)) : py::object(py::none());
  } else if constexpr (std::is_same_v<T, std::optional<std::vector<double>>>) {
    if (!value) return py::none();
    return python_value(static_cast<const std::vector<double>&>(*value), arrays, lists, owner);
  } else if constexpr (std::is_same_v<T, std::string_view>) {
    return decoded(value);
  } else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>) {
    py::list list(value.size());
    for (std::size_t i = 0; i < value.size(); ++i) list[i] = py::int_(value[i]);
    return std::move(list);
  } else if constexpr (std::is_same_v<T, ComputedList>) {
    if (arrays == Arrays::sequences) return py::cast(FloatSequence(value));
    return python_value(value.values(), arrays, lists, owner);
  } else if constexpr (std::is_same_v<T, std::vector<double>>) {
    if (arrays == Arrays::buffers) return py::cast(std::make_shared<Float64Array>(value));
    if (arrays == Arrays::sequences) {
      if constexpr (!std::is_lvalue_reference_v<V>) return py::cast(FloatSequence(std::move(value)));
      if (owner) return py::cast(FloatSequence(owner, value.data(), value.size()));
      return py::cast(FloatSequence(value));
    }
    return lists.make(value);
  } else if constexpr (is_object<T>::value) {
    return python_object(value.fields, arrays, owner);
  } else if constexpr (is_tuples<T>::value) {
    py::list list;
    for (const auto& item : value.items) {
      py::list tuple;
      visit_fields(item, [&](std::string_view, auto&& element) {
        tuple.append(python_value(std::forward<decltype(element)>(element), arrays, lists, owner));
      });
      list.append(std::move(tuple));
    }
    return std::move(list);
  } else {
    static_assert(is_objects<T>::value, "a visitor reported a value outside the protocol of visit.hpp");
    py::list list;
    for (const auto& item : value.items) {
      list.append(python_object([&item](auto&& visit) { visit_fields(item, visit); }, arrays, owner));
    }
    return std::move(list);
  }
}

template <class Fields>
py::dict python_object(const Fields& fields, Arrays arrays, const Owner& owner) {
  py::dict out;
  FloatLists lists;
  fields([&out, arrays, &lists, &owner](std::string_view name, auto&& value) {
    out[py::str(name.data(), name.size())] =
        python_value(std::forward<decltype(value)>(value), arrays, lists, owner);
  });
  return out;
}

// The dict of a result whose visit_fields is found by argument lookup.
template <class T>
py::dict to_python(const T& result, Arrays arrays) {
  return python_object([&result](auto&& visit) { visit_fields(result, visit); }, arrays);
}

}  // namespace heteropipe::python
