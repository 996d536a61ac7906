// The Embind surface of the heteropipe core. Every function returns a Reply
// and never throws, so no C++ exception (or leaked frame) ever crosses into
// JavaScript; wasm/js/api.js validates JS types, calls these, and turns a
// Reply's error into a HeteropipeError.
#include <emscripten/bind.h>

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "heteropipe/heteropipe.hpp"
#include "marshal.hpp"

namespace heteropipe::wasm {
namespace {

using emscripten::val;

val error_list(const std::vector<Error>& errors) {
  val list = val::array();
  for (const Error& e : errors) list.call<void>("push", error_object(e));
  return list;
}

Result<std::vector<double>> tau_of(double n) {
  return read_list(List::tau, n, Field::tau, static_cast<double>(limits::kMaxStages));
}
Result<std::vector<double>> d_of(double n) {
  return read_list(List::d, n, Field::d, static_cast<double>(limits::kMaxStages));
}

// tau and d are the first n_tau / n_d values of the list buffers.
template <class Compute>
Reply on_pipeline(double n_tau, double n_d, Compute&& compute) {
  auto t = tau_of(n_tau);
  if (!t) return fail(t.error());
  auto l = d_of(n_d);
  if (!l) return fail(l.error());
  auto p = Pipeline::create(std::move(t).value(), std::move(l).value());
  if (!p) return fail(p.error());
  return compute(p.value());
}

template <class Compute>
Reply on_batches(double n_tau, double n_d, double M, Compute&& compute) {
  return on_pipeline(n_tau, n_d, [&](const Pipeline& p) {
    if (auto e = check_batches(M)) return fail(*e);
    return compute(p);
  });
}

template <auto quantity>
Reply of_pipeline(double n_tau, double n_d) {
  return on_pipeline(n_tau, n_d, [](const Pipeline& p) { return succeed(val(quantity(p))); });
}

template <auto quantity>
Reply of_batches(double n_tau, double n_d, double M) {
  return on_batches(n_tau, n_d, M, [&](const Pipeline& p) { return succeed(val(quantity(p, M))); });
}

Reply effective_slope_of(double n_tau, double n_d, double rho) {
  return on_pipeline(n_tau, n_d, [&](const Pipeline& p) {
    if (auto e = check_rho(rho)) return fail(*e);
    return succeed(val(effective_slope(p, rho)));
  });
}

Reply overlap_ratio_of(double n_tau, double n_d, double M, double T_real) {
  return on_batches(n_tau, n_d, M, [&](const Pipeline& p) {
    if (auto e = check_T_real(T_real)) return fail(*e);
    const auto ratio = overlap_ratio(p, M, T_real);
    return succeed(ratio ? val(*ratio) : val::null());
  });
}

Result<AnalysisRequest> request_of(double n_tau, double n_d, double M, double rho, bool has_T_real, double T_real) {
  auto t = tau_of(n_tau);
  if (!t) return t.error();
  auto l = d_of(n_d);
  if (!l) return l.error();
  AnalysisRequest request{std::move(t).value(), std::move(l).value(), M, rho, std::nullopt};
  if (has_T_real) request.T_real = T_real;
  return request;
}

// The latest analysis as records (see RecordWriter): the wrapper copies them
// out right after the call, then may free a large one with release_analysis.
std::vector<double> last_record;

void release_analysis() { std::vector<double>().swap(last_record); }

Reply analyze_of(double n_tau, double n_d, double M, double rho, bool has_T_real, double T_real) {
  auto request = request_of(n_tau, n_d, M, rho, has_T_real, T_real);
  if (!request) return fail(request.error());
  auto analysis = analyze(std::move(request).value());
  if (!analysis) return fail(analysis.error());
  last_record.clear();
  // tau, d, sigma, link_slack, link_margin: five lists of about S values.
  last_record.reserve(5 * static_cast<std::size_t>(analysis.value().S) + 256);
  RecordWriter writer{last_record, {}};
  visit_fields(analysis.value(), writer);
  writer.finish();
  return succeed(view_of(last_record));
}

// All errors at once. A list too long to copy is reported as such, and the
// rest of the request is still checked with that list left empty.
val check_of(double n_tau, double n_d, double M, double rho, bool has_T_real, double T_real) {
  std::vector<Error> errors;
  auto t = tau_of(n_tau);
  auto l = d_of(n_d);
  AnalysisRequest request{t ? std::move(t).value() : std::vector<double>{},
                          l ? std::move(l).value() : std::vector<double>{}, M, rho, std::nullopt};
  if (has_T_real) request.T_real = T_real;
  for (const Error& e : check_request(request)) {
    if (e.field == Field::tau && !t) continue;  // the stand-in empty list's error
    errors.push_back(e);
  }
  if (!t) errors.insert(errors.begin(), t.error());
  if (!l) errors.insert(errors.begin() + (t ? 0 : 1), l.error());
  return error_list(errors);
}

// Field names come from the core's field_name, so JS never re-types them.
Field field_of(const std::string& name) {
  for (Field f : {Field::tau, Field::d, Field::M, Field::rho, Field::T_real}) {
    if (field_name(f) == name) return f;
  }
  return Field::tau;  // unreachable: the wrapper checks the name first
}

Regime regime_of(const std::string& name) {
  return name == regime_name(Regime::blocking) ? Regime::blocking : Regime::asynchronous;
}

Reply parse_list_of(std::string text, std::string field) {
  auto values = parse_number_list(text, field_of(field));
  if (!values) return fail(values.error());
  return succeed(to_float64_array(values.value()));
}

Reply parse_number_of(std::string text, std::string field) {
  auto value = parse_number(text, field_of(field));
  if (!value) return fail(value.error());
  return succeed(val(value.value()));
}

Reply recurrence_makespan_of(double n_tau, double n_d, double M, std::string regime) {
  return on_batches(n_tau, n_d, M, [&](const Pipeline& p) {
    auto T = recurrence_makespan(p, M, regime_of(regime));
    return T ? succeed(val(T.value())) : fail(T.error());
  });
}

Reply timeline_of(double n_tau, double n_d, double M, std::string regime) {
  return on_batches(n_tau, n_d, M, [&](const Pipeline& p) {
    auto t = timeline(p, M, regime_of(regime));
    if (!t) return fail(t.error());
    const Timeline& tl = t.value();
    val out = val::object();
    out.set("S", static_cast<double>(tl.S));
    out.set("M", static_cast<double>(tl.M));
    out.set("regime", std::string(regime_name(tl.regime)));
    out.set("makespan", tl.makespan);
    out.set("computeStart", to_float64_array(tl.compute_start));
    out.set("computeFinish", to_float64_array(tl.compute_finish));
    out.set("transferStart", to_float64_array(tl.transfer_start));
    out.set("transferFinish", to_float64_array(tl.transfer_finish));
    return succeed(out);
  });
}

Reply curve_batches_of(double n_tau, double n_d, double M, double points) {
  return on_batches(n_tau, n_d, M, [&](const Pipeline& p) {
    const double clamped =
        std::isnan(points) ? 2.0 : std::clamp(points, 2.0, static_cast<double>(kMaxCurvePoints));
    return succeed(to_float64_array(curve_batches(p, M, static_cast<std::int64_t>(clamped))));
  });
}

Reply makespan_curve_of(double n_tau, double n_d, double n_batches) {
  return on_pipeline(n_tau, n_d, [&](const Pipeline& p) {
    auto list = read_list(List::batches, n_batches, Field::M, static_cast<double>(kMaxCurvePoints));
    if (!list) return fail(list.error());
    const std::vector<double>& M = list.value();
    for (std::size_t i = 0; i < M.size(); ++i) {
      if (auto e = check_batches(M[i])) {
        e->index = static_cast<std::int64_t>(i);
        return fail(*e);
      }
    }
    const Curve c = makespan_curve(p, M);
    val out = val::object();
    out.set("M", to_float64_array(c.M));
    out.set("T_free", to_float64_array(c.T_free));
    out.set("T_async", to_float64_array(c.T_async));
    out.set("T_block", to_float64_array(c.T_block));
    out.set("T_gpipe", to_float64_array(c.T_gpipe));
    out.set("gpipe_overestimate", to_float64_array(c.gpipe_overestimate));
    return succeed(out);
  });
}

val limits_of() {
  val out = val::object();
  out.set("maxStages", static_cast<double>(limits::kMaxStages));
  out.set("maxValue", limits::kMaxValue);
  out.set("maxBatches", limits::kMaxBatches);
  out.set("maxTimelineCells", limits::kMaxTimelineCells);
  out.set("maxStreamCells", limits::kMaxStreamCells);
  out.set("maxCurvePoints", static_cast<double>(kMaxCurvePoints));
  return out;
}

val names_of() {
  val out = val::object();
  val fields = val::array();
  for (Field f : {Field::tau, Field::d, Field::M, Field::rho, Field::T_real}) {
    fields.call<void>("push", std::string(field_name(f)));
  }
  val regimes = val::array();
  for (Regime r : {Regime::asynchronous, Regime::blocking}) regimes.call<void>("push", std::string(regime_name(r)));
  out.set("fields", fields);
  out.set("regimes", regimes);
  return out;
}

std::string version_of() { return kVersion; }

// For leak tests: bytes of wasm memory, and bytes malloc has handed out.
val memory_of() {
  val out = val::object();
  out.set("wasmBytes", static_cast<double>(__builtin_wasm_memory_size(0)) * 65536.0);
  out.set("mallocBytes", static_cast<double>(mallinfo().uordblks));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(heteropipe) {
  using emscripten::function;
  emscripten::value_object<Reply>("Reply").field("value", &Reply::value).field("error", &Reply::error);

  function("version", &version_of);
  function("limits", &limits_of);
  function("names", &names_of);
  function("memory", &memory_of);
  function("listViews", &list_views);
  function("analyze", &analyze_of);
  function("releaseAnalysis", &release_analysis);
  function("check", &check_of);
  function("parseList", &parse_list_of);
  function("parseNumber", &parse_number_of);

  function("makespanFree", &of_batches<makespan_free>);
  function("makespanAsync", &of_batches<makespan_async>);
  function("makespanBlocking", &of_batches<makespan_blocking>);
  function("makespanGpipe", &of_batches<makespan_gpipe>);
  function("homogeneityBias", &of_pipeline<homogeneity_bias>);
  function("fullBias", &of_pipeline<full_bias>);
  function("phaseTransition", &of_pipeline<phase_transition>);
  function("overlapGap", &of_batches<overlap_gap>);
  function("effectiveSlope", &effective_slope_of);
  function("asymptoticThroughputAsync", &of_pipeline<asymptotic_throughput_async>);
  function("asymptoticThroughputBlocking", &of_pipeline<asymptotic_throughput_blocking>);
  function("crossoverBatches", &of_pipeline<crossover_batches>);
  function("gpipeOverestimate", &of_batches<gpipe_overestimate>);
  function("overlapRatio", &overlap_ratio_of);

  function("recurrenceMakespan", &recurrence_makespan_of);
  function("timeline", &timeline_of);
  function("curveBatches", &curve_batches_of);
  function("makespanCurve", &makespan_curve_of);
}

}  // namespace heteropipe::wasm
