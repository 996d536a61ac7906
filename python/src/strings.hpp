#pragma once

#include <string>
#include <string_view>

#include <pybind11/pybind11.h>

// Text between Python and the core, which reads and writes UTF-8 bytes.
namespace heteropipe::python {

namespace py = pybind11;

// The UTF-8 bytes of a str (or the bytes of a bytes object). Undecodable
// bytes that Python carries as surrogates (sys.argv, os.fsdecode) go back to
// the bytes they came from, so the core sees what was typed; any other lone
// surrogate is passed through rather than refused. Anything else: TypeError.
std::string utf8_of(py::handle text);

// Bytes from the core as a str; bytes that are not UTF-8 become surrogates,
// as Python does for sys.argv, so utf8_of gives them back unchanged.
py::str decoded(std::string_view bytes);

// repr(obj), cut to 40 characters: what an error quotes of a bad argument.
std::string short_repr(py::handle obj);

}  // namespace heteropipe::python
