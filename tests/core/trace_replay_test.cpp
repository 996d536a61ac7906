// The replay of a measured run through the simulator and the explanation of
// T_real by it: closed forms on constant spans, worked examples by hand on
// varying ones, and the parts always summing to T_real.
#include <doctest/doctest.h>

#include <sstream>

#include "heteropipe/text/trace_text.hpp"
#include "trace_support.hpp"

using namespace heteropipe;
using heteropipe::testing::SyntheticRun;

namespace {

TraceResult recover_csv(const std::string& csv) {
  TraceEvents events;
  REQUIRE(!read_trace_text(csv, "schedule.csv", events));
  TraceOptions options;
  options.unit = TimeUnit::us;
  auto result = recover_model(events, options);
  REQUIRE(result.ok());
  REQUIRE(result.value().pipeline);
  return std::move(result).value();
}

// The explanation's causes in order, and its times.
std::vector<double> parts(const TraceResult& r) {
  REQUIRE(r.explain.size() == 4);
  const ExplainCause order[] = {ExplainCause::model, ExplainCause::variability, ExplainCause::blocking,
                                ExplainCause::other};
  std::vector<double> times;
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(r.explain[i].cause == order[i]);
    times.push_back(r.explain[i].time);
  }
  return times;
}

double sum(const std::vector<double>& xs) {
  double total = 0;
  for (double x : xs) total += x;
  return total;
}

// Two stages, three micro-batches: spans 2, 4, 2 and 3, 3, 5, transfers 1, 1, 3
// (p50: tau 2, 3 and d 1, so T_async = 5 + 1 + 2 x 3 = 12). Replayed by hand:
// async, stage 0 runs 0-2, 2-6, 6-8, its transfers 2-3, 6-7, 8-11, and stage 1
// 3-6, 7-10, 11-16: 16; blocking, stage 0 is held through each transfer
// (0-2-3, 3-7-8, 8-10-13) and stage 1 runs 3-6, 8-11, 13-18: 18. The last
// compute row of stage 1 is given as `last`.
std::string worked(const std::string& last) {
  return "stage,microbatch,kind,start,end\n"
         "0,0,compute,0,2\n0,1,compute,2,6\n0,2,compute,6,8\n"
         "0,0,transfer,2,3\n0,1,transfer,6,7\n0,2,transfer,8,11\n"
         "1,0,compute,3,6\n1,1,compute,7,10\n" +
         last;
}

}  // namespace

TEST_CASE("trace replay: constant spans replay the closed forms exactly") {
  for (Regime regime : {Regime::async, Regime::blocking}) {
    SyntheticRun run;
    run.tau = {1000, 2500, 1500, 750};
    run.d = {200, 300, 4000};
    run.M = 9;
    const Timeline t = timeline(Pipeline::create(run.tau, run.d).value(), 9, regime).value();
    const TraceResult r = recover_csv(testing::timeline_csv(t));
    REQUIRE(r.replay);
    CHECK(r.replay->async == r.analysis->T_async);
    CHECK(r.replay->blocking == r.analysis->T_block);
    const std::vector<double> p = parts(r);
    CHECK(p[0] == r.analysis->T_async);
    CHECK(p[1] == 0);
    CHECK(p[2] == (regime == Regime::async ? 0 : r.analysis->T_block - r.analysis->T_async));
    CHECK(p[3] == 0);
    CHECK(sum(p) == r.T_real);
    REQUIRE(r.overlap_ratio_replay);
    CHECK(*r.overlap_ratio_replay == (regime == Regime::async ? 1 : 0));
  }
  // The Kineto-shaped synthetic trace too (read in ms): the replay is T_async within rounding.
  SyntheticRun run;
  run.tau = {1000, 2500, 1500};
  run.d = {200, 300};
  run.clock = {0, 12345, -777};
  auto r = recover_model(testing::read_synthetic(run), TraceOptions{});
  REQUIRE(r.ok());
  REQUIRE(r.value().replay);
  CHECK(r.value().replay->async == doctest::Approx(r.value().analysis->T_async).epsilon(1e-12));
}

