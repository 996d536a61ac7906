#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"
#include "heteropipe/formulas.hpp"
#include "heteropipe/pipeline.hpp"
#include "heteropipe/visit.hpp"

namespace heteropipe {

// Everything a front end may ask for at once. M defaults to 8 and rho to 1
// (fully asynchronous), as in the reference.
struct AnalysisRequest {
  std::vector<double> tau;
  std::vector<double> d;
  double M = 8;
  double rho = 1;
  std::optional<double> T_real;
};

// Every quantity of the model at one (pipeline, M, rho[, T_real]). The
// per-stage series are views of the pipeline, produced on demand, so that
// analyzing a million stages allocates nothing.
struct Analysis {
  std::shared_ptr<const Pipeline> pipeline;
  std::int64_t S = 0;
  double M = 0;
  double tau_max = 0, sigma_max = 0;
  double T_free = 0, T_async = 0, T_block = 0, T_gpipe = 0;
  double homogeneity_bias = 0, full_bias = 0;
  bool phase_transition = false;
  double overlap_gap = 0, effective_slope = 0;
  double asymptotic_throughput_async = 0, asymptotic_throughput_blocking = 0;
  double crossover_batches = 0;
  // Beyond the reference.
  double rho = 1;
  double T_rho = 0;  // the makespan predicted at rho (makespan_at_rho)
  std::int64_t bottleneck_stage = 0, blocking_bottleneck_stage = 0;
  double gpipe_overestimate = 0;
  bool overlap_headroom = false;
  // Present only when T_real was given; overlap_ratio is also absent when
  // there is no overlap headroom (T_block == T_async).
  std::optional<double> T_real, overlap_ratio;
  std::optional<SandwichPosition> T_real_position;

  const std::vector<double>& tau() const { return pipeline->tau(); }
  const std::vector<double>& d() const { return pipeline->d(); }
  // The derived lists, as the visitor reports them: computed value by value.
  ComputedList sigma_list() const;
  ComputedList link_slack_list() const;   // tau_max - tau[s], one per link
  ComputedList link_margin_list() const;  // slack - d[s]; < 0 past the phase transition
  std::vector<double> sigma() const { return sigma_list().values(); }
  std::vector<double> link_slack() const { return link_slack_list().values(); }
  std::vector<double> link_margin() const { return link_margin_list().values(); }
};

// Every error of the request, at most one per field, in field order
// (tau, d, M, rho, T_real). Empty when the request is valid.
std::vector<Error> check_request(const AnalysisRequest& request);

// The first error of M, rho and T_real, in that order (what analyze reports
// once the pipeline is valid).
std::optional<Error> check_scalars(double M, double rho, std::optional<double> T_real);

// The first error of check_request, or the analysis. Pass the request by
// std::move to hand its arrays over without a copy.
Result<Analysis> analyze(AnalysisRequest request);

// For inputs already validated.
Analysis analyze(std::shared_ptr<const Pipeline> pipeline, double M, double rho, std::optional<double> T_real);

// Whether visit_fields reports the per-stage lists (tau, d, sigma,
// link_slack, link_margin). Leaving them out spares a serializer that writes
// every value (JSON, JS arrays) three arrays the size of the input.
enum class Lists { include, omit };

// The analysis's fields in output order (see visit.hpp). Absent optional
// fields are skipped. Every front end serializes through this, so each field
// name is written exactly once.
template <class Visitor>
void visit_fields(const Analysis& a, Visitor&& visit, Lists lists = Lists::include) {
  const bool with_lists = lists == Lists::include;
  visit("S", a.S);
  visit("M", static_cast<std::int64_t>(a.M));  // a whole number, and readers should see one
  if (with_lists) {
    visit("tau", a.tau());
    visit("d", a.d());
  }
  visit("tau_max", a.tau_max);
  visit("sigma_max", a.sigma_max);
  visit("T_free", a.T_free);
  visit("T_async", a.T_async);
  visit("T_block", a.T_block);
  visit("T_gpipe", a.T_gpipe);
  visit("homogeneity_bias", a.homogeneity_bias);
  visit("full_bias", a.full_bias);
  visit("phase_transition", a.phase_transition);
  visit("overlap_gap", a.overlap_gap);
  visit("effective_slope", a.effective_slope);
  visit("asymptotic_throughput_async", a.asymptotic_throughput_async);
  visit("asymptotic_throughput_blocking", a.asymptotic_throughput_blocking);
  visit("crossover_batches", a.crossover_batches);
  visit("rho", a.rho);
  visit("T_rho", a.T_rho);
  visit("bottleneck_stage", a.bottleneck_stage);
  visit("blocking_bottleneck_stage", a.blocking_bottleneck_stage);
  visit("gpipe_overestimate", a.gpipe_overestimate);
  if (with_lists) {
    visit("sigma", a.sigma_list());
    visit("link_slack", a.link_slack_list());
    visit("link_margin", a.link_margin_list());
  }
  visit("overlap_headroom", a.overlap_headroom);
  if (a.T_real) visit("T_real", *a.T_real);
  if (a.overlap_ratio) visit("overlap_ratio", *a.overlap_ratio);
  if (a.T_real_position) visit("T_real_position", sandwich_position_name(*a.T_real_position));
}

}  // namespace heteropipe
