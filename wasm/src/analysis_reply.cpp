#include "analysis_reply.hpp"

#include <array>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "exports.hpp"
#include "heteropipe/heteropipe.hpp"
#include "marshal.hpp"

namespace heteropipe::wasm {
namespace {

// The latest analysis, alive until the next call or hp_release, so that the
// wrapper copies its lists straight out of wasm memory. Its pipeline is
// shared (not const) so that its arrays can be recycled afterwards.
std::shared_ptr<Pipeline> kept_pipeline;
std::optional<Analysis> kept_analysis;
std::vector<std::vector<double>> kept_series;  // sigma, link_slack, link_margin

// The fields visit_fields reports, as records of four doubles (name address,
// kind, a, b); the wrapper builds the JS object from them, so no field name
// is written twice. Names are NUL-terminated string literals. Kind 0: number
// a; 1: boolean a; 2: a list of b values at address a; 3: text of b bytes at
// address a (a string literal).
constexpr std::size_t kMaxRecords = 64;
std::array<double, 4 * kMaxRecords> records;

struct RecordWriter {
  std::size_t count = 0;

  void put(const char* name, double kind, double a, double b) {
    if (count == kMaxRecords) return;  // unreachable: visit_fields reports about 30
    double* r = &records[4 * count++];
    r[0] = address_of(name);
    r[1] = kind;
    r[2] = a;
    r[3] = b;
  }
  void operator()(const char* name, double x) { put(name, 0, x, 0); }
  void operator()(const char* name, std::int64_t x) { put(name, 0, static_cast<double>(x), 0); }
  void operator()(const char* name, bool x) { put(name, 1, x ? 1 : 0, 0); }
  void operator()(const char* name, std::string_view x) {
    put(name, 3, address_of(x.data()), static_cast<double>(x.size()));
  }
  // tau and d: the kept pipeline's own arrays.
  void operator()(const char* name, const std::vector<double>& x) {
    put(name, 2, address_of(x.data()), static_cast<double>(x.size()));
  }
  // The series the core computes on demand, kept with the analysis.
  void operator()(const char* name, std::vector<double>&& x) {
    kept_series.push_back(std::move(x));
    (*this)(name, static_cast<const std::vector<double>&>(kept_series.back()));
  }
};

int refuse(Error error) {
  add_error(std::move(error));
  return 0;
}

}  // namespace

void release_analysis() {
  kept_analysis.reset();
  kept_series.clear();
  if (kept_pipeline && kept_pipeline.use_count() == 1) {
    auto arrays = std::move(*kept_pipeline).release();
    recycle_list(List::tau, std::move(arrays.first));
    recycle_list(List::d, std::move(arrays.second));
  }
  kept_pipeline.reset();
}

double hp_records() { return address_of(records.data()); }

// The request in slots 0-6; returns the record count, or 0 on failure.
int hp_analyze() {
  clear_errors();
  release_analysis();
  const SlotRequest request = slot_request();
  auto t = read_tau(request.n_tau);
  if (!t) return refuse(t.error());
  auto l = read_d(request.n_d);
  if (!l) return refuse(l.error());
  auto pipeline = Pipeline::create(std::move(t).value(), std::move(l).value());
  if (!pipeline) return refuse(pipeline.error());
  kept_pipeline = std::make_shared<Pipeline>(std::move(pipeline).value());
  if (auto e = check_scalars(request.M, request.rho, request.T_real)) return refuse(*e);
  kept_analysis = analyze(kept_pipeline, request.M, request.rho, request.T_real);
  RecordWriter writer;
  visit_fields(*kept_analysis, writer, request.series ? Lists::include : Lists::omit);
  return static_cast<int>(writer.count);
}

}  // namespace heteropipe::wasm
