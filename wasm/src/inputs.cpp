#include "inputs.hpp"

#include <utility>

#include "heteropipe/analysis.hpp"
#include "heteropipe/limits.hpp"
#include "memory.hpp"

namespace heteropipe::wasm {

bool is_list(Field field) { return field == Field::tau || field == Field::d; }

Field field_named(std::string_view name) {
  for (Field field : kFields) {
    if (field_name(field) == name) return field;
  }
  return Field::tau;
}

Regime read_regime(const Request& in) {
  return regime_from_name(in.word("regime")).value_or(Regime::async);
}

Result<Pipeline> read_pipeline(Request& in) {
  constexpr auto kMaxStages = static_cast<double>(limits::kMaxStages);
  auto tau = in.list("tau", Field::tau, kMaxStages);
  if (!tau) return tau.error();
  auto d = in.list("d", Field::d, kMaxStages);
  if (!d) return d.error();
  // Without links, the pipeline fills in S-1 zeros.
  const double links = static_cast<double>(tau.value().size()) * sizeof(double);
  if (d.value().empty() && !room_for(links)) return out_of_memory(Field::tau, links);
  auto pipeline = Pipeline::create(std::move(tau).value(), std::move(d).value());
  if (!pipeline) return in.annotated(pipeline.error());
  return pipeline;
}

Result<double> read_batches(Request& in) {
  const double M = in.number("M", Field::M, AnalysisRequest{}.M);
  if (auto e = check_batches(M)) return in.annotated(*e);
  return M;
}

Result<PipelineAtBatches> read_pipeline_at_batches(Request& in) {
  auto p = read_pipeline(in);
  if (!p) return p.error();
  auto M = read_batches(in);
  if (!M) return M.error();
  return PipelineAtBatches{std::move(p).value(), M.value()};
}

Result<double> read_rho(Request& in) {
  const double rho = in.number("rho", Field::rho, AnalysisRequest{}.rho);
  if (auto e = check_rho(rho)) return in.annotated(*e);
  return rho;
}

}  // namespace heteropipe::wasm
