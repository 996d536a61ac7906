// Pipeline.simulate: Python values to the simulator's options, the core's
// Monte Carlo, and its result as a dict through the generic serializer. Text
// arguments are read by the core's own readers, as the CLI reads them.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "errors.hpp"
#include "heteropipe/heteropipe.hpp"
#include "inputs.hpp"
#include "strings.hpp"
#include "to_python.hpp"
#include "without_gil.hpp"

namespace heteropipe::python {
namespace {

bool is_text_value(py::handle obj) { return is_text(obj.ptr()); }

// The items of a list, tuple or other iterable, each as its own object.
std::vector<py::object> items_of(py::handle obj, Field field) {
  std::vector<py::object> items;
  if (is_text_value(obj) || !py::isinstance<py::iterable>(obj)) {
    raise(Error{ErrorCode::not_a_number, field, kWholeField, 0.0, short_repr(obj)});
  }
  for (py::handle item : py::reinterpret_borrow<py::iterable>(obj)) {
    items.push_back(py::reinterpret_borrow<py::object>(item));
  }
  return items;
}

std::vector<double> row_from(py::handle values, Field field, std::int64_t row);

std::vector<std::vector<std::int64_t>> shared_from(py::handle obj) {
  if (obj.is_none()) return {};
  if (is_text_value(obj)) return value_or_raise(sim::parse_shared(utf8_of(obj)));
  std::vector<std::vector<std::int64_t>> groups;
  for (const py::object& group : items_of(obj, Field::shared)) {
    const auto index = static_cast<std::int64_t>(groups.size());
    std::vector<std::int64_t> links;
    // An item's error (5e-324) names its group, as the CLI's --shared does, not its place in the group.
    std::vector<double> values = row_from(group, Field::shared, index);
    for (double link : values) links.push_back(value_or_raise(sim::shared_link(link, index)));
    groups.push_back(std::move(links));
  }
  return groups;
}

// None: every buffer infinite; anything given, even empty, the core checks.
std::optional<std::vector<double>> buffers_from(py::handle obj) {
  if (obj.is_none()) return std::nullopt;
  if (is_text_value(obj)) return value_or_raise(sim::parse_buffers(utf8_of(obj)));
  // One number for every link, read as a list's item is: a bool is no number, an int past the double
  // range is too_large (obj.cast<double>() raised an uncoded RuntimeError for 10**400), 5e-324 too_small.
  // Any number a list takes is one (numpy's scalars, a 0-d array, a Fraction, a Decimal), which were
  // refused as no list; an array of one or more dimensions is a list.
  const py::object ndim = py::getattr(obj, "ndim", py::none());
  const bool scalar = ndim.is_none() || (PyLong_Check(ndim.ptr()) && PyLong_AsLong(ndim.ptr()) == 0);
  if (PyFloat_Check(obj.ptr()) || PyLong_Check(obj.ptr()) || (scalar && PyNumber_Check(obj.ptr()))) {
    return values_from(py::make_tuple(obj), Field::buffers);
  }
  return values_from(obj, Field::buffers);
}

std::vector<sim::Distribution> distributions_from(py::handle obj, Field field) {
  if (obj.is_none()) return {};
  if (is_text_value(obj)) return {value_or_raise(sim::parse_distribution(utf8_of(obj), field))};
  std::vector<sim::Distribution> list;
  for (const py::object& item : items_of(obj, field)) {
    if (!is_text_value(item)) raise(Error{ErrorCode::unknown_name, field, kWholeField, 0.0, short_repr(item)});
    auto parsed = sim::parse_distribution(utf8_of(item), field);
    if (!parsed) {
      Error e = parsed.error();
      e.index = static_cast<std::int64_t>(list.size());
      raise(e);
    }
    list.push_back(parsed.value());
  }
  return list;
}

// One row of a matrix (or one stage's samples). An error reading it names the
// row, as the field's position, and for a matrix the item's place in the row
// as the cell's column (values_from names the item alone).
std::vector<double> row_from(py::handle values, Field field, std::int64_t row) {
  py::object cause;
  Error e;
  try {
    return values_from(values, field);
  } catch (py::error_already_set& caught) {
    const py::object type = py::module_::import("heteropipe._errors").attr("HeteropipeError");
    if (!caught.matches(type)) throw;
    e = error_of(caught.value());
    cause = caught.value().attr("__cause__");
  }
  e.column = has_column(e) ? e.index : kWholeField;
  e.index = row;
  raise_from(e, cause.is_none() ? py::object() : cause);
}

// M rows of `width` numbers (S for the stages, S-1 for the links), flattened
// row by row; a row of another length is refused. An empty one stays given,
// for the core to refuse by its count.
std::optional<std::vector<double>> matrix_from(py::handle obj, std::int64_t width, Field field) {
  if (obj.is_none()) return std::nullopt;
  std::vector<double> flat;
  std::int64_t row = 0;
  for (const py::object& values : items_of(obj, field)) {
    std::vector<double> v = row_from(values, field, row);
    if (static_cast<std::int64_t>(v.size()) != width) {
      raise(Error{ErrorCode::wrong_length, field, row, static_cast<double>(v.size()), {},
                  static_cast<double>(width)});
    }
    flat.insert(flat.end(), v.begin(), v.end());
    ++row;
  }
  return flat;
}

std::optional<std::vector<sim::Empirical>> samples_from(py::handle obj, bool quantiles, bool scaled) {
  if (obj.is_none()) return std::nullopt;
  std::vector<sim::Empirical> stages;
  for (const py::object& values : items_of(obj, Field::service_samples)) {
    const auto stage = static_cast<std::int64_t>(stages.size());
    stages.push_back(sim::Empirical{row_from(values, Field::service_samples, stage), quantiles, scaled});
  }
  return stages;
}

}  // namespace

py::dict simulate_dict(const Pipeline& p, double M, const std::string& links, py::handle shared, py::handle buffers,
                       py::handle service, py::handle link_service, py::handle service_matrix,
                       py::handle link_matrix,
                       py::handle service_samples, bool quantiles, py::handle service_probabilities, bool scaled,
                       double reps, double seed, bool timeline) {
  sim::Options o;
  o.M = M;
  o.links = value_or_raise(sim::link_mode_from_name(links));
  o.shared = shared_from(shared);
  o.buffers = buffers_from(buffers);
  o.service = distributions_from(service, Field::service);
  o.link_service = distributions_from(link_service, Field::link_service);
  o.service_matrix = matrix_from(service_matrix, p.S(), Field::service_matrix);
  o.link_matrix = matrix_from(link_matrix, p.S() - 1, Field::link_matrix);
  o.service_samples = samples_from(service_samples, quantiles, scaled);
  if (!service_probabilities.is_none()) o.service_probabilities = values_from(service_probabilities, Field::service_probabilities);
  o.reps = reps;
  o.seed = seed;
  o.timeline = timeline;
  std::optional<Result<sim::Simulation>> result;
  {
    WithoutGil unlocked(M * static_cast<double>(p.S()) * reps);
    result.emplace(sim::simulate(p, o));
  }
  // A timeline may hold millions of values: as buffers, not lists.
  return to_python(value_or_raise(std::move(*result)), timeline ? Arrays::buffers : Arrays::lists);
}

}  // namespace heteropipe::python