TEST_CASE("trace replay: varying spans, worked by hand") {
  // T_real = 16, the async replay: all of the excess is variability.
  TraceResult r = recover_csv(worked("1,2,compute,11,16\n"));
  CHECK(r.tau == std::vector<double>{2, 3});
  CHECK(r.d == std::vector<double>{1});
  REQUIRE(r.replay);
  CHECK(r.replay->async == 16);
  CHECK(r.replay->blocking == 18);
  CHECK(parts(r) == std::vector<double>{12, 4, 0, 0});
  CHECK(*r.overlap_ratio_replay == 1);
  CHECK(text::describe_explain(r, "us") == "T_real 16 us = model 12 + variability 4 + blocking 0 + other 0 us");
  // Stage 1 starts its last micro-batch 1 late: blocking explains it, half the headroom.
  r = recover_csv(worked("1,2,compute,12,17\n"));
  CHECK(parts(r) == std::vector<double>{12, 4, 1, 0});
  CHECK(*r.overlap_ratio_replay == 0.5);
  // 4 late: blocking explains 2 (all its headroom), the other 2 is the rest.
  r = recover_csv(worked("1,2,compute,15,20\n"));
  CHECK(parts(r) == std::vector<double>{12, 4, 2, 2});
  CHECK(*r.overlap_ratio_replay == -1);
  // 1 early (before its transfer ended): the run beat its own replay, and the rest is negative.
  r = recover_csv(worked("1,2,compute,10,15\n"));
  CHECK(parts(r) == std::vector<double>{12, 4, 0, -1});
  CHECK(text::describe_explain(r, "us") == "T_real 15 us = model 12 + variability 4 + blocking 0 + other -1 us");
}

TEST_CASE("trace replay: without headroom there is no replay overlap ratio, and the parts still sum to T_real") {
  // Transfers that take no time: d is 0, the two replays are equal, and the result says why d is 0.
  const TraceResult r = recover_csv(
      "stage,microbatch,kind,start,end\n"
      "0,0,compute,0,2\n0,1,compute,2,6\n0,2,compute,6,8\n"
      "0,0,transfer,2,2\n0,1,transfer,6,6\n0,2,transfer,8,8\n"
      "1,0,compute,2,5\n1,1,compute,6,9\n1,2,compute,9,15\n");
  REQUIRE(r.replay);
  CHECK(r.replay->async == r.replay->blocking);
  CHECK_FALSE(r.overlap_ratio_replay);
  CHECK(sum(parts(r)) == r.T_real);
  REQUIRE(r.warnings.size() == 1);
  const TraceWarning& w = r.warnings[0];
  CHECK(w.code == TraceWarningCode::link_time_zero);
  CHECK(w.index == 0);
  CHECK(w.value == 3);
  CHECK(w.limit == 3);
  CHECK(text::describe(w) ==
        "link 0: d is 0 because 3 of its 3 transfers took no time: each of those receives ended by the time both "
        "sides had started (the message was there before the receiver asked, or the transfer hid inside a wait)");
}

TEST_CASE("trace replay: a schedule with no variability says 0 for it, whatever the rounding of its times") {
  // Times in tenths (heteropipe's own timeline, exported and imported back):
  // the replay and the closed form summed them in other orders, 3.5e-18 apart,
  // and the report said "variability 3.469446952e-18 + other -3.469446952e-18".
  for (double scale : {0.1, 0.001, 1e-7}) {
    const Timeline t = timeline(Pipeline::create({5 * scale, 10 * scale, 10 * scale, 50 * scale},
                                                 {2 * scale, 1 * scale, 3 * scale}).value(),
                                3, Regime::async).value();
    const TraceResult r = recover_csv(testing::timeline_csv(t));
    const std::vector<double> p = parts(r);
    CHECK(p[1] == 0);
    CHECK(p[3] == 0);
    CHECK(sum(p) == r.T_real);
  }
}

TEST_CASE("trace: a schedule CSV takes clock offsets by hand, checked as for trace files, and has no profiler steps") {
  // They were dropped unread: a wrong count, 1e300 and NaN all imported as 0, 0, ...
  const std::string csv = worked("1,2,compute,11,16\n");
  TraceEvents events;
  REQUIRE(!read_trace_text(csv, "schedule.csv", events));
  TraceOptions options;
  options.unit = TimeUnit::us;
  options.clock_offsets = {0, 1, 2};
  auto wrong = recover_model(events, options);
  REQUIRE(!wrong.ok());
  CHECK(wrong.error().code == ErrorCode::wrong_length);
  CHECK(wrong.error().field == Field::clock_offsets);
  CHECK(wrong.error().limit == 2);
  options.clock_offsets = {0, 1e300};
  CHECK(recover_model(events, options).error().code == ErrorCode::too_large);
  options.clock_offsets = {0, std::nan("")};
  CHECK(recover_model(events, options).error().code == ErrorCode::not_finite);
  // Applied: stage 1's rows (its own log's clock) move 4 us later, and so does T_real's end.
  options.clock_offsets = {0, 4};
  auto moved = recover_model(events, options);
  REQUIRE(moved.ok());
  CHECK(moved.value().clock_offsets == std::vector<double>{0, 4});
  CHECK(moved.value().T_real == recover_csv(csv).T_real + 4);
  options.clock_offsets.clear();
  options.profiler_step = 5;
  auto step = recover_model(events, options);
  REQUIRE(!step.ok());
  CHECK(step.error().code == ErrorCode::unknown_id);
  CHECK(step.error().field == Field::profiler_step);
}
