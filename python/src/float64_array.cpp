#include "float64_array.hpp"

#include <memory>
#include <string>

#include "bindings.hpp"

namespace heteropipe::python {

void bind_float64_array(py::module_& m) {
  py::class_<Float64Array, std::shared_ptr<Float64Array>>(m, "Float64Array", py::buffer_protocol(),
                                                          "Read-only doubles; supports memoryview and tolist().")
      .def_buffer([](Float64Array& a) {
        return py::buffer_info(const_cast<double*>(a.data()), sizeof(double), py::format_descriptor<double>::format(),
                               1, {static_cast<py::ssize_t>(a.size())}, {static_cast<py::ssize_t>(sizeof(double))},
                               /*readonly=*/true);
      })
      .def("__len__", &Float64Array::size)
      .def("__getitem__",
           [](const Float64Array& a, py::ssize_t i) {
             const auto n = static_cast<py::ssize_t>(a.size());
             if (i < 0) i += n;
             if (i < 0 || i >= n) throw py::index_error("Float64Array index out of range");
             return a.at(static_cast<std::size_t>(i));
           })
      .def("tolist",
           [](const Float64Array& a) {
             py::list out(a.size());
             for (std::size_t i = 0; i < a.size(); ++i) out[i] = py::float_(a.at(i));
             return out;
           })
      .def("__repr__", [](const Float64Array& a) { return "<Float64Array of " + std::to_string(a.size()) + ">"; });
}

}  // namespace heteropipe::python
