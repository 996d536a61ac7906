// The Embind binding of the heteropipe core, called by wasm/js/api.js. Every
// function takes and returns numbers (lists and texts travel through the
// buffers of marshal.hpp), never throws, and reports a failure as NaN (or a
// negative count) with the core's Errors stored for hp_error, so no C++
// exception ever crosses into JavaScript and no call builds a JS object on
// the C++ side: Embind's conversions of numbers are its cheapest path.
#include <emscripten/bind.h>
#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>

#include <malloc.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "heteropipe/heteropipe.hpp"
#include "marshal.hpp"

// Hands a list to the wrapper while it is alive (the core builds the
// per-stage series on demand), so it is copied out of wasm memory once.
EM_JS(void, hp_take_list, (const double* data, double length), { Module["hpTakeList"](data, length); });

namespace heteropipe::wasm {
namespace {

double address_of(const void* p) { return static_cast<double>(reinterpret_cast<std::uintptr_t>(p)); }

Result<std::vector<double>> tau_of(double n) {
  return read_list(List::tau, n, Field::tau, static_cast<double>(limits::kMaxStages));
}
Result<std::vector<double>> d_of(double n) {
  return read_list(List::d, n, Field::d, static_cast<double>(limits::kMaxStages));
}

// tau and d are the first n_tau / n_d values of the list buffers.
template <class Compute>
double on_pipeline(double n_tau, double n_d, Compute&& compute) {
  clear_errors();
  auto t = tau_of(n_tau);
  if (!t) return fail(t.error());
  auto l = d_of(n_d);
  if (!l) return fail(l.error());
  auto p = Pipeline::create(std::move(t).value(), std::move(l).value());
  if (!p) return fail(p.error());
  return compute(p.value());
}

template <class Compute>
double on_batches(double n_tau, double n_d, double M, Compute&& compute) {
  return on_pipeline(n_tau, n_d, [&](const Pipeline& p) {
    if (auto e = check_batches(M)) return fail(*e);
    return compute(p);
  });
}

template <auto quantity>
double of_pipeline(double n_tau, double n_d) {
  return on_pipeline(n_tau, n_d, [](const Pipeline& p) { return static_cast<double>(quantity(p)); });
}

template <auto quantity>
double of_batches(double n_tau, double n_d, double M) {
  return on_batches(n_tau, n_d, M, [&](const Pipeline& p) { return static_cast<double>(quantity(p, M)); });
}

Result<AnalysisRequest> request_of(double n_tau, double n_d, double M, double rho, int has_T_real, double T_real) {
  auto t = tau_of(n_tau);
  if (!t) return t.error();
  auto l = d_of(n_d);
  if (!l) return l.error();
  AnalysisRequest request{std::move(t).value(), std::move(l).value(), M, rho, std::nullopt};
  if (has_T_real) request.T_real = T_real;
  return request;
}

// The fields visit_fields reports, as records of five doubles (name address,
// name length, kind, a, b) in `records`; the wrapper builds the JS object
// from them, so no field name is written twice. Kind 0: number a; 1: boolean
// a; 2: a list of b values, handed over by hp_take_list; 3: text of b bytes at
// address a (a string literal); 4: a list the caller already holds (its own
// Float64Array tau or d), left for the wrapper to copy.
constexpr std::size_t kMaxRecords = 64;
std::array<double, 5 * kMaxRecords> records;

// analyze's flags: leave out the per-stage lists; leave out tau / d, which
// the wrapper copies from the caller's own Float64Arrays.
constexpr int kNoSeries = 1, kOwnTau = 2, kOwnD = 4;

struct RecordWriter {
  const Analysis& analysis;
  int flags;
  std::size_t count = 0;

