// The run replayed through the simulator (no engine of its own), and T_real
// explained by that replay (docs/traces.md, "Explaining T_real").
#include <algorithm>
#include <cmath>
#include <limits>

#include "heteropipe/sim/simulate.hpp"
#include "measured.hpp"

namespace heteropipe::trace_detail {
namespace {

// The replay's makespan under one link mode, or nothing when the simulator
// refuses the times (it checks them as it checks any matrix).
std::optional<double> replayed(const Pipeline& pipeline, sim::Options options, sim::LinkMode links) {
  options.links = links;
  auto run = sim::simulate(pipeline, options);
  if (!run) return std::nullopt;
  return run.value().makespan.mean;
}

}  // namespace

void explain_run(const std::vector<std::vector<double>>& spans, const std::vector<std::vector<double>>& link_times,
                 bool sends_block, TraceResult& r) {
  auto pipeline = Pipeline::of_computed_times(r.tau, r.d);
  if (!pipeline || !r.analysis) return;
  const std::size_t S = spans.size();
  const auto M = static_cast<std::size_t>(r.M);
  sim::Options o;
  o.M = static_cast<double>(r.M);
  std::vector<double>& service = o.service_matrix.emplace();
  std::vector<double>& links = o.link_matrix.emplace();
  for (std::size_t m = 0; m < M; ++m) {
    for (std::size_t s = 0; s < S; ++s) service.push_back(spans[s][m]);
    // A micro-batch without a matched transfer crosses in the link's chosen d.
    for (std::size_t l = 0; l + 1 < S; ++l) links.push_back(m < link_times[l].size() ? link_times[l][m] : r.d[l]);
  }
  const auto async = replayed(pipeline.value(), o, sim::LinkMode::async);
  const auto blocking = replayed(pipeline.value(), o, sim::LinkMode::blocking);
  if (!async || !blocking) return;
  r.replay = TraceReplay{*async, *blocking};

  const double model = r.analysis->T_async;
  // The replay and the closed form sum the same times in other orders: a
  // difference within their rounding (M + S terms of 4 ulps each) is none,
  // so that a schedule with no variability (heteropipe's own timeline,
  // imported back) says 0, not 3.5e-18, and the parts still sum to T_real.
  const double rounding = 4 * std::numeric_limits<double>::epsilon() * static_cast<double>(M + S) * model;
  const double replay_async = std::fabs(*async - model) <= rounding ? model : *async;
  const double variability = replay_async - model;
  const double headroom = std::max(0.0, *blocking - replay_async);
  // What the async replay leaves of T_real: blocking up to its headroom, and
  // the rest, exactly 0 when blocking explains it all (no rounding residue).
  // Sends that never held their stage block nothing: it is all the rest.
  const double excess = r.T_real - replay_async;
  const double blocked = sends_block ? std::clamp(excess, 0.0, headroom) : 0.0;
  const double other = excess - blocked;
  r.explain = {{ExplainCause::model, model},
               {ExplainCause::variability, variability},
               {ExplainCause::blocking, blocked},
               {ExplainCause::other, other}};
  if (headroom > 0) r.overlap_ratio_replay = (*blocking - r.T_real) / headroom;
}

}  // namespace heteropipe::trace_detail
