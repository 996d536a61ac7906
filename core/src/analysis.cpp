#include "heteropipe/analysis.hpp"

#include <algorithm>

#include "heteropipe/limits.hpp"

namespace heteropipe {

std::vector<Error> check_request(const AnalysisRequest& request) {
  std::vector<Error> errors;
  auto pipeline = Pipeline::create(request.tau, request.d);
  if (!pipeline) errors.push_back(pipeline.error());
  // Pipeline::create stops at its first error, so a bad tau hides a bad d:
  // check d against a stand-in tau of the same length (or, when tau is
  // empty and S unknown, check only d's values).
  if (!pipeline && pipeline.error().field == Field::tau && !request.d.empty()) {
    const std::size_t stages = request.tau.empty() ? request.d.size() + 1 : request.tau.size();
    std::vector<double> stand_in(std::min<std::size_t>(stages, limits::kMaxStages), 1.0);
    auto links = Pipeline::create(std::move(stand_in), request.d);
    if (!links) errors.push_back(links.error());
  }
  if (auto e = check_batches(request.M)) errors.push_back(*e);
  if (auto e = check_rho(request.rho)) errors.push_back(*e);
  if (request.T_real) {
    if (auto e = check_T_real(*request.T_real)) errors.push_back(*e);
  }
  return errors;
}

std::optional<Error> check_scalars(double M, double rho, std::optional<double> T_real) {
  if (auto e = check_batches(M)) return e;
  if (auto e = check_rho(rho)) return e;
  if (T_real) return check_T_real(*T_real);
  return std::nullopt;
}

Result<Analysis> analyze(AnalysisRequest request) {
  auto pipeline = Pipeline::create(std::move(request.tau), std::move(request.d));
  if (!pipeline) return pipeline.error();
  if (auto e = check_scalars(request.M, request.rho, request.T_real)) return *e;
  return analyze(std::make_shared<const Pipeline>(std::move(pipeline).value()), request.M, request.rho,
                 request.T_real);
}

Analysis analyze(std::shared_ptr<const Pipeline> pipeline, double M, double rho, std::optional<double> T_real) {
  const Pipeline& p = *pipeline;
  Analysis a;
  a.S = p.S();
  a.M = M;
  a.tau_max = p.tau_max();
  a.sigma_max = p.sigma_max();
  a.T_free = makespan_free(p, M);
  a.T_async = makespan_async(p, M);
  a.T_block = makespan_blocking(p, M);
  a.T_gpipe = makespan_gpipe(p, M);
  a.homogeneity_bias = homogeneity_bias(p);
  a.full_bias = full_bias(p);
  a.phase_transition = phase_transition(p);
  a.overlap_gap = overlap_gap(p, M);
  a.effective_slope = effective_slope(p, rho);
  a.T_rho = makespan_at_rho(p, M, rho);
  a.asymptotic_throughput_async = asymptotic_throughput_async(p);
  a.asymptotic_throughput_blocking = asymptotic_throughput_blocking(p);
  a.crossover_batches = crossover_batches(p);
  a.rho = rho + 0.0;  // -0 is 0
  a.bottleneck_stage = p.bottleneck_stage();
  a.blocking_bottleneck_stage = p.blocking_bottleneck_stage();
  a.gpipe_overestimate = gpipe_overestimate(p, M);
  a.overlap_headroom = has_overlap_headroom(p, M);
  if (T_real) {
    a.T_real = *T_real;
    a.overlap_ratio = overlap_ratio(p, M, *T_real);
    a.T_real_position = sandwich_position(p, M, *T_real);
  }
  a.pipeline = std::move(pipeline);
  return a;
}

namespace {

// The list of `size` values of `of` at each index, holding the pipeline alive.
ComputedList derived(const std::shared_ptr<const Pipeline>& p, std::int64_t size,
                     double (*of)(const Pipeline&, std::int64_t)) {
  return {size, [p, of](std::int64_t i) { return of(*p, i); }};
}

double sigma_of(const Pipeline& p, std::int64_t s) { return p.sigma(s); }

}  // namespace

ComputedList Analysis::sigma_list() const { return derived(pipeline, S, sigma_of); }
ComputedList Analysis::link_slack_list() const { return derived(pipeline, S - 1, heteropipe::link_slack); }
ComputedList Analysis::link_margin_list() const { return derived(pipeline, S - 1, heteropipe::link_margin); }

}  // namespace heteropipe
