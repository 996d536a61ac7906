// Speed of the core: analyze at small and huge S (against one plain pass over
// the same arrays), the exact recurrence in cells per second, and the
// planner's exact layer partition.
#include <benchmark/benchmark.h>

#include <heteropipe/heteropipe.hpp>
#include <heteropipe/plan/plan.hpp>
#include <heteropipe/plan/report.hpp>
#include <heteropipe/plan/read_json.hpp>

#include <random>
#include <string>
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
    auto T = recurrence_makespan(p, M, Regime::async);
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

// A model of L layers on S devices of three kinds (fast, middling, slow,
// with less memory the slower they are): the layers alternate attention and
// MLP blocks, which the kinds run at different ratios, between an embedding
// and a head; the model needs about three quarters of the devices' memory.
// `noisy` multiplies every layer time by its own random factor in [0.5, 1.5],
// which gives the exact search many more near-ties to rule out.
PlanInput plan_input_of(std::int64_t S, std::int64_t L, bool noisy, Objective objective, double M) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(S * 7919 + L));
  std::uniform_real_distribution<double> noise(0.5, 1.5);
  const double attention[3] = {1.0, 1.5, 2.9}, mlp[3] = {1.2, 2.0, 3.1}, memory[3] = {80, 40, 24};
  PlanInput in;
  in.objective = objective;
  in.M = M;
  double capacity = 0;
  for (std::int64_t s = 0; s < S; ++s) {
    const auto kind = static_cast<std::size_t>(rng() % 3);
    PlanDevice device;
    for (std::int64_t b = 0; b < L; ++b) {
      double t = b == 0 ? 0.4 : b == L - 1 ? 1.6 : b % 2 ? attention[kind] : mlp[kind];
      if (noisy) t *= noise(rng);
      device.layer_times.push_back(t);
    }
    device.memory_capacity = memory[kind];
    capacity += memory[kind];
    in.devices.push_back(device);
  }
  in.layer_memory.assign(static_cast<std::size_t>(L), 0.75 * capacity / static_cast<double>(L));
  for (std::int64_t s = 0; s + 1 < S; ++s) in.links.push_back({0.05, s % 4 == 3 ? 2.0 : 20.0});
  in.cut_bytes.assign(static_cast<std::size_t>(L - 1), 1.0);
  return in;
}

// Args: S, L, noisy (0/1), objective (0 async, 1 blocking, 2 throughput), M.
void BM_plan(benchmark::State& state) {
  const auto objective = static_cast<Objective>(state.range(3));
  const PlanInput in = plan_input_of(state.range(0), state.range(1), state.range(2) != 0, objective,
                                     static_cast<double>(state.range(4)));
  for (auto _ : state) {
    auto plan = make_plan(in);
    benchmark::DoNotOptimize(plan);
  }
}

// Every order of S devices (Args: S, L, noisy), asynchronous at M = 8.
// Noisy devices are all distinct, so every one of the S! orders is solved;
// otherwise devices of one kind never trade places.
void BM_plan_order_search(benchmark::State& state) {
  PlanInput in = plan_input_of(state.range(0), state.range(1), state.range(2) != 0, Objective::async, 8);
  in.order = DeviceOrder::search;
  for (auto _ : state) {
    auto plan = make_plan(in);
    benchmark::DoNotOptimize(plan);
  }
}

// The whole report (plan, baselines, runtime flags, what-if) on the
// explicit instance above (Args: S, L), asynchronous at M = 8.
void BM_plan_report(benchmark::State& state) {
  const PlanInput in = plan_input_of(state.range(0), state.range(1), false, Objective::async, 8);
  for (auto _ : state) {
    auto report = make_plan_report(in, PlanLink{0.05, 20});
    benchmark::DoNotOptimize(report);
  }
}

// What `heteropipe plan` and the page do per input: read the estimate form,
// estimate, plan and report. Llama 3 70B (80 layers) at Q4_K_M over the
// first Arg devices of a mixed list, single-stream decode.
void BM_plan_estimate_report(benchmark::State& state) {
  const char* gpus[] = {"rtx-4090", "rtx-3090", "rtx-3090", "tesla-p40",
                        "rtx-4080", "rtx-a6000", "rtx-3060-12gb", "rtx-4060-ti-16gb"};
  std::string text = R"({"model": "llama-3-70b", "quant": "Q4_K_M", "context": 4096, "M": 1, "devices": [)";
  for (std::int64_t s = 0; s < state.range(0); ++s) text += (s ? ", \"" : "\"") + std::string(gpus[s]) + "\"";
  text += "]}";
  for (auto _ : state) {
    auto report = make_plan_report(read_plan_json(text).request);
    benchmark::DoNotOptimize(report);
  }
}

}  // namespace

BENCHMARK(BM_plan_report)->ArgNames({"S", "L"})->Args({4, 128})->Args({16, 128})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_plan_estimate_report)->ArgNames({"S"})->Arg(2)->Arg(4)->Arg(8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_plan)
    ->ArgNames({"S", "L", "noisy", "objective", "M"})
    ->Args({16, 128, 0, 0, 8})
    ->Args({16, 128, 0, 1, 8})
    ->Args({16, 128, 0, 2, 8})
    ->Args({16, 128, 1, 0, 2})
    ->Args({16, 128, 1, 0, 8})
    ->Args({64, 1000, 0, 0, 1})
    ->Args({64, 1000, 0, 0, 2})
    ->Args({64, 1000, 0, 0, 8})
    ->Args({64, 1000, 0, 0, 1024})
    ->Args({64, 1000, 0, 1, 8})
    ->Args({64, 1000, 0, 2, 8})
    ->Args({64, 1000, 1, 0, 2})
    ->Args({64, 1000, 1, 0, 8})
    ->Args({64, 1000, 1, 1, 8})
    ->Args({256, 4096, 0, 0, 8})
    ->Args({256, 4096, 1, 0, 8})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_plan_order_search)
    ->ArgNames({"S", "L", "noisy"})
    ->Args({4, 128, 0})
    ->Args({6, 128, 0})
    ->Args({6, 1000, 0})
    ->Args({6, 128, 1})
    ->Args({6, 242, 1})   // at the work bound: 720 x 6 x 242 steps
    ->Args({5, 1747, 1})  // likewise: 120 x 5 x 1747
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_plain_pass)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_analyze_copied)->Arg(4)->Arg(64)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_analyze)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_recurrence)->Args({64, 1'000'000})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_timeline)->Args({64, 1'000})->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
