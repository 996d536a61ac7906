// Results returned to stage 0 and messages back: a forward pipeline whose
// last stage sends its outputs to stage 0 imports as the pipeline it is, with
// the returns set aside; a training run's gradients stay two-way traffic.
// Both with the peers torch 2.x names ("Src Rank", "Dst Rank") and without.
#include <doctest/doctest.h>

#include <algorithm>

#include "trace_support.hpp"

using namespace heteropipe;
using heteropipe::testing::SyntheticRun;
using heteropipe::testing::warning_of;

namespace {

TraceResult recover(const SyntheticRun& run, TraceOptions options = {}) {
  auto result = recover_model(testing::read_synthetic(run), options);
  REQUIRE(result.ok());
  return std::move(result).value();
}

SyntheticRun three_stages() {
  SyntheticRun run;
  run.tau = {1000, 2500, 1500};
  run.d = {200, 300};
  run.M = 8;
  run.clock = {0, 12345, -777};
  return run;
}

SyntheticRun two_stages() {
  SyntheticRun run;
  run.tau = {1200, 2000};
  run.d = {400};
  run.M = 6;
  run.clock = {0, -4321};
  return run;
}

}  // namespace

TEST_CASE("trace returns: results sent back to stage 0 are set aside, by position and by named peer") {
  for (bool peers : {false, true}) {
    for (SyntheticRun run : {three_stages(), two_stages()}) {
      CAPTURE(peers);
      CAPTURE(run.tau.size());
      run.peers = peers;
      const TraceResult plain = recover(run);
      run.returns = true;
      const TraceResult with = recover(run);
      testing::check_same(with, plain);
      const TraceWarning* w = warning_of(with, TraceWarningCode::returns_to_first_stage);
      REQUIRE(w);
      CHECK(w->value == run.M);
      CHECK(w->limit == run.M);
      CHECK(!warning_of(plain, TraceWarningCode::returns_to_first_stage));
    }
  }
}

TEST_CASE("trace returns: a training run's gradients are two-way traffic, not returns") {
  // Three stages, no peers named: the middle stage carries both passes, 2M
  // messages each way against stage 0's M sends.
  SyntheticRun run = three_stages();
  run.gradients = true;
  TraceResult r = recover(run);
  CHECK(!r.pipeline);
  REQUIRE(r.reason);
  CHECK(*r.reason == NotPipeline::two_way_traffic);
  // Named peers say the gradients go back, whatever the counts.
  run.peers = true;
  r = recover(run);
  REQUIRE(r.reason);
  CHECK(*r.reason == NotPipeline::two_way_traffic);

  // Two stages: a gradient goes where a result would, by count and by peer;
  // autograd's backward ops in the trace tell a training run.
  for (bool peers : {false, true}) {
    CAPTURE(peers);
    SyntheticRun two = two_stages();
    two.peers = peers;
    two.gradients = true;
    two.autograd = true;
    r = recover(two);
    CHECK(!r.pipeline);
    REQUIRE(r.reason);
    CHECK(*r.reason == NotPipeline::two_way_traffic);
    // Without them, the same messages are results returned to stage 0.
    two.autograd = false;
    r = recover(two);
    CHECK(r.pipeline);
    CHECK(warning_of(r, TraceWarningCode::returns_to_first_stage));
  }
}

TEST_CASE("trace returns: a forward run's autograd ops change nothing when no message goes back") {
  // A training step's forward pass profiled alone still holds one pass.
  SyntheticRun run = three_stages();
  const TraceResult plain = recover(run);
  run.autograd = true;
  testing::check_same(recover(run), plain);
}

TEST_CASE("trace returns: a message whose named peer is no neighbour is set aside and counted") {
  SyntheticRun run = three_stages();
  run.peers = true;
  const TraceResult plain = recover(run);
  run.elsewhere = 7;  // a rank of another group
  const TraceResult with = recover(run);
  testing::check_same(with, plain);
  const TraceWarning* w = warning_of(with, TraceWarningCode::messages_set_aside);
  REQUIRE(w);
  CHECK(w->value == 3);
  // Each stage sends one more message to rank 2: stage 0's skips a link and
  // stage 2's goes to itself, both set aside; stage 1's is one more of its
  // link, after the last pair, so unmatched.
  run.elsewhere = 2;
  const TraceResult skip = recover(run);
  testing::check_same(skip, plain);
  REQUIRE(warning_of(skip, TraceWarningCode::messages_set_aside));
  CHECK(warning_of(skip, TraceWarningCode::messages_set_aside)->value == 2);
  CHECK(skip.links[1].unmatched == 1);
}

TEST_CASE("trace returns: named peers that all point against the stages' order say so") {
  SyntheticRun run = three_stages();
  run.peers = true;
  TraceOptions o;
  o.stage_order = {2, 1, 0};
  const TraceResult r = recover(run, o);
  CHECK(!r.pipeline);
  REQUIRE(r.reason);
  CHECK(*r.reason == NotPipeline::stages_out_of_order);
}

TEST_CASE("trace returns: torch 2.x's peer args are read as numbers or digits, and say the direction") {
  const std::string text = R"([
{"ph":"X","name":"record_param_comms","ts":1,"dur":2,"pid":1,"tid":1,"args":{"Dst Rank":3}},
{"ph":"X","name":"record_param_comms","ts":4,"dur":2,"pid":1,"tid":1,"args":{"Src Rank":"2","Collective name":"recv"}},
{"ph":"X","name":"record_param_comms","ts":7,"dur":2,"pid":1,"tid":1,"args":{"Src Rank":-1}},
{"ph":"X","name":"record_param_comms","ts":9,"dur":2,"pid":1,"tid":1,"args":{"Dst Rank":1.5}},
{"ph":"X","name":"record_param_comms","ts":9,"dur":2,"pid":1,"tid":1,"args":{"Dst Rank":[1]}}
])";
  TraceEvents events;
  REQUIRE(!read_chrome_trace(text, "t.json", events));
  REQUIRE(events.events.size() == 5);
  CHECK(events.peers == std::vector<std::pair<std::uint32_t, std::int64_t>>{{0, 3}, {1, 2}});
  CHECK(events.events[0].direction == Direction::send);
  CHECK(events.events[1].direction == Direction::recv);
  CHECK(events.events[2].direction == Direction::unknown);
  // A file that fails keeps no peer of its own.
  REQUIRE(read_chrome_trace(R"([{"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1,"args":{"Dst Rank":5}},{"ph":"E"}])",
                            "bad.json", events));
  CHECK(events.peers.size() == 2);
}
