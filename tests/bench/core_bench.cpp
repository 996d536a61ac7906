// Speed of the core: analyze at small and huge S (against one plain pass over
// the same arrays) and the exact recurrence in cells per second.
#include <benchmark/benchmark.h>

#include <heteropipe/heteropipe.hpp>

#include <random>
#include <vector>

using namespace heteropipe;

namespace {

AnalysisRequest request_of(std::int64_t S) {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(0.1, 10);
  AnalysisRequest r;
  r.tau.resize(static_cast<std::size_t>(S));
  r.d.resize(static_cast<std::size_t>(S - 1));
  for (double& x : r.tau) x = u(rng);
  for (double& x : r.d) x = u(rng) / 10;
  r.M = 100;
  r.rho = 0.8;
  r.T_real = 1e3 * static_cast<double>(S);
  return r;
}

// Front ends hand over arrays they have just built (parsed text, copied JS
// arrays), so `work` gets a fresh copy by move each iteration. Making the copy
// and releasing what `work` returns (the caller's business) are not timed;
// the fresh copy is as cold in cache for every benchmark that uses this.
template <class Work>
void on_fresh_copies(benchmark::State& state, Work work) {
  const AnalysisRequest r = request_of(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    AnalysisRequest fresh = r;
    state.ResumeTiming();
    auto result = work(std::move(fresh));
    benchmark::DoNotOptimize(result);
    state.PauseTiming();
    { auto released = std::move(result); }
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// What every analyze needs to read at least once: the baseline it is held to.
void BM_plain_pass(benchmark::State& state) {
  on_fresh_copies(state, [](AnalysisRequest&& fresh) {
    double sum = 0;
    for (double x : fresh.tau) sum += x;
    for (double x : fresh.d) sum += x;
    benchmark::DoNotOptimize(sum);
    return std::move(fresh);
  });
}

void BM_analyze(benchmark::State& state) {
  on_fresh_copies(state, [](AnalysisRequest&& fresh) { return analyze(std::move(fresh)); });
}

// The input lists copied in, as by every front end that keeps its own (a
// page, the CLI, the wasm module copying from JS memory): the copy is part of
// the cost. At a million stages, the like-for-like figure for the module.
void BM_analyze_copied(benchmark::State& state) {
  const AnalysisRequest r = request_of(state.range(0));
  for (auto _ : state) {
    auto a = analyze(r);
    benchmark::DoNotOptimize(a);
  }
}

void BM_recurrence(benchmark::State& state) {
  const AnalysisRequest r = request_of(state.range(0));
  const Pipeline p = Pipeline::create(r.tau, r.d).value();
  const auto M = static_cast<double>(state.range(1));
  for (auto _ : state) {
    auto T = recurrence_makespan(p, M, Regime::asynchronous);
    benchmark::DoNotOptimize(T);
  }
  state.counters["cells/s"] =
      benchmark::Counter(static_cast<double>(state.range(0)) * M, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_timeline(benchmark::State& state) {
  const AnalysisRequest r = request_of(state.range(0));
  const Pipeline p = Pipeline::create(r.tau, r.d).value();
  for (auto _ : state) {
    auto t = timeline(p, static_cast<double>(state.range(1)), Regime::blocking);
    benchmark::DoNotOptimize(t);
  }
}

}  // namespace

BENCHMARK(BM_plain_pass)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_analyze_copied)->Arg(4)->Arg(64)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_analyze)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_recurrence)->Args({64, 1'000'000})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_timeline)->Args({64, 1'000})->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
