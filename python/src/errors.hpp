#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include "heteropipe/error.hpp"

// Core errors on their way to Python: each becomes a heteropipe.HeteropipeError
// (a ValueError) carrying the core's fields, whose message is the text
// library's one English sentence (describe below).
namespace heteropipe::python {

namespace py = pybind11;

py::object error_object(const Error& e);
// A HeteropipeError's core fields, read back (to place a row's error in its matrix).
Error error_of(py::handle error);
[[noreturn]] void raise(const Error& e);
// The first error, whose `errors` lists them all (the first is itself).
[[noreturn]] void raise(const std::vector<Error>& errors);

// The exception being handled, taken off Python's error indicator.
py::object take_exception();
// raise(e), with `cause` as its __cause__ (an argument's own exception, kept
// for whoever debugs it).
[[noreturn]] void raise_from(const Error& e, py::object cause);

template <class T>
T value_or_raise(Result<T>&& result) {
  if (!result) raise(result.error());
  return std::move(result).value();
}

void require_batches(double M);
void require_rho(double rho);
void require_T_real(double T_real);

// A field by its core name ("tau", "d", "M", "rho", "T_real", "points");
// ValueError for anything else.
Field field_from(py::handle name);

// A count typed as text (M or points) by the core's rules for counts: a whole
// number in the field's range, judged from its digits.
double count_from_text(const std::string& text, Field field);

// The sentence of the error with these parts, e.g. "tau, item 2: must be >= 0 (got -2)".
py::str describe(const std::string& code, const std::string& field, std::optional<std::int64_t> index,
                 double value, py::handle token, double limit, const std::string& fits_quant,
                 std::optional<std::int64_t> fits_with_device, std::optional<std::int64_t> column,
                 py::handle typed);

}  // namespace heteropipe::python
