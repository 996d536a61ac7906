#pragma once

#include <string>
#include <string_view>

#include <pybind11/pybind11.h>

// Text between Python and the core, which reads and writes UTF-8 bytes.
namespace heteropipe::python {

namespace py = pybind11;

// Whether obj is text to the core: a str, or UTF-8 bytes (bytes, bytearray).
bool is_text(py::handle obj);

// The UTF-8 bytes of a str (or the bytes of a bytes or bytearray). Undecodable
// bytes that Python carries as surrogates (sys.argv, os.fsdecode) go back to
// the bytes they came from, so the core sees what was typed; any other lone
// surrogate is passed through as its three bytes, which the core then refuses
// as it refuses any text that is not a number, and quotes escaped.
// Anything else: TypeError (callers check is_text first).
std::string utf8_of(py::handle text);

// Bytes from the core as a str. A lone surrogate passed through by utf8_of
// comes back as that surrogate; other bytes that are not UTF-8 become
// surrogates, as Python does for sys.argv. Either way utf8_of gives the
// bytes back unchanged.
py::str decoded(std::string_view bytes);

// What an error quotes of a bad argument: heteropipe._errors.token_of(obj),
// its repr cut to 40 characters (never failing, whatever obj is).
std::string short_repr(py::handle obj);

}  // namespace heteropipe::python
