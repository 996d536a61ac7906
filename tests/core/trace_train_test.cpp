// Recovery of one pass of a GPipe training step in the CPU profiler's form:
// every micro-batch forward (ranges microbatch_m, inputs received before
// each range, outputs sent after it), then every one backward (ranges
// backward_m, each gradient received inside the range, the input's gradient
// sent to the stage before after it). Each pass imports by its own ranges,
// the other's traffic set aside; the backward pass runs the chain reversed.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <heteropipe/trace/model.hpp>

#include "trace_support.hpp"

using namespace heteropipe;
using heteropipe::testing::cpu_event;
using heteropipe::testing::warning_of;

namespace {

struct TrainRun {
  std::vector<double> forward{100, 60, 150};    // per stage: one micro-batch's forward ops
  std::vector<double> backward{200, 130, 90};   // per stage: one micro-batch's backward ops
  std::vector<double> origin{5000, 2000, 9000};  // each rank's profiler origin on the host's clock
  double transfer = 3, clone = 2;
  int M = 6;
};

// The truth of one pass, on the host's clock: its makespan from the first
// compute of the stage that starts it to the last of the stage that ends it.
struct PassTruth {
  double makespan = 0;
};

// One pass along `chain` (the ranks in the order the pass runs them). A
// stage posts its receive when it is free, gets the message `transfer`
// after both sides are there (gloo's rendezvous), and sends after its
// range (c10d::send, then gloo:send until the message is delivered).
// Forward: the receive and a clone before the range. Backward: inside the
// range, after the gradient buffer's allocation (aten::empty), as
// `dist.recv` inside `record_function` does; the last stage of the chain
// (rank 0) sends nothing.
PassTruth one_pass(const TrainRun& run, const std::vector<std::size_t>& chain, bool forward,
                   std::vector<std::ostringstream>& out, std::vector<double>& free) {
  const std::size_t S = chain.size();
  const std::string name = forward ? "microbatch_" : "backward_";
  double first = 0, last = 0;
  for (int m = 0; m < run.M; ++m) {
    double arrival = 0;  // of micro-batch m at stage k, from stage k - 1
    for (std::size_t k = 0; k < S; ++k) {
      const std::size_t r = chain[k];
      const double o = run.origin[r];
      const double tau = forward ? run.forward[r] : run.backward[r];
      double range = free[r], a = free[r];
      if (k > 0) {
        const double post = forward ? free[r] : free[r] + 2;
        const double got = std::max(post + 1.5, arrival);
        if (!forward) cpu_event(out[r], "aten::empty", free[r] + 0.5 - o, 1);
        cpu_event(out[r], "c10d::recv_", post - o, 0.5);
        cpu_event(out[r], "gloo:recv", post + 0.5 - o, got - post - 0.5);
        a = got;
        if (forward) {
          cpu_event(out[r], "aten::clone", got - o, run.clone);
          a = got + run.clone;
          range = a;
        }
      }
      cpu_event(out[r], name + std::to_string(m), range - o, a + tau - range);
      if (forward) {
        cpu_event(out[r], "aten::matmul", a - o, tau * 0.6);
        cpu_event(out[r], "aten::mm", a + 1 - o, tau * 0.6 - 2);
        cpu_event(out[r], "aten::tanh", a + tau * 0.6 - o, tau * 0.4);
      } else {
        cpu_event(out[r], "autograd::engine::evaluate_function: TanhBackward0", a - o, tau * 0.4);
        cpu_event(out[r], "autograd::engine::evaluate_function: MmBackward0", a + tau * 0.4 - o, tau * 0.6);
      }
      if (k == 0 && m == 0) first = a;
      free[r] = a + tau;
      if (k + 1 < S) {
        const std::size_t next = chain[k + 1];
        const double send = a + tau + 2;
        const double post = forward ? free[next] : free[next] + 2;
        arrival = std::max(send, post) + run.transfer;
        cpu_event(out[r], "c10d::send", a + tau - o, 2);
        cpu_event(out[r], "gloo:send", send - o, arrival - send);
        free[r] = arrival;
      } else {
        last = a + tau;
      }
    }
  }
  return {last - first};
}

std::vector<std::string> train_texts(const TrainRun& run, PassTruth& forward, PassTruth& backward) {
  const std::size_t S = run.forward.size();
  std::vector<std::ostringstream> out(S);
  for (auto& o : out) o << "[";
  std::vector<double> free(S, 10000);
  std::vector<std::size_t> chain;
  for (std::size_t s = 0; s < S; ++s) chain.push_back(s);
  forward = one_pass(run, chain, true, out, free);
  // The backward pass starts when every stage's forward pass is done.
  const double start = *std::max_element(free.begin(), free.end()) + 50;
  std::fill(free.begin(), free.end(), start);
  std::reverse(chain.begin(), chain.end());
  backward = one_pass(run, chain, false, out, free);
  std::vector<std::string> texts;
  for (auto& o : out) {
    o << "]";
    texts.push_back(o.str());
  }
  return texts;
}

Result<TraceResult> recover(const std::vector<std::string>& texts, const std::string& pattern,
                            std::vector<std::int64_t> order = {}, std::vector<double> offsets = {}) {
  TraceEvents events;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    REQUIRE(!read_trace_text(texts[i], "rank-" + std::to_string(i), events));
  }
  TraceOptions o;
  o.unit = TimeUnit::us;
  o.microbatch_regex = pattern;
  o.stage_order = std::move(order);
  o.clock_offsets = std::move(offsets);
  return recover_model(events, o);
}

