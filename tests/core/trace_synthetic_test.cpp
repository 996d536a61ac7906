// Recovery from traces written from the exact engine's timeline: tau, d, M,
// T_real and the clock offsets come back as they were made.
#include <doctest/doctest.h>

#include <sstream>

#include "trace_support.hpp"

using namespace heteropipe;
using heteropipe::testing::SyntheticRun;

namespace {

TraceResult recover(const TraceEvents& events, TraceOptions options = {}) {
  auto result = recover_model(events, options);
  REQUIRE(result.ok());
  return std::move(result).value();
}

// Four stages whose micro-batches are annotation ranges; the last stage
// queues, so its ranges, not the receives, cut it.
SyntheticRun annotated_run() {
  SyntheticRun run;
  run.tau = {400, 800, 2000, 4000};
  run.d = {100, 40, 60};
  run.M = 6;
  run.clock = {0, 900, -50, 3};
  run.annotate = true;
  return run;
}

// Micro-batches by their ranges' names, times in microseconds.
TraceOptions by_ranges() {
  TraceOptions options;
  options.microbatch_regex = "^microbatch_(\\d+)$";
  options.unit = TimeUnit::us;
  return options;
}

void check_recovers(const SyntheticRun& run) {
  const Timeline t = testing::synthetic_timeline(run);
  const TraceResult r = recover(testing::read_synthetic(run));
  REQUIRE(r.pipeline);
  CHECK(r.M == run.M);
  REQUIRE(r.tau.size() == run.tau.size());
  for (std::size_t s = 0; s < run.tau.size(); ++s) {
    CAPTURE(s);
    CHECK(r.tau[s] == doctest::Approx(run.tau[s] / 1000).epsilon(1e-12));
    CHECK(r.stages[s].span.count == run.M);
    CHECK(r.stages[s].busy.max == doctest::Approx(run.tau[s] / 1000).epsilon(1e-12));
    const double clock = run.clock.empty() ? 0 : run.clock[s] - run.clock[0];
    CHECK(r.clock_offsets[s] == doctest::Approx(-clock / 1000).epsilon(1e-12));
  }
  for (std::size_t l = 0; l < run.d.size(); ++l) {
    CHECK(r.d[l] == doctest::Approx(run.d[l] / 1000).epsilon(1e-12));
    CHECK(r.links[l].pairs == run.M);
    CHECK(r.links[l].unmatched == 0);
  }
  CHECK(r.T_real == doctest::Approx(t.makespan / 1000).epsilon(1e-12));
  // The async timeline is the model's own run: T_real is T_async exactly.
  CHECK(r.analysis->T_async == doctest::Approx(r.T_real).epsilon(1e-12));
  CHECK(r.analysis->T_real_position == SandwichPosition::inside);
}

}  // namespace

TEST_CASE("trace: a three-stage run with clock offsets comes back exactly") {
  SyntheticRun run;
  run.tau = {1000, 2500, 1500};
  run.d = {200, 300};
  run.M = 8;
  run.clock = {0, 12345, -777};
  check_recovers(run);
}

TEST_CASE("trace: the bottleneck on the last stage (work queued back to back)") {
  SyntheticRun run;
  run.tau = {400, 800, 2000, 4000};
  run.d = {100, 40, 60};
  run.M = 12;
  run.kernels = 5;
  run.clock = {0, -3000, 50000, 7};
  check_recovers(run);
}

TEST_CASE("trace: a phase transition run and blocking-scale links") {
  SyntheticRun run;
  run.tau = {500, 1000, 1000, 5000};
  run.d = {4600, 100, 100};
  run.M = 16;
  run.kernels = 2;
  check_recovers(run);
}

