#include "strings.hpp"

namespace heteropipe::python {

bool is_text(py::handle obj) {
  return PyUnicode_Check(obj.ptr()) || PyBytes_Check(obj.ptr()) || PyByteArray_Check(obj.ptr());
}

std::string utf8_of(py::handle text) {
  PyObject* obj = text.ptr();
  if (PyBytes_Check(obj)) return std::string(PyBytes_AS_STRING(obj), static_cast<std::size_t>(PyBytes_GET_SIZE(obj)));
  if (PyByteArray_Check(obj)) {
    return std::string(PyByteArray_AS_STRING(obj), static_cast<std::size_t>(PyByteArray_GET_SIZE(obj)));
  }
  if (!PyUnicode_Check(obj)) throw py::type_error("expected str or bytes, got " + short_repr(text));
  Py_ssize_t size = 0;
  if (const char* utf8 = PyUnicode_AsUTF8AndSize(obj, &size)) return std::string(utf8, static_cast<std::size_t>(size));
  PyErr_Clear();  // a surrogate: not UTF-8 as it stands
  auto bytes = py::reinterpret_steal<py::object>(PyUnicode_AsEncodedString(obj, "utf-8", "surrogateescape"));
  if (!bytes) {
    PyErr_Clear();
    bytes = py::reinterpret_steal<py::object>(PyUnicode_AsEncodedString(obj, "utf-8", "surrogatepass"));
    if (!bytes) throw py::error_already_set();
  }
  return std::string(PyBytes_AS_STRING(bytes.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(bytes.ptr())));
}

py::str decoded(std::string_view bytes) {
  const auto size = static_cast<Py_ssize_t>(bytes.size());
  for (const char* errors : {"strict", "surrogatepass"}) {
    if (PyObject* text = PyUnicode_DecodeUTF8(bytes.data(), size, errors)) return py::reinterpret_steal<py::str>(text);
    PyErr_Clear();
  }
  PyObject* text = PyUnicode_DecodeUTF8(bytes.data(), size, "surrogateescape");
  if (!text) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(text);
}

std::string short_repr(py::handle obj) {
  return utf8_of(py::module_::import("heteropipe._errors").attr("token_of")(obj));
}

}  // namespace heteropipe::python
