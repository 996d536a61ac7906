// Monte Carlo over the engines: replications, their statistics, and the
// closed forms beside them.
#include "heteropipe/sim/simulate.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <thread>

#include "engine.hpp"
#include "heteropipe/formulas.hpp"

namespace heteropipe::sim {
namespace {

// The 97.5th percentile of the standard normal distribution.
constexpr double kZ95 = 1.959963984540054;

// Linear interpolation between order statistics at position p (n - 1).
double percentile(const std::vector<double>& sorted, double p) {
  const double position = p * static_cast<double>(sorted.size() - 1);
  const auto i = static_cast<std::size_t>(position);
  if (i + 1 >= sorted.size()) return sorted.back();
  const double f = position - static_cast<double>(i);
  return sorted[i] + f * (sorted[i + 1] - sorted[i]);
}

// How many threads share the replications: the machine's cores, up to
// kMostThreads, and none beside the caller for fewer than 100 replications
// or in a build without threads (the WebAssembly module's).
std::int64_t helper_threads(std::int64_t reps) {
#if HETEROPIPE_THREADS
  constexpr std::int64_t kMostThreads = 64;
  const auto cores = static_cast<std::int64_t>(std::thread::hardware_concurrency());
  return std::max<std::int64_t>(1, std::min({cores, kMostThreads, reps / 100}));
#else
  (void)reps;
  return 1;
#endif
}

Summary summarize(const std::vector<double>& values) {
  Summary s;
  const auto n = static_cast<double>(values.size());
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  s.p50 = percentile(sorted, 0.5);
  s.p90 = percentile(sorted, 0.9);
  s.p95 = percentile(sorted, 0.95);
  s.p99 = percentile(sorted, 0.99);
  s.min = sorted.front();
  s.max = sorted.back();
  double sum = 0;
  for (double x : values) sum += x;
  // A mean of equal values can round off them (0.1 three times sums to
  // 0.30000000000000004, a third of which is 0.10000000000000002); it stays
  // within [min, max], and the spread and the interval are taken around the
  // mean reported, so equal values have sd 0 and the interval holds the mean.
  s.mean = std::min(std::max(sum / n, s.min), s.max);
  if (values.size() > 1) {
    double squares = 0;
    for (double x : values) squares += (x - s.mean) * (x - s.mean);
    s.sd = std::sqrt(squares / (n - 1));
  }
  // A makespan and a throughput are never negative, so neither is their
  // mean: the normal interval, wide with few replications (2 give
  // mean -/+ 0.98 |a - b|), is cut at 0 rather than report what cannot be.
  const double half = kZ95 * s.sd / std::sqrt(n);
  s.ci95_low = std::max(0.0, s.mean - half);
  s.ci95_high = s.mean + half;
  return s;
}

Histogram histogram_of(const std::vector<double>& values, double low, double high) {
  Histogram h;
  if (!(high > low)) {
    h.edges = {low, high};
    h.counts = {static_cast<std::int64_t>(values.size())};
    return h;
  }
  const auto bins = static_cast<double>(kHistogramBins);
  for (std::int64_t i = 0; i < kHistogramBins; ++i) {
    h.edges.push_back(low + (high - low) * (static_cast<double>(i) / bins));
  }
  h.edges.push_back(high);
  h.counts.assign(static_cast<std::size_t>(kHistogramBins), 0);
  for (double x : values) {
    auto bin = static_cast<std::int64_t>((x - low) / (high - low) * bins);
    bin = std::min<std::int64_t>(std::max<std::int64_t>(bin, 0), kHistogramBins - 1);
    h.counts[static_cast<std::size_t>(bin)] += 1;
  }
  return h;
}

// Replications 1..R-1, each from its own streams (seed, replication), so
// that the makespans' bits do not depend on which thread ran which. Every
// thread, the caller's too, takes the next batch of replications until none
// is left. A progress callback is a page's, in the module, which has one
// thread: with one, the replications stay on the caller's thread, which
// reports after every batch, so a callback never runs on another thread.
void replicate(const detail::Setup& setup, std::uint64_t seed, std::vector<double>& makespans,
               const std::function<void(double)>& progress) {
  const auto reps = static_cast<std::int64_t>(makespans.size());
  // About 100 batches a run, so that progress moves in steps of about 1%.
  const std::int64_t batch = std::max<std::int64_t>(1, reps / 100);
  std::atomic<std::int64_t> next{1};
  auto work = [&]() {
    for (;;) {
      const std::int64_t first = next.fetch_add(batch);
      if (first >= reps) return;
      const std::int64_t last = std::min(reps, first + batch);
      for (std::int64_t r = first; r < last; ++r) {
        detail::Draws draws(setup, seed, static_cast<std::uint64_t>(r));
        makespans[r] = detail::run_engine(setup, draws, nullptr);
      }
      if (progress) progress(static_cast<double>(last) / static_cast<double>(reps));
    }
  };
  std::vector<std::thread> helpers;
  const std::int64_t threads = progress ? 1 : helper_threads(reps);
  for (std::int64_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& h : helpers) h.join();
}

// A run's makespan, and each stage's busy time over it.
Run finished(detail::Recorder& rec, double makespan) {
  Run run = std::move(rec.run);
  run.makespan = makespan;
  for (double busy : run.busy) run.utilization.push_back(makespan > 0 ? busy / makespan : 0);
  return run;
}

}  // namespace

Run run_replication(const Pipeline& pipeline, const Options& options, std::uint64_t rep, bool detail) {
  const detail::Setup setup = detail::make_setup(pipeline, options);
  detail::Draws draws(setup, static_cast<std::uint64_t>(options.seed), rep);
  detail::Recorder rec(setup, detail);
  const double makespan = detail::run_engine(setup, draws, &rec);
  return finished(rec, makespan);
}

Result<Simulation> simulate(const Pipeline& pipeline, const Options& options) {
  if (auto e = check_options(pipeline, options)) return *e;
  const detail::Setup setup = detail::make_setup(pipeline, options);
  const auto seed = static_cast<std::uint64_t>(options.seed);
  const auto reps = static_cast<std::int64_t>(options.reps);

  Simulation sim;
  sim.S = pipeline.S();
  sim.M = setup.M;
  sim.reps = reps;
  sim.seed = options.seed;
  sim.links = options.links;

  std::vector<double> makespans(static_cast<std::size_t>(reps));
  {
    detail::Draws draws(setup, seed, 0);
    detail::Recorder rec(setup, options.timeline);
    const double makespan = detail::run_engine(setup, draws, &rec);
    sim.run = finished(rec, makespan);
  }
  makespans[0] = sim.run.makespan;
  if (setup.random) {
    replicate(setup, seed, makespans, options.progress);
  } else {
    // Without randomness every replication repeats the first.
    std::fill(makespans.begin() + 1, makespans.end(), makespans[0]);
  }

  std::vector<double> throughputs(makespans.size());
  const auto M = static_cast<double>(setup.M);
  for (std::size_t r = 0; r < makespans.size(); ++r) throughputs[r] = makespans[r] > 0 ? M / makespans[r] : 0;
  sim.makespan = summarize(makespans);
  sim.throughput = summarize(throughputs);
  sim.histogram = histogram_of(makespans, sim.makespan.min, sim.makespan.max);

  if (!setup.random && !setup.matrix && !setup.link_matrix) {
    sim.deterministic_makespan = makespans[0];  // every time is already its mean
  } else {
    const detail::Setup at_means = detail::mean_setup(setup);
    detail::Draws fixed(at_means, seed, 0);
    sim.deterministic_makespan = detail::run_engine(at_means, fixed, nullptr);
  }
  sim.T_async = makespan_async(pipeline, options.M);
  sim.T_block = makespan_blocking(pipeline, options.M);
  sim.jensen_gap = sim.makespan.mean - sim.deterministic_makespan;
  sim.jensen_gap_ci95_low = sim.makespan.ci95_low - sim.deterministic_makespan;
  sim.jensen_gap_ci95_high = sim.makespan.ci95_high - sim.deterministic_makespan;
  // T_async >= tau_max > 0: the pipeline's checks refuse an all-zero or tiny tau.
  const auto percent_of_async = [&sim](double x) { return (x - sim.T_async) / sim.T_async * 100.0; };
  sim.mean_vs_T_async_percent = percent_of_async(sim.makespan.mean);
  sim.mean_vs_T_async_ci95_percent = (sim.makespan.ci95_high - sim.makespan.mean) / sim.T_async * 100.0;
  sim.p99_vs_T_async_percent = percent_of_async(sim.makespan.p99);
  return sim;
}

}  // namespace heteropipe::sim
