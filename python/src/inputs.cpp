#include "inputs.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "errors.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "strings.hpp"

namespace heteropipe::python {
namespace {

[[noreturn]] void raise_not_a_number(Field field, std::int64_t index, py::handle item) {
  raise(Error{ErrorCode::not_a_number, field, index, 0.0, short_repr(item)});
}

// A C-contiguous one-dimensional buffer of doubles (array('d'), numpy
// float64), copied in one go; nullopt for anything else.
std::optional<std::vector<double>> doubles_from_buffer(py::handle obj) {
  if (!PyObject_CheckBuffer(obj.ptr())) return std::nullopt;
  Py_buffer view;
  if (PyObject_GetBuffer(obj.ptr(), &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) != 0) {
    PyErr_Clear();
    return std::nullopt;
  }
  std::optional<std::vector<double>> values;
  const std::string_view format = view.format ? view.format : "B";
  if (view.ndim == 1 && view.itemsize == sizeof(double) && (format == "d" || format == "<d" || format == "@d")) {
    const auto* begin = static_cast<const double*>(view.buf);
    values.emplace(begin, begin + view.len / static_cast<Py_ssize_t>(sizeof(double)));
  }
  PyBuffer_Release(&view);
  return values;
}

double number_from(py::handle item, Field field, std::int64_t index) {
  if (PyUnicode_Check(item.ptr())) {
    auto parsed = parse_number(utf8_of(item), field);
    if (!parsed) {
      Error e = parsed.error();
      e.index = index;
      raise(e);
    }
    return parsed.value();
  }
  if (PyBool_Check(item.ptr())) raise_not_a_number(field, index, item);
  auto number = py::reinterpret_steal<py::object>(PyNumber_Float(item.ptr()));
  if (!number) {
    PyErr_Clear();
    raise_not_a_number(field, index, item);
  }
  return PyFloat_AS_DOUBLE(number.ptr());
}

}  // namespace

std::vector<double> values_from(py::handle obj, Field field) {
  if (obj.is_none()) return {};
  if (PyUnicode_Check(obj.ptr())) return value_or_raise(parse_number_list(utf8_of(obj), field));
  if (auto values = doubles_from_buffer(obj)) return std::move(*values);

  auto iterator = py::reinterpret_steal<py::object>(PyObject_GetIter(obj.ptr()));
  if (!iterator) {
    PyErr_Clear();
    raise_not_a_number(field, kWholeField, obj);
  }
  std::vector<double> values;
  const Py_ssize_t hint = PyObject_LengthHint(obj.ptr(), 0);
  if (hint < 0) PyErr_Clear();  // a broken __length_hint__ only costs the reservation
  if (hint > 0 && hint <= limits::kMaxStages + 1) values.reserve(static_cast<std::size_t>(hint));
  while (auto item = py::reinterpret_steal<py::object>(PyIter_Next(iterator.ptr()))) {
    const auto index = static_cast<std::int64_t>(values.size());
    if (index > limits::kMaxStages) break;  // the core names the limit
    values.push_back(number_from(item, field, index));
  }
  if (PyErr_Occurred()) throw py::error_already_set();
  return values;
}

Regime regime_from(const std::string& name) {
  for (Regime r : {Regime::asynchronous, Regime::blocking}) {
    if (regime_name(r) == name) return r;
  }
  throw py::value_error("unknown regime '" + name + "' (expected 'asynchronous' or 'blocking')");
}

}  // namespace heteropipe::python
