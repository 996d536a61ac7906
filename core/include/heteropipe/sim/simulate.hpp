#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "heteropipe/error.hpp"
#include "heteropipe/pipeline.hpp"
#include "heteropipe/sim/input.hpp"
#include "heteropipe/visit.hpp"

// The exact event engine beyond the closed forms, and Monte Carlo over it
// (docs/simulation.md states the model exactly as implemented).
namespace heteropipe::sim {

// Every event of one replication, row-major by micro-batch: cell (m, s) at
// m * S + s, transfer (m, s) over link s at m * (S-1) + s. A stage holds
// cell (m, s) from compute_finish until release (blocked: waiting for room
// downstream and, under block links, for its transfer).
struct RunTimeline {
  std::int64_t S = 0, M = 0;
  std::vector<double> compute_start, compute_finish, release;
  std::vector<double> transfer_start, transfer_finish;
};

// One replication. busy + starved + blocked of a stage add up to the time it
// releases its last micro-batch: serving, waiting for work, held after service.
struct Run {
  double makespan = 0;
  std::vector<double> busy, starved, blocked;  // S values
  std::vector<double> utilization;             // busy over the makespan (0 when it is 0)
  // With Options::timeline only (O(M x S) memory):
  std::vector<double> completion;  // when micro-batch m leaves the last stage
  std::vector<double> latency;     // completion minus its start on stage 0
  std::optional<RunTimeline> timeline;
};

// Statistics of one quantity over the replications. ci95 is the normal
// interval of the mean, mean -/+ 1.959963984540054 sd / sqrt(reps); the
// percentiles interpolate linearly between order statistics (position
// p (reps - 1)); sd divides by reps - 1 (0 for one replication).
struct Summary {
  double mean = 0, sd = 0, ci95_low = 0, ci95_high = 0;
  double p50 = 0, p90 = 0, p95 = 0, p99 = 0, min = 0, max = 0;
};

// Equal-width bins from min to max (one bin when they are equal); a value
// on an inner edge counts in the bin above it, max in the last bin.
inline constexpr std::int64_t kHistogramBins = 32;
struct Histogram {
  std::vector<double> edges;   // bins + 1 values
  std::vector<std::int64_t> counts;  // bins values
};

struct Simulation {
  std::int64_t S = 0, M = 0, reps = 0;
  double seed = 0;
  LinkMode links = LinkMode::async;
  Summary makespan, throughput;  // throughput: M / makespan, micro-batches per time unit
  Histogram histogram;           // of the makespan
  // The engine at each stage's (and link's) mean time: tau and d, a matrix's
  // column means, or the samples' means.
  double deterministic_makespan = 0;
  double T_async = 0, T_block = 0;  // the closed forms at tau, d and M
  double jensen_gap = 0;            // makespan.mean - deterministic_makespan
  // The mean's 95% interval less deterministic_makespan (a constant): a gap
  // whose interval holds 0 is noise.
  double jensen_gap_ci95_low = 0, jensen_gap_ci95_high = 0;
  // The makespan against the closed form T_async, in percent of it:
  // 100 (x - T_async) / T_async for the mean and p99, and the half-width of
  // the mean's 95% interval on the same scale.
  double mean_vs_T_async_percent = 0, mean_vs_T_async_ci95_percent = 0, p99_vs_T_async_percent = 0;
  Run run;                          // replication 0
};

// Checks the options (check_options), then runs the replications. Memory:
// O(S) per replication and the reps makespans, plus O(M x S) with a timeline.
Result<Simulation> simulate(const Pipeline& pipeline, const Options& options);

// The bytes simulate() allocates for its work beyond the pipeline and the
// options (the samplers, the streams and their blocks of draws, the engines'
// per-stage state, each replication's makespan, and the timeline when asked),
// an upper bound, for a front end whose memory is bounded to refuse what it
// cannot hold before the run starts.
double working_bytes(std::int64_t S, const Options& options);

// One replication `rep` of options already checked; with `detail`, the
// per-micro-batch results and the timeline too.
Run run_replication(const Pipeline& pipeline, const Options& options, std::uint64_t rep, bool detail);

template <class Visitor>
void visit_fields(const RunTimeline& t, Visitor&& visit) {
  visit("S", t.S);
  visit("M", t.M);
  visit("compute_start", t.compute_start);
  visit("compute_finish", t.compute_finish);
  visit("release", t.release);
  visit("transfer_start", t.transfer_start);
  visit("transfer_finish", t.transfer_finish);
}

template <class Visitor>
void visit_fields(const Run& r, Visitor&& visit) {
  visit("makespan", r.makespan);
  visit("busy", r.busy);
  visit("starved", r.starved);
  visit("blocked", r.blocked);
  visit("utilization", r.utilization);
  if (r.timeline) {
    visit("completion", r.completion);
    visit("latency", r.latency);
    visit("timeline", object([&r](auto&& fields) { visit_fields(*r.timeline, fields); }));
  }
}

template <class Visitor>
void visit_fields(const Summary& s, Visitor&& visit) {
  visit("mean", s.mean);
  visit("sd", s.sd);
  visit("ci95", std::vector<double>{s.ci95_low, s.ci95_high});
  visit("p50", s.p50);
  visit("p90", s.p90);
  visit("p95", s.p95);
  visit("p99", s.p99);
  visit("min", s.min);
  visit("max", s.max);
}

template <class Visitor>
void visit_fields(const Histogram& h, Visitor&& visit) {
  visit("edges", h.edges);
  visit("counts", h.counts);
}

template <class Visitor>
void visit_fields(const Simulation& sim, Visitor&& visit) {
  visit("S", sim.S);
  visit("M", sim.M);
  visit("links", link_mode_name(sim.links));
  visit("reps", sim.reps);
  visit("seed", static_cast<std::int64_t>(sim.seed));
  visit("makespan", object([&sim](auto&& fields) { visit_fields(sim.makespan, fields); }));
  visit("throughput", object([&sim](auto&& fields) { visit_fields(sim.throughput, fields); }));
  visit("histogram", object([&sim](auto&& fields) { visit_fields(sim.histogram, fields); }));
  visit("deterministic_makespan", sim.deterministic_makespan);
  visit("T_async", sim.T_async);
  visit("T_block", sim.T_block);
  visit("jensen_gap", sim.jensen_gap);
  visit("jensen_gap_ci95", std::vector<double>{sim.jensen_gap_ci95_low, sim.jensen_gap_ci95_high});
  visit("mean_vs_T_async_percent", sim.mean_vs_T_async_percent);
  visit("mean_vs_T_async_ci95_percent", sim.mean_vs_T_async_ci95_percent);
  visit("p99_vs_T_async_percent", sim.p99_vs_T_async_percent);
  visit("run", object([&sim](auto&& fields) { visit_fields(sim.run, fields); }));
}

}  // namespace heteropipe::sim
