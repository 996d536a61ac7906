// Speed of the simulator: the deterministic engine with finite buffers, in
// cells per second, and Monte Carlo with lognormal service.
#include <benchmark/benchmark.h>

#include <heteropipe/heteropipe.hpp>

#include <random>
#include <vector>

using namespace heteropipe;

namespace {

Pipeline pipeline_of(std::int64_t S) {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(0.1, 10);
  std::vector<double> tau(static_cast<std::size_t>(S)), d(static_cast<std::size_t>(S - 1));
  for (double& x : tau) x = u(rng);
  for (double& x : d) x = u(rng) / 10;
  return Pipeline::create(tau, d).value();
}

// args: S, M, buffer size (-1 for infinite), link mode.
void BM_sim_deterministic(benchmark::State& state) {
  const Pipeline p = pipeline_of(state.range(0));
  sim::Options o;
  o.M = static_cast<double>(state.range(1));
  if (state.range(2) >= 0) o.buffers = {static_cast<double>(state.range(2))};
  o.links = static_cast<sim::LinkMode>(state.range(3));
  for (auto _ : state) {
    auto r = sim::simulate(p, o);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0) * state.range(1));
}

// args: S, M, reps; lognormal service of CV 0.5, deterministic links.
void BM_sim_monte_carlo(benchmark::State& state) {
  const Pipeline p = pipeline_of(state.range(0));
  sim::Options o;
  o.M = static_cast<double>(state.range(1));
  o.reps = static_cast<double>(state.range(2));
  o.service = {sim::Distribution{sim::DistributionKind::lognormal, 0.5}};
  o.buffers = {2};
  for (auto _ : state) {
    auto r = sim::simulate(p, o);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0) * state.range(1) * state.range(2));
}

// Two shared links of four (the event engine).
void BM_sim_shared(benchmark::State& state) {
  const Pipeline p = pipeline_of(state.range(0));
  sim::Options o;
  o.M = static_cast<double>(state.range(1));
  o.links = sim::LinkMode::serial;
  o.shared = {{0, 2}};
  for (auto _ : state) {
    auto r = sim::simulate(p, o);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0) * state.range(1));
}

}  // namespace

BENCHMARK(BM_sim_deterministic)
    ->Args({64, 1'000'000, -1, 0})
    ->Args({64, 1'000'000, 0, 0})
    ->Args({64, 1'000'000, 2, 0})
    ->Args({64, 1'000'000, 2, 1})
    ->Args({64, 1'000'000, 2, 2})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_sim_monte_carlo)->Args({8, 256, 10'000})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_sim_shared)->Args({4, 1'000'000})->Unit(benchmark::kMillisecond);