constexpr const char* kForward = "^microbatch_([0-9]+)$";
constexpr const char* kBackward = "^backward_([0-9]+)$";

}  // namespace

TEST_CASE("trace train: the forward pass imports by its ranges, the gradients set aside") {
  TrainRun run;
  PassTruth forward, backward;
  const auto texts = train_texts(run, forward, backward);
  const auto found = recover(texts, kForward);
  REQUIRE(found.ok());
  const TraceResult& r = found.value();
  REQUIRE(r.pipeline);
  CHECK(r.M == run.M);
  for (std::size_t s = 0; s < 3; ++s) {
    CHECK(r.stages[s].rank == static_cast<std::int64_t>(s));
    CHECK(r.tau[s] == run.forward[s]);
    // Each link's offset is within its transfer of the truth.
    CHECK(std::abs(r.clock_offsets[s] - (run.origin[s] - run.origin[0])) <= s * (run.transfer + 2));
  }
  for (const TraceLink& l : r.links) {
    CHECK(l.pairs == run.M);
    CHECK(l.unmatched == 0);
  }
  CHECK(std::abs(r.T_real - forward.makespan) <= 2 * (run.transfer + 2));
  // The backward pass's messages: M gradients on each of 2 links, both sides.
  const TraceWarning* w = warning_of(r, TraceWarningCode::other_pass_set_aside);
  REQUIRE(w);
  CHECK(w->value == 4 * run.M);
  CHECK(w->limit == 4 * run.M);
  CHECK(!warning_of(r, TraceWarningCode::stages_reversed));
}

