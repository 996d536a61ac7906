// heteropipe._core: the Python face of the C++ core. Everything here converts
// values and errors; every number comes from the core. Python-only rules (M
// must be an int, aliases for regimes) live in the pure-Python layer.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "float64_array.hpp"
#include "heteropipe/heteropipe.hpp"

namespace py = pybind11;
namespace hp = heteropipe;

namespace {

// What the English message needs beyond the Error itself.
struct ErrorContext {
  std::int64_t stages = -1;  // S, for "needs S-1 = n link latencies" and "M x S"
  double cell_limit = 0;     // the limit a too_many_cells error was held to
};

py::str decoded(const std::string& text) {
  // Tokens are cut from UTF-8 input at ASCII or whole-character separators;
  // "replace" only guards against a caller that passed odd bytes.
  return py::reinterpret_steal<py::str>(
      PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace"));
}

py::str name_of(std::string_view name) { return py::str(name.data(), name.size()); }

py::object error_object(const hp::Error& e, const ErrorContext& context = {}) {
  py::object type = py::module_::import("heteropipe._errors").attr("HeteropipeError");
  py::dict extra;
  if (context.stages >= 0) extra["stages"] = context.stages;
  if (context.cell_limit > 0) extra["cell_limit"] = context.cell_limit;
  py::object index = e.index == hp::kWholeField ? py::object(py::none()) : py::object(py::int_(e.index));
  return type(name_of(hp::error_code_name(e.code)), name_of(hp::field_name(e.field)), index, e.value,
              decoded(e.token), **extra);
}

[[noreturn]] void raise(const hp::Error& e, const ErrorContext& context = {}) {
  py::object error = error_object(e, context);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
  throw py::error_already_set();
}

hp::Field field_from(const std::string& name) {
  for (hp::Field f : {hp::Field::tau, hp::Field::d, hp::Field::M, hp::Field::rho, hp::Field::T_real}) {
    if (hp::field_name(f) == name) return f;
  }
  throw py::value_error("unknown field '" + name + "' (expected tau, d, M, rho or T_real)");
}

hp::Regime regime_from(const std::string& name) {
  for (hp::Regime r : {hp::Regime::asynchronous, hp::Regime::blocking}) {
    if (hp::regime_name(r) == name) return r;
  }
  throw py::value_error("unknown regime '" + name + "' (expected 'asynchronous' or 'blocking')");
}

std::string short_repr(py::handle obj) {
  std::string text = py::repr(obj).cast<std::string>();
  constexpr std::size_t kMax = 40;
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

[[noreturn]] void raise_not_a_number(hp::Field field, std::int64_t index, py::handle item) {
  raise(hp::Error{hp::ErrorCode::not_a_number, field, index, 0.0, short_repr(item)});
}

// A C-contiguous one-dimensional buffer of doubles (array('d'), numpy
// float64), copied in one go; nullopt for anything else.
std::optional<std::vector<double>> doubles_from_buffer(py::handle obj) {
  if (!PyObject_CheckBuffer(obj.ptr())) return std::nullopt;
  Py_buffer view;
  if (PyObject_GetBuffer(obj.ptr(), &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) != 0) {
    PyErr_Clear();
    return std::nullopt;
  }
  std::optional<std::vector<double>> values;
  const std::string_view format = view.format ? view.format : "B";
  if (view.ndim == 1 && view.itemsize == sizeof(double) && (format == "d" || format == "<d" || format == "@d")) {
    const auto* begin = static_cast<const double*>(view.buf);
    values.emplace(begin, begin + view.len / static_cast<Py_ssize_t>(sizeof(double)));
  }
  PyBuffer_Release(&view);
  return values;
}

// tau or d from Python: None (no values), text (the core's shared parser), a
// buffer of doubles, or any iterable of numbers or numeric text. Errors name
// the 0-based item.
std::vector<double> values_from(py::handle obj, hp::Field field) {
  if (obj.is_none()) return {};
  if (PyUnicode_Check(obj.ptr())) {
    auto parsed = hp::parse_number_list(obj.cast<std::string>(), field);
    if (!parsed) raise(parsed.error());
    return std::move(parsed).value();
  }
  if (auto values = doubles_from_buffer(obj)) return std::move(*values);

  auto iterator = py::reinterpret_steal<py::object>(PyObject_GetIter(obj.ptr()));
  if (!iterator) {
    PyErr_Clear();
    raise_not_a_number(field, hp::kWholeField, obj);
  }
  std::vector<double> values;
  const Py_ssize_t hint = PyObject_LengthHint(obj.ptr(), 0);
  if (hint > 0 && hint <= hp::limits::kMaxStages + 1) values.reserve(static_cast<std::size_t>(hint));
  while (auto item = py::reinterpret_steal<py::object>(PyIter_Next(iterator.ptr()))) {
    const auto index = static_cast<std::int64_t>(values.size());
    if (index > hp::limits::kMaxStages) break;  // the core names the limit
    if (PyUnicode_Check(item.ptr())) {
      auto parsed = hp::parse_number(item.cast<std::string>(), field);
      if (!parsed) {
        hp::Error e = parsed.error();
        e.index = index;
        raise(e);
      }
      values.push_back(parsed.value());
      continue;
    }
    if (PyBool_Check(item.ptr())) raise_not_a_number(field, index, item);
    auto number = py::reinterpret_steal<py::object>(PyNumber_Float(item.ptr()));
    if (!number) {
      PyErr_Clear();
      raise_not_a_number(field, index, item);
    }
    values.push_back(PyFloat_AS_DOUBLE(number.ptr()));
  }
  if (PyErr_Occurred()) throw py::error_already_set();
  return values;
}

void require_batches(double M) {
  if (auto e = hp::check_batches(M)) raise(*e);
}
void require_rho(double rho) {
  if (auto e = hp::check_rho(rho)) raise(*e);
}
void require_T_real(double T_real) {
  if (auto e = hp::check_T_real(T_real)) raise(*e);
}

// Every analyze field in the core's order. M is stored as a double holding an
// integer; Python users (and the reference) get an int.
py::dict to_dict(const hp::Analysis& a) {
  py::dict out;
  hp::visit_fields(a, [&out](std::string_view name, const auto& value) {
    using T = std::decay_t<decltype(value)>;
    py::str key = name_of(name);
    if constexpr (std::is_same_v<T, bool>) {
      out[key] = py::bool_(value);
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
      out[key] = py::int_(value);
    } else if constexpr (std::is_same_v<T, double>) {
      if (name == "M") {
        out[key] = py::int_(static_cast<std::int64_t>(value));
      } else {
        out[key] = py::float_(value);
      }
    } else if constexpr (std::is_same_v<T, std::vector<double>>) {
      out[key] = py::cast(value);
    } else {
      out[key] = name_of(value);
    }
  });
  return out;
}

hp::AnalysisRequest request_from(py::handle tau, py::handle d, double M, double rho, std::optional<double> T_real) {
  hp::AnalysisRequest request;
  request.tau = values_from(tau, hp::Field::tau);
  request.d = values_from(d, hp::Field::d);
  request.M = M;
  request.rho = rho;
  request.T_real = T_real;
  return request;
}

ErrorContext context_of(const hp::AnalysisRequest& request) {
  return ErrorContext{static_cast<std::int64_t>(request.tau.size()), 0};
}

std::shared_ptr<hp::Pipeline> make_pipeline(py::handle tau, py::handle d) {
  std::vector<double> tau_values = values_from(tau, hp::Field::tau);
  std::vector<double> d_values = values_from(d, hp::Field::d);
  const auto stages = static_cast<std::int64_t>(tau_values.size());
  auto pipeline = hp::Pipeline::create(std::move(tau_values), std::move(d_values));
  if (!pipeline) raise(pipeline.error(), ErrorContext{stages, 0});
  return std::make_shared<hp::Pipeline>(std::move(pipeline).value());
}

struct TimelineView {
  std::int64_t S = 0, M = 0;
  std::string regime;
  double makespan = 0;
  std::shared_ptr<Float64Array> compute_start, compute_finish, transfer_start, transfer_finish;
};

std::shared_ptr<Float64Array> share(std::vector<double>&& values) {
  return std::make_shared<Float64Array>(std::move(values));
}

TimelineView make_timeline(const hp::Pipeline& p, double M, const std::string& regime) {
  require_batches(M);
  auto result = hp::timeline(p, M, regime_from(regime));
  if (!result) raise(result.error(), ErrorContext{p.S(), hp::limits::kMaxTimelineCells});
  hp::Timeline t = std::move(result).value();
  return TimelineView{t.S,
                      t.M,
                      std::string(hp::regime_name(t.regime)),
                      t.makespan,
                      share(std::move(t.compute_start)),
                      share(std::move(t.compute_finish)),
                      share(std::move(t.transfer_start)),
                      share(std::move(t.transfer_finish))};
}

py::dict make_curve(const hp::Pipeline& p, py::handle batches) {
  std::vector<double> values = values_from(batches, hp::Field::M);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (auto e = hp::check_batches(values[i])) {
      e->index = static_cast<std::int64_t>(i);
      raise(*e);
    }
  }
  hp::Curve c = hp::makespan_curve(p, values);
  py::dict out;
  out["M"] = share(std::move(c.M));
  out["T_free"] = share(std::move(c.T_free));
  out["T_async"] = share(std::move(c.T_async));
  out["T_block"] = share(std::move(c.T_block));
  out["T_gpipe"] = share(std::move(c.T_gpipe));
  out["gpipe_overestimate"] = share(std::move(c.gpipe_overestimate));
  return out;
}

void bind_arrays(py::module_& m) {
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

  py::class_<TimelineView>(m, "Timeline",
                           "The exact schedule: cell (m, s) at m*S + s, transfer (m, s) -> s+1 at m*(S-1) + s.")
      .def_readonly("S", &TimelineView::S)
      .def_readonly("M", &TimelineView::M)
      .def_readonly("regime", &TimelineView::regime)
      .def_readonly("makespan", &TimelineView::makespan)
      .def_readonly("compute_start", &TimelineView::compute_start)
      .def_readonly("compute_finish", &TimelineView::compute_finish)
      .def_readonly("transfer_start", &TimelineView::transfer_start)
      .def_readonly("transfer_finish", &TimelineView::transfer_finish)
      .def("__repr__", [](const TimelineView& t) {
        return "<Timeline " + t.regime + " S=" + std::to_string(t.S) + " M=" + std::to_string(t.M) + ">";
      });
}

void bind_pipeline(py::module_& m) {
  using P = hp::Pipeline;
  py::class_<P, std::shared_ptr<P>>(m, "Pipeline", "A validated chain of stages (the core's Pipeline).")
      .def(py::init(&make_pipeline), py::arg("tau"), py::arg("d") = py::none())
      .def_property_readonly("S", &P::S)
      .def_property_readonly("tau", &P::tau)
      .def_property_readonly("d", &P::d)
      .def_property_readonly("sigma", [](const P& p) { return p.sigma(); })
      .def_property_readonly("tau_max", &P::tau_max)
      .def_property_readonly("sigma_max", &P::sigma_max)
      .def_property_readonly("bottleneck_stage", &P::bottleneck_stage)
      .def_property_readonly("blocking_bottleneck_stage", &P::blocking_bottleneck_stage)
      .def("makespan_free", [](const P& p, double M) { return require_batches(M), hp::makespan_free(p, M); })
      .def("makespan_async", [](const P& p, double M) { return require_batches(M), hp::makespan_async(p, M); })
      .def("makespan_blocking", [](const P& p, double M) { return require_batches(M), hp::makespan_blocking(p, M); })
      .def("makespan_gpipe", [](const P& p, double M) { return require_batches(M), hp::makespan_gpipe(p, M); })
      .def("homogeneity_bias", &hp::homogeneity_bias)
      .def("full_bias", &hp::full_bias)
      .def("phase_transition", &hp::phase_transition)
      .def("overlap_gap", [](const P& p, double M) { return require_batches(M), hp::overlap_gap(p, M); })
      .def("effective_slope", [](const P& p, double rho) { return require_rho(rho), hp::effective_slope(p, rho); })
      .def("asymptotic_throughput_async", &hp::asymptotic_throughput_async)
      .def("asymptotic_throughput_blocking", &hp::asymptotic_throughput_blocking)
      .def("crossover_batches", &hp::crossover_batches)
      .def("gpipe_overestimate",
           [](const P& p, double M) { return require_batches(M), hp::gpipe_overestimate(p, M); })
      .def("has_overlap_headroom",
           [](const P& p, double M) { return require_batches(M), hp::has_overlap_headroom(p, M); })
      .def("overlap_ratio",
           [](const P& p, double M, double T_real) {
             require_batches(M);
             require_T_real(T_real);
             return hp::overlap_ratio(p, M, T_real);
           })
      .def("sandwich_position",
           [](const P& p, double M, double T_real) {
             require_batches(M);
             require_T_real(T_real);
             return std::string(hp::sandwich_position_name(hp::sandwich_position(p, M, T_real)));
           })
      .def(
          "analyze",
          [](std::shared_ptr<P> p, double M, double rho, std::optional<double> T_real) {
            require_batches(M);
            require_rho(rho);
            if (T_real) require_T_real(*T_real);
            return to_dict(hp::analyze(std::move(p), M, rho, T_real));
          },
          py::arg("M"), py::arg("rho") = 1.0, py::arg("T_real") = py::none())
      .def("recurrence_makespan",
           [](const P& p, double M, const std::string& regime) {
             require_batches(M);
             auto result = hp::recurrence_makespan(p, M, regime_from(regime));
             if (!result) raise(result.error(), ErrorContext{p.S(), hp::limits::kMaxStreamCells});
             return result.value();
           })
      .def("timeline", &make_timeline)
      .def("curve_batches",
           [](const P& p, double M, std::int64_t max_points) {
             require_batches(M);
             return hp::curve_batches(p, M, max_points);
           })
      .def("makespan_curve", &make_curve);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "The heteropipe C++ core (closed forms, exact schedule engine, shared parser).";
  m.attr("version") = hp::kVersion;

  py::dict limits;
  limits["max_stages"] = hp::limits::kMaxStages;
  limits["max_value"] = hp::limits::kMaxValue;
  limits["max_batches"] = hp::limits::kMaxBatches;
  limits["max_timeline_cells"] = hp::limits::kMaxTimelineCells;
  limits["max_stream_cells"] = hp::limits::kMaxStreamCells;
  limits["max_curve_points"] = hp::kMaxCurvePoints;
  m.attr("limits") = limits;

  bind_arrays(m);
  bind_pipeline(m);

  m.def(
      "parse_number_list",
      [](const std::string& text, const std::string& field) {
        auto parsed = hp::parse_number_list(text, field_from(field));
        if (!parsed) raise(parsed.error());
        return parsed.value();
      },
      py::arg("text"), py::arg("field") = "tau");
  m.def(
      "parse_number",
      [](const std::string& text, const std::string& field) {
        auto parsed = hp::parse_number(text, field_from(field));
        if (!parsed) raise(parsed.error());
        return parsed.value();
      },
      py::arg("text"), py::arg("field"));
  m.def(
      "analyze",
      [](py::handle tau, py::handle d, double M, double rho, std::optional<double> T_real) {
        hp::AnalysisRequest request = request_from(tau, d, M, rho, T_real);
        const ErrorContext context = context_of(request);
        auto result = hp::analyze(std::move(request));
        if (!result) raise(result.error(), context);
        return to_dict(result.value());
      },
      py::arg("tau"), py::arg("d") = py::none(), py::arg("M") = 8.0, py::arg("rho") = 1.0,
      py::arg("T_real") = py::none());
  m.def(
      "read_request",
      [](std::string tau, std::string d, std::string M, std::string rho, std::optional<std::string> T_real) {
        hp::ReadRequest read = hp::read_request({std::move(tau), std::move(d), std::move(M), std::move(rho),
                                                 std::move(T_real)});
        py::list errors;
        const ErrorContext context = context_of(read.request);
        for (const hp::Error& e : read.errors) errors.append(error_object(e, context));
        py::dict request;
        request["tau"] = read.request.tau;
        request["d"] = read.request.d;
        request["M"] = read.request.M;
        request["rho"] = read.request.rho;
        request["T_real"] = read.request.T_real ? py::object(py::float_(*read.request.T_real)) : py::none();
        return py::make_tuple(request, errors);
      },
      py::arg("tau"), py::arg("d") = "", py::arg("M") = "8", py::arg("rho") = "1", py::arg("T_real") = py::none());
}
