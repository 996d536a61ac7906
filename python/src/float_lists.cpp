#include "float_lists.hpp"

#include <cstring>

namespace heteropipe::python {
namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

}  // namespace

py::list FloatLists::make(const std::vector<double>& values) {
  const auto n = static_cast<Py_ssize_t>(values.size());
  std::vector<PyObject*> alike;  // earlier lists of the same length
  for (const py::list& list : built_) {
    if (PyList_GET_SIZE(list.ptr()) == n) alike.push_back(list.ptr());
  }
  auto list = py::reinterpret_steal<py::list>(PyList_New(n));
  if (!list) throw py::error_already_set();
  for (Py_ssize_t i = 0; i < n; ++i) {
    const double x = values[static_cast<std::size_t>(i)];
    PyObject* item = nullptr;
    if (i > 0 && same_bits(x, values[static_cast<std::size_t>(i - 1)])) item = PyList_GET_ITEM(list.ptr(), i - 1);
    for (std::size_t k = 0; !item && k < alike.size(); ++k) {
      PyObject* other = PyList_GET_ITEM(alike[k], i);
      if (same_bits(x, PyFloat_AS_DOUBLE(other))) item = other;
    }
    if (item) {
      Py_INCREF(item);
    } else if (!(item = PyFloat_FromDouble(x))) {
      throw py::error_already_set();  // the list frees the items set so far
    }
    PyList_SET_ITEM(list.ptr(), i, item);
  }
  built_.push_back(list);
  return list;
}

}  // namespace heteropipe::python
