// What the Embind registrations (bindings.cpp) call: every function takes and
// returns numbers (lists and texts travel through the buffers of
// marshal.hpp), never throws, and reports a failure as NaN (or a zero or
// negative count) with the core's Errors stored for hp_error, so no C++
// exception ever crosses into JavaScript and no call builds a JS object on
// the C++ side: Embind's conversions of numbers are its cheapest path.
// Built at -Os like the registrations, which keeps the module small;
// analyze's hot path is apart, at -O3 (analysis_reply.cpp).
#include "exports.hpp"

#include <malloc.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "analysis_reply.hpp"
#include "heteropipe/heteropipe.hpp"
#include "marshal.hpp"

namespace heteropipe::wasm {
namespace {

// tau and d are the first n_tau / n_d values of the list buffers.
template <class Compute>
double on_pipeline(double n_tau, double n_d, Compute&& compute) {
  clear_errors();
  auto t = read_tau(n_tau);
  if (!t) return fail(t.error());
  auto l = read_d(n_d);
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

Field field_at(int k) { return static_cast<Field>(std::clamp(k, 0, 4)); }
Regime regime_at(int k) { return k == 1 ? Regime::blocking : Regime::asynchronous; }

// Results too big for one number, kept until the wrapper has copied them.
std::vector<double> kept_list;
Timeline kept_timeline;
Curve kept_curve;
AnalysisRequest kept_request;

}  // namespace

// The functions bindings.cpp registers (see exports.hpp).

double hp_slots() { return address_of(slots()); }
double hp_list(int list, double length) { return address_of(fit_list(static_cast<List>(list), length)); }

// The fixed areas for short lists (tau, d, batches) at slots 0-2, their
// capacity at slot 3.
void hp_small_lists() {
  for (int k = 0; k < 3; ++k) slots()[k] = address_of(small_list(static_cast<List>(k)));
  slots()[3] = static_cast<double>(kSmallValues);
}
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
  s[4] = limits::kMaxStreamWork;
  s[5] = static_cast<double>(kMaxCurvePoints);
}

// Bytes malloc has handed out (the leak test holds it flat).
double hp_malloc_bytes() { return static_cast<double>(mallinfo().uordblks); }

// Gives back what a large reply kept.
void hp_release() {
  release_analysis();
  std::vector<double>().swap(kept_list);
  kept_timeline = Timeline{};
  kept_curve = Curve{};
  kept_request = AnalysisRequest{};
}

// Every error of the request in slots 0-5, at most one per field; returns
// their count. A list too long to copy is reported as such, and the rest of
// the request is still checked with that list left empty.
int hp_check() {
  clear_errors();
  const SlotRequest r = slot_request();
  auto t = read_tau(r.n_tau);
  auto l = read_d(r.n_d);
  AnalysisRequest request{t ? std::move(t).value() : std::vector<double>{},
                          l ? std::move(l).value() : std::vector<double>{}, r.M, r.rho, r.T_real};
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

}  // namespace heteropipe::wasm