  void put(const char* name, double kind, double a, double b) {
    if (count == kMaxRecords) return;  // unreachable: visit_fields reports about 30
    double* r = &records[5 * count++];
    r[0] = address_of(name);
    r[1] = static_cast<double>(std::strlen(name));
    r[2] = kind;
    r[3] = a;
    r[4] = b;
  }
  void operator()(const char* name, double x) { put(name, 0, x, 0); }
  void operator()(const char* name, std::int64_t x) { put(name, 0, static_cast<double>(x), 0); }
  void operator()(const char* name, bool x) { put(name, 1, x ? 1 : 0, 0); }
  void operator()(const char* name, std::string_view x) {
    put(name, 3, address_of(x.data()), static_cast<double>(x.size()));
  }
  void operator()(const char* name, const std::vector<double>& x) {
    const bool own = ((flags & kOwnTau) && x.data() == analysis.tau().data()) ||
                     ((flags & kOwnD) && x.data() == analysis.d().data());
    if (own) {
      put(name, 4, 0, 0);
      return;
    }
    put(name, 2, 0, static_cast<double>(x.size()));
    hp_take_list(x.data(), static_cast<double>(x.size()));
  }
};

Field field_at(int k) { return static_cast<Field>(std::clamp(k, 0, 4)); }
Regime regime_at(int k) { return k == 1 ? Regime::blocking : Regime::asynchronous; }

// Results too big for one number, kept until the wrapper has copied them.
std::vector<double> kept_list;
Timeline kept_timeline;
Curve kept_curve;
AnalysisRequest kept_request;

// The functions Embind exposes, as hp_<name> on the module.

double hp_slots() { return address_of(slots()); }
double hp_records() { return address_of(records.data()); }
double hp_list(int list, double length) { return address_of(fit_list(static_cast<List>(list), length)); }
double hp_text(double bytes) { return address_of(fit_text(bytes)); }

// Error k of the latest call into slots 0-7 (code, field, token as address
// and length; index; value). Returns how many errors there are.
int hp_error(int k) {
  const auto& errors = latest_errors();
  if (k >= 0 && static_cast<std::size_t>(k) < errors.size()) {
    const Error& e = errors[static_cast<std::size_t>(k)];
    const auto code = error_code_name(e.code);
    const auto field = field_name(e.field);
    put_range(0, code.data(), code.size());
    put_range(2, field.data(), field.size());
    put_range(4, e.token.data(), e.token.size());
    slots()[6] = static_cast<double>(e.index);
    slots()[7] = e.value;
  }
  return static_cast<int>(errors.size());
}

// Name k of a kind (0 field, 1 regime, 2 version) into slots 0-1.
void hp_name(int kind, int k) {
  std::string_view name = kind == 0 ? field_name(field_at(k)) : kind == 1 ? regime_name(regime_at(k)) : kVersion;
  put_range(0, name.data(), name.size());
}

void hp_limits() {
  double* s = slots();
  s[0] = static_cast<double>(limits::kMaxStages);
  s[1] = limits::kMaxValue;
  s[2] = limits::kMaxBatches;
  s[3] = limits::kMaxTimelineCells;
  s[4] = limits::kMaxStreamCells;
  s[5] = static_cast<double>(kMaxCurvePoints);
}

// Bytes malloc has handed out (the leak test holds it flat).
double hp_malloc_bytes() { return static_cast<double>(mallinfo().uordblks); }

// Gives back what a large reply kept.
void hp_release() {
  std::vector<double>().swap(kept_list);
  kept_timeline = Timeline{};
  kept_curve = Curve{};
  kept_request = AnalysisRequest{};
}

// The record count, or 0 on failure.
int hp_analyze(double n_tau, double n_d, double M, double rho, int has_T_real, double T_real,
                                    int flags) {
  clear_errors();
  auto request = request_of(n_tau, n_d, M, rho, has_T_real, T_real);
  if (!request) {
    add_error(request.error());
    return 0;
  }
  auto analysis = analyze(std::move(request).value());
  if (!analysis) {
    add_error(analysis.error());
    return 0;
  }
  RecordWriter writer{analysis.value(), flags};
  visit_fields(analysis.value(), writer, (flags & kNoSeries) ? Lists::omit : Lists::include);
  return static_cast<int>(writer.count);
}

// Every error of the request, at most one per field; returns their count. A
// list too long to copy is reported as such, and the rest of the request is
// still checked with that list left empty.
int hp_check(double n_tau, double n_d, double M, double rho, int has_T_real, double T_real) {
  clear_errors();
  auto t = tau_of(n_tau);
  auto l = d_of(n_d);
  AnalysisRequest request{t ? std::move(t).value() : std::vector<double>{},
                          l ? std::move(l).value() : std::vector<double>{}, M, rho, std::nullopt};
  if (has_T_real) request.T_real = T_real;
  if (!t) add_error(t.error());
  if (!l) add_error(l.error());
  for (const Error& e : check_request(request)) {
    if (e.field == Field::tau && !t) continue;  // the stand-in empty list's error
    if (e.field == Field::d && !l) continue;
    add_error(e);
  }
  return static_cast<int>(latest_errors().size());
}

// The typed fields read as the core reads them (read_request): returns the
// error count (every error, at most one per field, through hp_error); the
// request's tau and d at slots 0-3, M, rho and T_real (NaN: none) at 4-6.
int hp_read_request(std::string tau, std::string d, std::string M, std::string rho, bool has_T_real,
                    std::string T_real) {
  clear_errors();
  RequestText typed{std::move(tau), std::move(d), std::move(M), std::move(rho), std::nullopt};
  if (has_T_real) typed.T_real = std::move(T_real);
  ReadRequest read = read_request(typed);
  for (Error& e : read.errors) add_error(std::move(e));
  kept_request = std::move(read.request);
  put_range(0, kept_request.tau.data(), kept_request.tau.size());
  put_range(2, kept_request.d.data(), kept_request.d.size());
  slots()[4] = kept_request.M;
  slots()[5] = kept_request.rho;
  slots()[6] = kept_request.T_real ? *kept_request.T_real : NAN;
  return static_cast<int>(latest_errors().size());
}

// The parsed list's length (values at slots 0-1), or -1.
double hp_parse_list(double bytes, int field) {
  clear_errors();
  auto values = parse_number_list(text(bytes), field_at(field));
  if (!values) {
    add_error(values.error());
    return -1;
  }
  kept_list = std::move(values).value();
  put_range(0, kept_list.data(), kept_list.size());
  return static_cast<double>(kept_list.size());
}

double hp_parse_number(double bytes, int field) {
  clear_errors();
  auto value = parse_number(text(bytes), field_at(field));
  return value ? value.value() : fail(value.error());
}

double hp_makespan_free(double t, double d, double M) { return of_batches<makespan_free>(t, d, M); }
double hp_makespan_async(double t, double d, double M) { return of_batches<makespan_async>(t, d, M); }
double hp_makespan_blocking(double t, double d, double M) {
  return of_batches<makespan_blocking>(t, d, M);
}
double hp_makespan_gpipe(double t, double d, double M) { return of_batches<makespan_gpipe>(t, d, M); }
double hp_homogeneity_bias(double t, double d) { return of_pipeline<homogeneity_bias>(t, d); }
double hp_full_bias(double t, double d) { return of_pipeline<full_bias>(t, d); }
double hp_phase_transition(double t, double d) { return of_pipeline<phase_transition>(t, d); }
double hp_overlap_gap(double t, double d, double M) { return of_batches<overlap_gap>(t, d, M); }
double hp_asymptotic_throughput_async(double t, double d) {
  return of_pipeline<asymptotic_throughput_async>(t, d);
}
double hp_asymptotic_throughput_blocking(double t, double d) {
  return of_pipeline<asymptotic_throughput_blocking>(t, d);
}
double hp_crossover_batches(double t, double d) { return of_pipeline<crossover_batches>(t, d); }
double hp_gpipe_overestimate(double t, double d, double M) {
  return of_batches<gpipe_overestimate>(t, d, M);
}

double hp_effective_slope(double n_tau, double n_d, double rho) {
  return on_pipeline(n_tau, n_d, [&](const Pipeline& p) {
    if (auto e = check_rho(rho)) return fail(*e);
    return effective_slope(p, rho);
  });
}

// NaN with no error stored: no overlap headroom, so no ratio (null in JS).
double hp_overlap_ratio(double n_tau, double n_d, double M, double T_real) {
  return on_batches(n_tau, n_d, M, [&](const Pipeline& p) {
    if (auto e = check_T_real(T_real)) return fail(*e);
    const auto ratio = overlap_ratio(p, M, T_real);
    return ratio ? *ratio : NAN;
  });
}

double hp_recurrence_makespan(double n_tau, double n_d, double M, int regime) {
  return on_batches(n_tau, n_d, M, [&](const Pipeline& p) {
    auto T = recurrence_makespan(p, M, regime_at(regime));
    return T ? T.value() : fail(T.error());
  });
}

// The makespan; S and M in slots 0-1 and the four arrays in slots 2-9.
double hp_timeline(double n_tau, double n_d, double M, int regime) {
  return on_batches(n_tau, n_d, M, [&](const Pipeline& p) {
    auto t = timeline(p, M, regime_at(regime));
    if (!t) return fail(t.error());
    kept_timeline = std::move(t).value();
    const Timeline& tl = kept_timeline;
    slots()[0] = static_cast<double>(tl.S);
    slots()[1] = static_cast<double>(tl.M);
    put_range(2, tl.compute_start.data(), tl.compute_start.size());
    put_range(4, tl.compute_finish.data(), tl.compute_finish.size());
    put_range(6, tl.transfer_start.data(), tl.transfer_start.size());
    put_range(8, tl.transfer_finish.data(), tl.transfer_finish.size());
    return tl.makespan;
  });
}

// The count of batch values (at slots 0-1).
double hp_curve_batches(double n_tau, double n_d, double M, double points) {
  return on_batches(n_tau, n_d, M, [&](const Pipeline& p) {
    const double clamped =
        std::isnan(points) ? 2.0 : std::clamp(points, 2.0, static_cast<double>(kMaxCurvePoints));
    kept_list = curve_batches(p, M, static_cast<std::int64_t>(clamped));
    put_range(0, kept_list.data(), kept_list.size());
    return static_cast<double>(kept_list.size());
  });
}

// The curve's length; its six arrays at slots 0-11 (M, T_free, T_async,
// T_block, T_gpipe, gpipe_overestimate).
double hp_makespan_curve(double n_tau, double n_d, double n_batches) {
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
    kept_curve = makespan_curve(p, M);
    const Curve& c = kept_curve;
    int slot = 0;
    for (const auto* series : {&c.M, &c.T_free, &c.T_async, &c.T_block, &c.T_gpipe, &c.gpipe_overestimate}) {
      put_range(slot, series->data(), series->size());
      slot += 2;
    }
    return static_cast<double>(c.M.size());
  });
}

}  // namespace
}  // namespace heteropipe::wasm