TEST_CASE("trace: the statistic chosen, units and a sample of each") {
  SyntheticRun run;
  run.tau = {1000, 2000};
  run.d = {500};
  run.M = 5;
  TraceOptions options;
  options.unit = TimeUnit::us;
  options.stat = TraceStat::mean;
  const TraceResult r = recover(testing::read_synthetic(run), options);
  REQUIRE(r.pipeline);
  CHECK(r.tau == std::vector<double>{1000, 2000});
  CHECK(r.d == std::vector<double>{500});
  CHECK(r.stages[1].span.p95 == 2000);
  options.unit = TimeUnit::s;
  CHECK(recover(testing::read_synthetic(run), options).tau[1] == doctest::Approx(0.002).epsilon(1e-12));
  // The receive's wait for its peer is not part of d.
  CHECK(r.links[0].d.max == 500);
  // M = 5 micro-batches over S = 2 stages is enough for a steady state.
  CHECK(r.warnings.empty());
}

TEST_CASE("trace: the user's stage order and micro-batch annotations") {
  SyntheticRun run;
  run.tau = {1000, 2000};
  run.d = {500};
  run.M = 4;
  TraceOptions options;
  options.stage_order = {1, 0};
  const auto reversed = recover(testing::read_synthetic(run), options);
  CHECK(reversed.ranks[0].stage == 1);
  options.stage_order = {0, 2};
  CHECK(recover_model(testing::read_synthetic(run), options).error().code == ErrorCode::not_a_permutation);
  options.stage_order = {};
  options.compute_regex = "(";
  const auto bad = recover_model(testing::read_synthetic(run), options);
  REQUIRE(!bad.ok());
  CHECK(bad.error().code == ErrorCode::bad_pattern);
  CHECK(bad.error().field == Field::compute_regex);
}

TEST_CASE("trace: the timeline's schedule CSV re-imports to the same numbers") {
  SyntheticRun run;
  run.tau = {1000, 2500, 1500};
  run.d = {200, 300};
  run.M = 6;
  const Timeline t = testing::synthetic_timeline(run);
  TraceEvents events;
  REQUIRE(!read_trace_text(testing::timeline_csv(t), "schedule.csv", events));
  TraceOptions options;
  options.unit = TimeUnit::us;
  const TraceResult r = recover(events, options);
  REQUIRE(r.pipeline);
  CHECK(r.tau == run.tau);
  CHECK(r.d == run.d);
  CHECK(r.M == run.M);
  CHECK(r.T_real == t.makespan);
  // And the measured schedule of a trace is that CSV again.
  const TraceResult from_trace = recover(testing::read_synthetic(run), options);
  REQUIRE(from_trace.schedule.size() == r.schedule.size());
  TraceEvents again;
  again.rows = from_trace.schedule;
  const TraceResult round = recover(again, options);
  CHECK(round.tau == from_trace.tau);
  CHECK(round.d == from_trace.d);
  CHECK(round.T_real == from_trace.T_real);
}

TEST_CASE("trace: a schedule CSV with its unit in the header reads in that unit") {
  SyntheticRun run;
  run.tau = {1000, 2500, 1500};
  run.d = {200, 300};
  run.M = 4;
  const Timeline t = testing::synthetic_timeline(run);
  const std::string in_us = testing::timeline_csv(t);
  TraceOptions options;
  options.unit = TimeUnit::us;
  TraceEvents plain;
  REQUIRE(!read_trace_text(in_us, "us.csv", plain));
  const TraceResult expected = recover(plain, options);
  REQUIRE(expected.pipeline);
  // The same times written in ms and in s (every value here is exact in both): the same numbers.
  for (const auto& [unit, per_us] : {std::pair<std::string, double>{"ms", 1e3}, {"s", 1e6}, {"us", 1}}) {
    std::ostringstream out;
    out.precision(17);
    out << "stage,microbatch,kind,start_" << unit << ",end_" << unit << "\n";
    for (const ScheduleRow& row : plain.rows) {
      out << row.stage << ',' << row.microbatch << ',' << (row.transfer ? "transfer" : "compute") << ','
          << row.start / per_us << ',' << row.end / per_us << '\n';
    }
    TraceEvents events;
    REQUIRE(!read_trace_text(out.str(), "unit.csv", events));
    const TraceResult r = recover(events, options);
    REQUIRE(r.pipeline);
    CHECK(r.tau == expected.tau);
    CHECK(r.d == expected.d);
    CHECK(r.T_real == expected.T_real);
  }
  // A unit the reader does not know, or start and end in different units: the header is wrong.
  for (const char* header : {"stage,microbatch,kind,start_min,end_min\n", "stage,microbatch,kind,start_ms,end_s\n"}) {
    TraceEvents events;
    const auto problem = read_trace_text(std::string(header) + "0,0,compute,0,1\n", "bad.csv", events);
    REQUIRE(problem);
    CHECK(problem->code == ErrorCode::missing_field);
    CHECK(problem->index == 0);
  }
}

