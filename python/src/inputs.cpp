#include "inputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "errors.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "number_buffer.hpp"
#include "strings.hpp"

namespace heteropipe::python {
namespace {

[[noreturn]] void raise_not_a_number(Field field, std::int64_t index, py::handle item) {
  raise(Error{ErrorCode::not_a_number, field, index, 0.0, short_repr(item)});
}

// numpy's booleans and complex numbers, told by their type's name (numpy
// need not be installed): float() reads them (True as 1, a complex as its real
// part), but neither is a number here, as a Python bool or complex is not.
bool is_numpy_bool_or_complex(PyObject* obj) {
  const py::handle type(reinterpret_cast<PyObject*>(Py_TYPE(obj)));
  const py::object module = py::getattr(type, "__module__", py::none()), name = py::getattr(type, "__name__", py::none());
  if (!py::isinstance<py::str>(module) || !py::isinstance<py::str>(name) || module.cast<std::string>() != "numpy") {
    return false;
  }
  const std::string n = name.cast<std::string>();
  return n == "bool_" || n == "bool" || n.rfind("complex", 0) == 0 || n.rfind("clongdouble", 0) == 0;
}

double number_from(py::handle item, Field field, std::int64_t index) {
  PyObject* obj = item.ptr();
  // A subnormal float (5e-324) is judged by the core's checks (Pipeline::create, the simulator's,
  // the trace import's), as every front end's is; its error quotes it as Python writes it (errors.cpp).
  if (PyFloat_Check(obj)) return PyFloat_AS_DOUBLE(obj);
  if (is_text(obj)) {
    auto parsed = parse_number(utf8_of(item), field);
    if (!parsed) {
      Error e = parsed.error();
      e.index = index;
      raise(e);
    }
    return parsed.value();
  }
  if (PyBool_Check(obj) || PyComplex_Check(obj) || is_numpy_bool_or_complex(obj)) raise_not_a_number(field, index, item);
  auto number = py::reinterpret_steal<py::object>(PyNumber_Float(obj));
  if (number) {
    // A number other than 0 that float() turns into 0 or a subnormal
    // (Decimal('1e-400'), Fraction(1, 10**400)): the core's error for the
    // same number typed as text, quoting the item as given.
    const double value = PyFloat_AS_DOUBLE(number.ptr());
    if (std::fabs(value) < limits::kMinNormalNumber) {
      const int nonzero = PyObject_IsTrue(obj);
      if (nonzero < 0) throw py::error_already_set();
      if (nonzero == 1) {
        Error e = parse_number("1e-400", field).error();
        e.index = index;
        e.token = short_repr(item);
        raise(e);
      }
    }
    return value;
  }
  // An interruption (KeyboardInterrupt) goes on as it is; an ordinary
  // exception becomes the cause of the coded error.
  if (!PyErr_ExceptionMatches(PyExc_Exception)) throw py::error_already_set();
  const bool overflow = PyErr_ExceptionMatches(PyExc_OverflowError);
  py::object cause = take_exception();
  if (overflow) {
    // An int (or Fraction) past the double range: the core's error for the
    // same magnitude typed as text, quoting the item as given.
    const bool negative = PyObject_RichCompareBool(obj, py::int_(0).ptr(), Py_LT) == 1;
    PyErr_Clear();  // a failed comparison only loses the sign
    Error e = parse_number(negative ? "-1e400" : "1e400", field).error();
    e.index = index;
    e.token = short_repr(item);
    raise_from(e, cause);
  }
  raise_from(Error{ErrorCode::not_a_number, field, index, 0.0, short_repr(item)}, cause);
}

// Items of a list or tuple, read in place. The size is read again at every
// item, because converting an item may run code that changes the list.
std::vector<double> values_of_sequence(py::handle sequence, Field field) {
  PyObject* seq = sequence.ptr();
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(std::min<Py_ssize_t>(PySequence_Fast_GET_SIZE(seq), limits::kMaxStages + 1)));
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); ++i) {
    if (i > limits::kMaxStages) break;  // the core names the limit
    const auto item = py::reinterpret_borrow<py::object>(PySequence_Fast_GET_ITEM(seq, i));
    values.push_back(number_from(item, field, static_cast<std::int64_t>(i)));
  }
  return values;
}

// A mapping iterates over its keys and a set in no order of the caller's:
// read as lists they give other numbers than meant (clock_offsets={1: 12.3}
// read as [1]; tau={3, 1, 2} as 1, 2, 3), so they are refused whole.
bool keyed_or_unordered(py::handle obj) {
  if (PyDict_Check(obj.ptr()) || PyAnySet_Check(obj.ptr())) return true;
  const int mapping = PyObject_IsInstance(obj.ptr(), py::module_::import("collections.abc").attr("Mapping").ptr());
  if (mapping < 0) throw py::error_already_set();
  return mapping == 1;
}

std::vector<double> values_of_iterable(py::handle obj, Field field) {
  auto iterator = py::reinterpret_steal<py::object>(PyObject_GetIter(obj.ptr()));
  if (!iterator) {
    if (!PyErr_ExceptionMatches(PyExc_Exception)) throw py::error_already_set();
    PyErr_Clear();  // not iterable: the message says what it should have been
    raise_not_a_number(field, kWholeField, obj);
  }
  std::vector<double> values;
  const Py_ssize_t hint = PyObject_LengthHint(obj.ptr(), 0);
  if (hint < 0) PyErr_Clear();  // a broken __length_hint__ only costs the reservation
  if (hint > 0 && hint <= limits::kMaxStages + 1) values.reserve(static_cast<std::size_t>(hint));
  for (;;) {
    const auto index = static_cast<std::int64_t>(values.size());
    auto item = py::reinterpret_steal<py::object>(PyIter_Next(iterator.ptr()));
    if (!item) {
      if (!PyErr_Occurred()) break;
      // The iterable failed before giving this item.
      if (!PyErr_ExceptionMatches(PyExc_Exception)) throw py::error_already_set();
      py::object cause = take_exception();
      raise_from(Error{ErrorCode::not_a_number, field, index, 0.0, short_repr(cause)}, cause);
    }
    if (index > limits::kMaxStages) break;  // the core names the limit
    values.push_back(number_from(item, field, index));
  }
  return values;
}

}  // namespace

std::vector<double> values_from(py::handle obj, Field field) {
  if (obj.is_none()) return {};
  if (is_text(obj)) return value_or_raise(parse_number_list(utf8_of(obj), field));
  if (auto values = numbers_from_buffer(obj, field)) return std::move(*values);
  if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) return values_of_sequence(obj, field);
  if (keyed_or_unordered(obj)) raise_not_a_number(field, kWholeField, obj);
  return values_of_iterable(obj, field);
}

std::string text_from(py::handle obj, Field field) {
  if (!is_text(obj)) raise_not_a_number(field, kWholeField, obj);
  return utf8_of(obj);
}

Regime regime_from(const std::string& name) {
  if (auto regime = regime_from_name(name)) return *regime;
  throw py::value_error("unknown regime '" + name + "' (expected 'async' or 'blocking')");
}

}  // namespace heteropipe::python