TEST_CASE("trace train: the backward pass runs the chain reversed, found from the messages' direction") {
  TrainRun run;
  PassTruth forward, backward;
  const auto texts = train_texts(run, forward, backward);
  // Without --stage-order, and with the forward order given: the pass's
  // messages flow from rank 2 to rank 0, so its stages are ranks 2, 1, 0.
  for (const std::vector<std::int64_t>& order : {std::vector<std::int64_t>{}, std::vector<std::int64_t>{0, 1, 2}}) {
    CAPTURE(order.size());
    const auto found = recover(texts, kBackward, order);
    REQUIRE(found.ok());
    const TraceResult& r = found.value();
    REQUIRE(r.pipeline);
    CHECK(r.M == run.M);
    for (std::size_t s = 0; s < 3; ++s) {
      const std::size_t rank = 2 - s;
      CHECK(r.stages[s].rank == static_cast<std::int64_t>(rank));
      CHECK(r.ranks[rank].stage == static_cast<std::int64_t>(s));
      // The gradient's receive inside each range is not the stage's compute.
      CHECK(r.tau[s] == run.backward[rank]);
      // Offsets put every stage on stage 0's clock (rank 2's).
      CHECK(std::abs(r.clock_offsets[s] - (run.origin[rank] - run.origin[2])) <= s * (run.transfer + 2));
    }
    CHECK(r.links[0].from_rank == 2);
    CHECK(r.links[1].to_rank == 0);
    CHECK(std::abs(r.T_real - backward.makespan) <= 2 * (run.transfer + 2));
    double total = 0;
    for (const ExplainPart& p : r.explain) total += p.time;
    CHECK(total == doctest::Approx(r.T_real));
    const TraceWarning* reversed = warning_of(r, TraceWarningCode::stages_reversed);
    REQUIRE(reversed);
    CHECK(reversed->value == 2);
    CHECK(reversed->limit == 0);
    const TraceWarning* aside = warning_of(r, TraceWarningCode::other_pass_set_aside);
    REQUIRE(aside);
    CHECK(aside->value == 4 * run.M);
  }
  // Offsets given by hand, in rank order (stage 0 of the order given): each
  // rank keeps its own, on the reversed pass's stages.
  const auto by_hand = recover(texts, kBackward, {}, {0, -3000, 4000});
  REQUIRE(by_hand.ok());
  REQUIRE(by_hand.value().pipeline);
  CHECK(by_hand.value().clock_offsets == std::vector<double>{4000, -3000, 0});
  // The order given already reversed is the pass's own: no reversal.
  const auto given = recover(texts, kBackward, {2, 1, 0});
  REQUIRE(given.ok());
  CHECK(given.value().pipeline);
  CHECK(given.value().tau == std::vector<double>{run.backward[2], run.backward[1], run.backward[0]});
  CHECK(!warning_of(given.value(), TraceWarningCode::stages_reversed));
}

TEST_CASE("trace train: without a pass's pattern the two passes are named, not paired") {
  TrainRun run;
  PassTruth forward, backward;
  const auto found = recover(train_texts(run, forward, backward), "");
  REQUIRE(found.ok());
  CHECK(!found.value().pipeline);
  REQUIRE(found.value().reason);
  CHECK(*found.value().reason == NotPipeline::two_way_traffic);
}

TEST_CASE("trace train: a receive posted as a range ends is the next micro-batch's input, not inside the range") {
  // c10d:: ops alone (no gloo: events), as a trace filtered to them: stage
  // 1 posts micro-batch m + 1's receive the moment range m ends, and the
  // 0.5 us op ends within the resolution of that end. Range m's compute is
  // all its own (a receive counts inside a range only when it ends clearly
  // before the range does).
  std::ostringstream r0, r1;
  r0 << "[";
  r1 << "[";
  for (int m = 0; m < 3; ++m) {
    const double a = 1000 + 300.0 * m, b = 1150 + 300.0 * m;
    cpu_event(r0, "microbatch_" + std::to_string(m), a, 100);
    cpu_event(r0, "aten::mm", a, 100);
    cpu_event(r0, "c10d::send", a + 100, 2);
    if (m == 0) cpu_event(r1, "c10d::recv_", b - 48, 0.5);
    cpu_event(r1, "microbatch_" + std::to_string(m), b, 150);
    cpu_event(r1, "aten::mm", b, 150);
    if (m < 2) cpu_event(r1, "c10d::recv_", b + 150, 0.5);
  }
  r0 << "]";
  r1 << "]";
  TraceEvents events;
  REQUIRE(!read_trace_text(r0.str(), "rank-0", events));
  REQUIRE(!read_trace_text(r1.str(), "rank-1", events));
  TraceOptions o;
  o.unit = TimeUnit::us;
  o.microbatch_regex = kForward;
  const auto r = recover_model(events, o);
  REQUIRE(r.ok());
  REQUIRE(r.value().pipeline);
  CHECK(r.value().M == 3);
  CHECK(r.value().tau == std::vector<double>{100, 150});
  CHECK(r.value().links[0].pairs == 3);
  CHECK(r.value().links[0].unmatched == 0);
}