TEST_CASE("trace: what is no pipeline says why") {
  SyntheticRun run;
  run.tau = {1000};
  run.M = 3;
  const TraceResult one = recover(testing::read_synthetic(run));
  CHECK(!one.pipeline);
  CHECK(one.reason == NotPipeline::one_rank);
  CHECK(one.ranks.size() == 1);
  CHECK(one.ranks[0].compute_kernels == 12);

  TraceEvents collectives;
  const char* text = R"({"traceEvents":[
    {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":0,"dur":10},
    {"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce","pid":0,"tid":9,"ts":10,"dur":4},
    {"ph":"X","cat":"kernel","name":"gemm","pid":1,"tid":7,"ts":0,"dur":12},
    {"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce","pid":1,"tid":9,"ts":12,"dur":2}]})";
  REQUIRE(!read_chrome_trace(text, "merged.json", collectives));
  const TraceResult c = recover(collectives);
  CHECK(c.reason == NotPipeline::collectives_only);
  REQUIRE(c.ranks.size() == 2);
  CHECK(c.ranks[1].compute_time == doctest::Approx(0.012));
  CHECK(c.ranks[1].communication_time == doctest::Approx(0.002));
}

TEST_CASE("trace: B/E pairs, the bare array and fractional microseconds") {
  const char* text = R"([
    {"ph":"B","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":0.5},
    {"ph":"E","pid":0,"tid":7,"ts":100.5},
    {"ph":"X","cat":"kernel","name":"ncclKernel_Send","pid":0,"tid":8,"ts":100.5,"dur":20.25},
    {"ph":"X","cat":"kernel","name":"ncclKernel_Recv","pid":1,"tid":8,"ts":90,"dur":30.75},
    {"ph":"X","cat":"kernel","name":"gemm","pid":1,"tid":7,"ts":120.75,"dur":50}])";
  TraceEvents events;
  REQUIRE(!read_chrome_trace(text, "array.json", events));
  TraceOptions options;
  options.unit = TimeUnit::us;
  const TraceResult r = recover(events, options);
  REQUIRE(r.pipeline);
  CHECK(r.tau == std::vector<double>{100, 50});
  CHECK(r.d == std::vector<double>{20.25});
  CHECK(r.T_real == 170.25);
  CHECK(r.clock_offsets == std::vector<double>{0, 0});
}

TEST_CASE("trace: micro-batches from annotation ranges") {
  const SyntheticRun run = annotated_run();
  const TraceOptions options = by_ranges();
  const TraceResult r = recover(testing::read_synthetic(run), options);
  REQUIRE(r.pipeline);
  CHECK(r.tau == run.tau);
  CHECK(r.M == run.M);
  CHECK(r.clock_offsets == std::vector<double>{0, -900, 50, -3});
  // Without the regex the ranges are ignored, and the numbers are the same.
  CHECK(recover(testing::read_synthetic(run), TraceOptions{TraceStat::min, TimeUnit::us, {}, "", "", ""}).tau ==
        run.tau);
}

TEST_CASE("trace: a GPU run's host ranges beside their device copies are one micro-batch each, the device's") {
  // Kineto writes each record_function range twice on a GPU: the host's
  // (user_annotation, as it enqueues) and the device's (gpu_user_annotation,
  // around the kernels), with one name, so each number shows twice a rank.
  SyntheticRun run = annotated_run();
  const TraceResult device_only = recover(testing::read_synthetic(run), by_ranges());
  run.host_ranges = true;
  const TraceResult r = recover(testing::read_synthetic(run), by_ranges());
  testing::check_same(r, device_only);
  CHECK(r.tau == run.tau);
  CHECK(r.M == run.M);
  CHECK(!testing::warning_of(r, TraceWarningCode::repeated_microbatch_names));
}

