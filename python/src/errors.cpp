#include "errors.hpp"

#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "heteropipe/pipeline.hpp"
#include "heteropipe/text/error_text.hpp"
#include "strings.hpp"

namespace heteropipe::python {
namespace {

// Both enums count up from 0, and their names end in "unknown" past the last
// value, so a name is found without a second list of the values.
template <class Enum, class NameOf>
std::optional<Enum> by_name(std::string_view name, NameOf name_of) {
  for (int i = 0;; ++i) {
    const auto value = static_cast<Enum>(i);
    const std::string_view candidate = name_of(value);
    if (candidate == "unknown") return std::nullopt;
    if (candidate == name) return value;
  }
}

py::str name_of(std::string_view name) { return py::str(name.data(), name.size()); }

}  // namespace

py::object error_object(const Error& given) {
  Error e = given;
  // A subnormal the core refused as a double (5e-324 in a list) is quoted as Python writes it,
  // as typed text is quoted as typed.
  if (e.code == ErrorCode::too_small && e.limit == limits::kMinNormalNumber && e.token.empty()) {
    e.token = utf8_of(py::repr(py::float_(e.value)));
  }
  py::object type = py::module_::import("heteropipe._errors").attr("HeteropipeError");
  py::object index = e.index == kWholeField ? py::object(py::none()) : py::object(py::int_(e.index));
  // A trace file's value as typed ("" on every other error).
  const py::object typed = decoded(e.typed);
  if (has_column(e)) {
    py::object column = e.column == kWholeField ? py::object(py::none()) : py::object(py::int_(e.column));
    return type(name_of(error_code_name(e.code)), name_of(field_name(e.field)), index, e.value, decoded(e.token),
                e.limit, py::arg("column") = column, py::arg("typed") = typed);
  }
  if (!has_memory_advice(e)) {
    return type(name_of(error_code_name(e.code)), name_of(field_name(e.field)), index, e.value, decoded(e.token),
                e.limit, py::arg("typed") = typed);
  }
  py::object device = e.fits_with_device == kWholeField ? py::object(py::none()) : py::object(py::int_(e.fits_with_device));
  return type(name_of(error_code_name(e.code)), name_of(field_name(e.field)), index, e.value, decoded(e.token),
              e.limit, decoded(e.fits_quant), device, py::arg("typed") = typed);
}

Error error_of(py::handle error) {
  const auto code = by_name<ErrorCode>(utf8_of(error.attr("code")), error_code_name);
  if (!code) throw py::value_error("not a core error code");
  const py::object index = error.attr("index");
  Error e{*code, field_from(error.attr("field")), index.is_none() ? kWholeField : index.cast<std::int64_t>(),
          error.attr("value").cast<double>(), utf8_of(error.attr("token")), error.attr("limit").cast<double>()};
  const py::object column = py::getattr(error, "column", py::none());
  if (!column.is_none()) e.column = column.cast<std::int64_t>();
  const py::object typed = py::getattr(error, "typed", py::none());
  if (!typed.is_none()) e.typed = utf8_of(typed);
  return e;
}

void raise(const Error& e) {
  py::object error = error_object(e);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
  throw py::error_already_set();
}

void raise(const std::vector<Error>& errors) {
  py::object first = error_object(errors.front());
  py::list all;
  all.append(first);
  for (std::size_t k = 1; k < errors.size(); ++k) all.append(error_object(errors[k]));
  first.attr("errors") = all;
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(first.ptr())), first.ptr());
  throw py::error_already_set();
}

py::object take_exception() {
  PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  if (traceback && value) PyException_SetTraceback(value, traceback);
  Py_XDECREF(type);
  Py_XDECREF(traceback);
  return py::reinterpret_steal<py::object>(value);
}

void raise_from(const Error& e, py::object cause) {
  py::object error = error_object(e);
  if (cause) PyException_SetCause(error.ptr(), cause.release().ptr());
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
  throw py::error_already_set();
}

void require_batches(double M) {
  if (auto e = check_batches(M)) raise(*e);
}
void require_rho(double rho) {
  if (auto e = check_rho(rho)) raise(*e);
}
void require_T_real(double T_real) {
  if (auto e = check_T_real(T_real)) raise(*e);
}

Field field_from(py::handle name) {
  if (PyUnicode_Check(name.ptr())) {
    if (auto field = by_name<Field>(utf8_of(name), field_name)) return *field;
  }
  throw py::value_error("unknown field " + short_repr(name) +
                        " (expected 'tau', 'd', 'M', 'rho', 'T_real' or 'points')");
}

double count_from_text(const std::string& text, Field field) {
  const bool points = field == Field::points;
  if (!points && field != Field::M) throw py::value_error("only M and points are counts");
  const double low = points ? static_cast<double>(limits::kMinCurvePoints) : limits::kMinBatches;
  const double high = points ? static_cast<double>(limits::kMaxCurvePoints) : limits::kMaxBatches;
  return value_or_raise(parse_count(text, field, low, high));
}

py::str describe(const std::string& code, const std::string& field, std::optional<std::int64_t> index,
                 double value, py::handle token, double limit, const std::string& fits_quant,
                 std::optional<std::int64_t> fits_with_device, std::optional<std::int64_t> column,
                 py::handle typed) {
  const auto error_code = by_name<ErrorCode>(code, error_code_name);
  if (!error_code) throw py::value_error("unknown error code '" + code + "'");
  Error e{*error_code, field_from(py::str(field)), index.value_or(kWholeField), value, utf8_of(token), limit};
  e.fits_quant = fits_quant;
  e.fits_with_device = fits_with_device.value_or(kWholeField);
  e.column = column.value_or(kWholeField);
  e.typed = utf8_of(typed);
  return decoded(text::describe(e));
}

}  // namespace heteropipe::python