TEST_CASE("trace train: passes that interleave (1F1B) import each by its own ranges") {
  // 2 stages, 1F1B: after a micro-batch of warm-up, stage 0 alternates
  // forward m + 1 with backward m, so the forward ranges' span holds
  // gradients received; stage 1 alternates forward m with backward m, so a
  // gradient's send follows each forward range before the next one's input
  // comes in. Each range claims its own input and output: the gradient
  // received inside a backward range, the activation received just before a
  // forward range, the send just after either.
  std::ostringstream r0, r1;
  r0 << "[";
  r1 << "[";
  const int M = 4;
  auto forward0 = [&](int m, double t) {
    cpu_event(r0, "microbatch_" + std::to_string(m), t, 100);
    cpu_event(r0, "aten::mm", t, 100);
    cpu_event(r0, "gloo:send", t + 101, 3);
  };
  auto backward0 = [&](int m, double t) {
    cpu_event(r0, "backward_" + std::to_string(m), t, 210);
    cpu_event(r0, "gloo:recv", t + 1, 5);
    cpu_event(r0, "autograd::engine::evaluate_function: MmBackward0", t + 10, 200);
  };
  forward0(0, 1000);
  for (int m = 0; m < M; ++m) {
    const double t = 1200 + 600.0 * m;
    if (m + 1 < M) forward0(m + 1, t);
    backward0(m, t + 250);
    cpu_event(r1, "gloo:recv", t - 100, 5);
    cpu_event(r1, "microbatch_" + std::to_string(m), t - 90, 150);
    cpu_event(r1, "aten::mm", t - 90, 150);
    cpu_event(r1, "backward_" + std::to_string(m), t + 70, 170);
    cpu_event(r1, "autograd::engine::evaluate_function: MmBackward0", t + 70, 170);
    cpu_event(r1, "gloo:send", t + 245, 3);
  }
  r0 << "]";
  r1 << "]";
  auto import = [&](const char* pattern, std::vector<std::int64_t> order) {
    TraceEvents events;
    REQUIRE(!read_trace_text(r0.str(), "rank-0", events));
    REQUIRE(!read_trace_text(r1.str(), "rank-1", events));
    TraceOptions o;
    o.unit = TimeUnit::us;
    o.microbatch_regex = pattern;
    o.stage_order = std::move(order);
    return recover_model(events, o);
  };
  for (const std::vector<std::int64_t>& order : {std::vector<std::int64_t>{}, std::vector<std::int64_t>{0, 1}}) {
    CAPTURE(order.size());
    const auto forward = import(kForward, order);
    REQUIRE(forward.ok());
    const TraceResult& f = forward.value();
    REQUIRE(f.pipeline);
    CHECK(f.M == M);
    CHECK(f.tau == std::vector<double>{100, 150});
    CHECK(f.links[0].from_rank == 0);
    CHECK(f.links[0].pairs == M);
    CHECK(f.links[0].unmatched == 0);
    CHECK(!warning_of(f, TraceWarningCode::stages_reversed));
    // The gradients: M messages, both sides, and the pass's own M.
    const TraceWarning* aside = warning_of(f, TraceWarningCode::other_pass_set_aside);
    REQUIRE(aside);
    CHECK(aside->value == 2 * M);
    CHECK(aside->limit == 2 * M);

    // The backward pass runs rank 1 to rank 0; each gradient's receive sits
    // inside its range, before the range's compute.
    const auto backward = import(kBackward, order);
    REQUIRE(backward.ok());
    const TraceResult& b = backward.value();
    REQUIRE(b.pipeline);
    CHECK(b.M == M);
    // Rank 0's backward range runs from its gradient's arrival (t + 256) to
    // its end (t + 460): the 4 us of host time before its op are its
    // service too, as a CPU run's range is its micro-batch's time.
    CHECK(b.tau == std::vector<double>{170, 204});
    CHECK(b.links[0].from_rank == 1);
    CHECK(b.links[0].pairs == M);
    CHECK(b.links[0].unmatched == 0);
    REQUIRE(warning_of(b, TraceWarningCode::stages_reversed));
    const TraceWarning* back_aside = warning_of(b, TraceWarningCode::other_pass_set_aside);
    REQUIRE(back_aside);
    CHECK(back_aside->value == 2 * M);
    CHECK(back_aside->limit == 2 * M);
  }
  // Without a pass's pattern the two passes still flow both ways.
  const auto both = import("", {});
  REQUIRE(both.ok());
  CHECK(!both.value().pipeline);
  REQUIRE(both.value().reason);
  CHECK(*both.value().reason == NotPipeline::two_way_traffic);
}
