#include "strings.hpp"

namespace heteropipe::python {

std::string utf8_of(py::handle text) {
  if (PyBytes_Check(text.ptr())) return std::string(py::reinterpret_borrow<py::bytes>(text));
  if (!PyUnicode_Check(text.ptr())) throw py::type_error("expected str, got " + short_repr(text));
  auto bytes = py::reinterpret_steal<py::object>(PyUnicode_AsEncodedString(text.ptr(), "utf-8", "surrogateescape"));
  if (!bytes) {
    PyErr_Clear();
    bytes = py::reinterpret_steal<py::object>(PyUnicode_AsEncodedString(text.ptr(), "utf-8", "surrogatepass"));
    if (!bytes) throw py::error_already_set();
  }
  return std::string(py::reinterpret_borrow<py::bytes>(bytes));
}

py::str decoded(std::string_view bytes) {
  return py::reinterpret_steal<py::str>(
      PyUnicode_DecodeUTF8(bytes.data(), static_cast<Py_ssize_t>(bytes.size()), "surrogateescape"));
}

std::string short_repr(py::handle obj) {
  std::string text = py::repr(obj).cast<std::string>();
  constexpr std::size_t kMax = 40;
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

}  // namespace heteropipe::python