TEST_CASE("trace: a GPU training run's forward pass imports by its gpu_user_annotation ranges") {
  // The annotated run above, as a GPipe step's forward pass: after it, each
  // stage s > 0 sends a gradient per micro-batch to s - 1 (NCCL kernels,
  // no direction-giving ranges around them), and autograd's ops are in the
  // trace. Each range claims its own messages; the gradients, after the
  // last range, are the other pass's, and the numbers are the forward run's.
  SyntheticRun run = annotated_run();
  const TraceOptions options = by_ranges();
  const TraceResult forward = recover(testing::read_synthetic(run), options);
  run.gradients = true;
  run.autograd = true;
  const TraceResult r = recover(testing::read_synthetic(run), options);
  REQUIRE(r.pipeline);
  CHECK(r.tau == run.tau);
  CHECK(r.M == run.M);
  CHECK(r.clock_offsets == forward.clock_offsets);
  CHECK(r.T_real == forward.T_real);
  const TraceWarning* aside = testing::warning_of(r, TraceWarningCode::other_pass_set_aside);
  REQUIRE(aside);
  CHECK(aside->value == 2 * 3 * run.M);  // 3 links, both sides of each gradient
  CHECK(aside->limit == 2 * 3 * run.M);
}

TEST_CASE("trace: unmatched transfers are counted and warned about") {
  const char* text = R"([
    {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":0,"dur":10},
    {"ph":"X","cat":"kernel","name":"ncclKernel_Send","pid":0,"tid":8,"ts":10,"dur":5},
    {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":10,"dur":10},
    {"ph":"X","cat":"kernel","name":"ncclKernel_Send","pid":0,"tid":8,"ts":20,"dur":5},
    {"ph":"X","cat":"kernel","name":"ncclKernel_Recv","pid":1,"tid":8,"ts":10,"dur":5},
    {"ph":"X","cat":"kernel","name":"gemm","pid":1,"tid":7,"ts":15,"dur":20}])";
  TraceEvents events;
  REQUIRE(!read_chrome_trace(text, "merged.json", events));
  TraceOptions options;
  options.unit = TimeUnit::us;
  const TraceResult r = recover(events, options);
  REQUIRE(r.pipeline);
  CHECK(r.M == 1);
  CHECK(r.links[0].unmatched == 1);
  // One receive against two sends: its kernel ends with the first (offset
  // 0) or, the receiver's trace having started late, with the second (10).
  // Either agrees with the pair, so the link's pairing is ambiguous.
  REQUIRE(r.warnings.size() == 3);
  CHECK(r.warnings[0].code == TraceWarningCode::unmatched_transfers);
  CHECK(r.warnings[0].value == 1);
  CHECK(r.warnings[1].code == TraceWarningCode::pairing_ambiguous);
  CHECK(r.warnings[1].index == 0);
  CHECK(r.warnings[1].value == r.clock_offsets[1]);
  CHECK(r.warnings[1].limit == 10);
  CHECK(r.warnings[2].code == TraceWarningCode::short_run);
  CHECK(r.tau == std::vector<double>{10, 20});
  CHECK(r.T_real == 35);
}

TEST_CASE("trace: a user's regex over a huge name does not overflow the stack") {
  const std::string name(2'000'000, 'a');
  const std::string text = R"([{"ph":"X","cat":"kernel","name":")" + name + R"(","pid":0,"tid":7,"ts":0,"dur":10}])";
  TraceEvents events;
  REQUIRE(!read_chrome_trace(text, "long.json", events));
  TraceOptions options;
  options.compute_regex = "(a|b)+c";
  const TraceResult r = recover(events, options);
  CHECK(r.reason == NotPipeline::one_rank);
  CHECK(r.ranks[0].compute_kernels == 0);
}
