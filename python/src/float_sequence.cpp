#include "float_sequence.hpp"

#include <iterator>
#include <string>

namespace heteropipe::python {

FloatSequence::FloatSequence(std::vector<double> values) : size_(values.size()) {
  auto owned = std::make_shared<const std::vector<double>>(std::move(values));
  data_ = owned->data();
  owner_ = std::move(owned);
}

FloatSequence::FloatSequence(ComputedList computed)
    : size_(static_cast<std::size_t>(computed.size)),
      computed_(std::make_shared<const ComputedList>(std::move(computed))),
      made_(std::make_shared<std::vector<double>>()) {}

const double* FloatSequence::data() const {
  if (data_) return data_;
  if (made_->size() != size_) *made_ = computed_->values();
  return made_->data();
}

namespace {

py::ssize_t length(const FloatSequence& s) { return static_cast<py::ssize_t>(s.size()); }

double item(const FloatSequence& s, py::ssize_t i) {
  if (i < 0) i += length(s);
  if (i < 0 || i >= length(s)) throw py::index_error("FloatSequence index out of range");
  return s[static_cast<std::size_t>(i)];
}

FloatSequence slice(const FloatSequence& s, const py::slice& range) {
  py::ssize_t start = 0, stop = 0, step = 0, count = 0;
  if (!range.compute(length(s), &start, &stop, &step, &count)) throw py::error_already_set();
  std::vector<double> values(static_cast<std::size_t>(count));
  for (py::ssize_t k = 0; k < count; ++k) values[static_cast<std::size_t>(k)] = s[static_cast<std::size_t>(start + k * step)];
  return FloatSequence(std::move(values));
}

py::list to_list(const FloatSequence& s) {
  auto list = py::reinterpret_steal<py::list>(PyList_New(length(s)));
  if (!list) throw py::error_already_set();
  for (py::ssize_t i = 0; i < length(s); ++i) {
    PyObject* value = PyFloat_FromDouble(s[static_cast<std::size_t>(i)]);
    if (!value) throw py::error_already_set();  // the list frees the items set so far
    PyList_SET_ITEM(list.ptr(), i, value);
  }
  return list;
}

// Equal to another FloatSequence or to a list holding equal values (compared
// as Python compares a float with each item); anything else is not ours to judge.
py::object equals(const FloatSequence& s, const py::object& other) {
  if (py::isinstance<FloatSequence>(other)) {
    const auto& o = other.cast<const FloatSequence&>();
    bool same = o.size() == s.size();
    for (std::size_t i = 0; same && i < s.size(); ++i) same = s[i] == o[i];
    return py::bool_(same);
  }
  if (!PyList_Check(other.ptr())) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  if (PyList_GET_SIZE(other.ptr()) != length(s)) return py::bool_(false);
  for (py::ssize_t i = 0; i < length(s); ++i) {
    PyObject* theirs = PyList_GET_ITEM(other.ptr(), i);
    if (PyFloat_CheckExact(theirs)) {
      if (PyFloat_AS_DOUBLE(theirs) != s[static_cast<std::size_t>(i)]) return py::bool_(false);
      continue;
    }
    const py::object mine = py::float_(s[static_cast<std::size_t>(i)]);
    const auto keep = py::reinterpret_borrow<py::object>(theirs);  // the list may change during the comparison
    const int same = PyObject_RichCompareBool(mine.ptr(), keep.ptr(), Py_EQ);
    if (same < 0) throw py::error_already_set();
    if (!same) return py::bool_(false);
  }
  return py::bool_(true);
}

std::string repr(const FloatSequence& s) {
  std::string text = "[";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) text += ", ";
    text += py::repr(py::float_(s[i])).cast<std::string>();
  }
  return text + "]";
}

// Walks a sequence by index, forwards or backwards, so that a computed one
// never makes its array to be iterated.
struct Cursor {
  const FloatSequence* sequence;
  std::size_t index;
  bool backwards;
  double operator*() const { return (*sequence)[backwards ? sequence->size() - 1 - index : index]; }
  Cursor& operator++() {
    ++index;
    return *this;
  }
  bool operator==(const Cursor& other) const { return index == other.index; }
  bool operator!=(const Cursor& other) const { return index != other.index; }
};

py::iterator walk(const FloatSequence& s, bool backwards) {
  return py::make_iterator(Cursor{&s, 0, backwards}, Cursor{&s, s.size(), backwards});
}

}  // namespace

void bind_float_sequence(py::module_& m) {
  py::class_<FloatSequence>(m, "FloatSequence", py::buffer_protocol(),
                            "A read-only sequence of floats backed by a result's memory; equal to the list of "
                            "the same values, and list(...) or tolist() makes one.")
      .def_buffer([](FloatSequence& s) {
        return py::buffer_info(const_cast<double*>(s.data()), sizeof(double), py::format_descriptor<double>::format(),
                               1, {length(s)}, {static_cast<py::ssize_t>(sizeof(double))}, /*readonly=*/true);
      })
      .def("__len__", &length)
      .def("__getitem__", &item)
      .def("__getitem__", &slice)
      .def(
          "__iter__", [](const FloatSequence& s) { return walk(s, false); }, py::keep_alive<0, 1>())
      .def(
          "__reversed__", [](const FloatSequence& s) { return walk(s, true); }, py::keep_alive<0, 1>())
      .def("__contains__",
           [](const FloatSequence& s, const py::object& value) {
             for (std::size_t i = 0; i < s.size(); ++i) {
               const int same = PyObject_RichCompareBool(py::float_(s[i]).ptr(), value.ptr(), Py_EQ);
               if (same < 0) throw py::error_already_set();
               if (same) return true;
             }
             return false;
           })
      .def("__eq__", &equals, py::is_operator())
      .def(
          "__ne__",
          [](const FloatSequence& s, const py::object& other) {
            py::object same = equals(s, other);
            if (same.is(py::reinterpret_borrow<py::object>(Py_NotImplemented))) return same;
            return py::object(py::bool_(!same.cast<bool>()));
          },
          py::is_operator())
      .def("tolist", &to_list)
      .def("__repr__", &repr)
      .attr("__hash__") = py::none();
}

}  // namespace heteropipe::python