EMSCRIPTEN_BINDINGS(heteropipe) {
  using emscripten::function;
  function("hp_slots", &heteropipe::wasm::hp_slots);
  function("hp_records", &heteropipe::wasm::hp_records);
  function("hp_list", &heteropipe::wasm::hp_list);
  function("hp_text", &heteropipe::wasm::hp_text);
  function("hp_error", &heteropipe::wasm::hp_error);
  function("hp_name", &heteropipe::wasm::hp_name);
  function("hp_limits", &heteropipe::wasm::hp_limits);
  function("hp_malloc_bytes", &heteropipe::wasm::hp_malloc_bytes);
  function("hp_release", &heteropipe::wasm::hp_release);
  function("hp_analyze", &heteropipe::wasm::hp_analyze);
  function("hp_check", &heteropipe::wasm::hp_check);
  function("hp_read_request", &heteropipe::wasm::hp_read_request);
  function("hp_parse_list", &heteropipe::wasm::hp_parse_list);
  function("hp_parse_number", &heteropipe::wasm::hp_parse_number);
  function("hp_makespan_free", &heteropipe::wasm::hp_makespan_free);
  function("hp_makespan_async", &heteropipe::wasm::hp_makespan_async);
  function("hp_makespan_blocking", &heteropipe::wasm::hp_makespan_blocking);
  function("hp_makespan_gpipe", &heteropipe::wasm::hp_makespan_gpipe);
  function("hp_homogeneity_bias", &heteropipe::wasm::hp_homogeneity_bias);
  function("hp_full_bias", &heteropipe::wasm::hp_full_bias);
  function("hp_phase_transition", &heteropipe::wasm::hp_phase_transition);
  function("hp_overlap_gap", &heteropipe::wasm::hp_overlap_gap);
  function("hp_asymptotic_throughput_async", &heteropipe::wasm::hp_asymptotic_throughput_async);
  function("hp_asymptotic_throughput_blocking", &heteropipe::wasm::hp_asymptotic_throughput_blocking);
  function("hp_crossover_batches", &heteropipe::wasm::hp_crossover_batches);
  function("hp_gpipe_overestimate", &heteropipe::wasm::hp_gpipe_overestimate);
  function("hp_effective_slope", &heteropipe::wasm::hp_effective_slope);
  function("hp_overlap_ratio", &heteropipe::wasm::hp_overlap_ratio);
  function("hp_recurrence_makespan", &heteropipe::wasm::hp_recurrence_makespan);
  function("hp_timeline", &heteropipe::wasm::hp_timeline);
  function("hp_curve_batches", &heteropipe::wasm::hp_curve_batches);
  function("hp_makespan_curve", &heteropipe::wasm::hp_makespan_curve);
}
