// Recovery of a CPU pipeline of more than two stages in the CPU profiler's
// form: the middle ranks both receive (c10d::recv_, gloo:recv) and send
// (c10d::send, gloo:send) on one thread, and the clock offsets chain link by
// link from stage 0's clock.
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

namespace {

struct ChainRun {
  std::vector<double> tau{100, 60, 150};  // per stage: one micro-batch's ops
  std::vector<double> origin{5000, 2000, 9000};  // each rank's profiler origin on the host's clock
  double transfer = 3, clone = 2;
  int M = 6;
  bool isend = false;  // a send's transport event lasts until a wait after the loop
  // This (stage, micro-batch) receive wakes `late_wake` after its message came.
  int late_stage = -1, late_microbatch = -1;
  double late_wake = 0;
};

// Every rank's text, from one timeline on the host's clock. Stage s posts
// its receive when it is free, gets the message `transfer` after both the
// send and the receive are there (gloo's rendezvous), clones it, runs its
// ops inside record_function("microbatch_m") and sends: c10d::send, then
// gloo:send, which lasts until the message is delivered (blocking) or until
// a wait after the loop (isend).
std::vector<std::string> chain_texts(const ChainRun& run, double& makespan) {
  const std::size_t S = run.tau.size();
  std::vector<std::ostringstream> out(S);
  for (auto& o : out) o << "[";
  std::vector<double> free(S, 10000);
  double first = 0, last = 0;
  for (int m = 0; m < run.M; ++m) {
    double arrival = 0;  // of micro-batch m at stage s, from stage s - 1
    for (std::size_t s = 0; s < S; ++s) {
      const double o = run.origin[s];
      double a = free[s];
      if (s > 0) {
        const double post = free[s];
        const bool late = static_cast<int>(s) == run.late_stage && m == run.late_microbatch;
        const double got = std::max(post + 1.5, arrival) + (late ? run.late_wake : 0);
        cpu_event(out[s], "c10d::recv_", post - o, 0.5);
        cpu_event(out[s], "gloo:recv", post + 0.5 - o, got - post - 0.5);
        cpu_event(out[s], "aten::clone", got - o, run.clone);
        a = got + run.clone;
      }
      const double tau = run.tau[s];
      cpu_event(out[s], "microbatch_" + std::to_string(m), a - o, tau);
      cpu_event(out[s], "aten::matmul", a - o, tau * 0.6);
      cpu_event(out[s], "aten::mm", a + 1 - o, tau * 0.6 - 2);
      cpu_event(out[s], "aten::tanh", a + tau * 0.6 - o, tau * 0.4);
      if (s == 0 && m == 0) first = a;
      free[s] = a + tau;
      if (s + 1 < S) {
        const double send = a + tau + 2;
        arrival = std::max(send, free[s + 1]) + run.transfer;
        cpu_event(out[s], "c10d::send", a + tau - o, 2);
        cpu_event(out[s], "gloo:send", send - o, run.isend ? 1e6 - send : arrival - send);
        free[s] = run.isend ? send + 1 : arrival;
      } else {
        last = a + tau;
      }
    }
  }
  makespan = last - first;
  std::vector<std::string> texts;
  for (auto& o : out) {
    o << "]";
    texts.push_back(o.str());
  }
  return texts;
}

TraceResult recover(const std::vector<std::string>& texts) {
  TraceEvents events;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    REQUIRE(!read_trace_text(texts[i], "rank-" + std::to_string(i), events));
  }
  TraceOptions o;
  o.unit = TimeUnit::us;
  o.microbatch_regex = "^microbatch_([0-9]+)$";
  auto result = recover_model(events, o);
  REQUIRE(result.ok());
  return std::move(result).value();
}

// Stage s's offset: what puts its times on stage 0's clock.
double true_offset(const ChainRun& run, std::size_t s) { return run.origin[s] - run.origin[0]; }

}  // namespace

TEST_CASE("trace chain: three stages, the middle one receiving and sending on one thread") {
  for (const bool isend : {false, true}) {
    CAPTURE(isend);
    ChainRun run;
    run.isend = isend;
    double makespan = 0;
    const TraceResult r = recover(chain_texts(run, makespan));
    REQUIRE(r.pipeline);
    REQUIRE(r.stages.size() == 3);
    CHECK(r.M == run.M);
    for (std::size_t s = 0; s < 3; ++s) {
      CHECK(r.ranks[s].rank == static_cast<std::int64_t>(s));
      CHECK(r.tau[s] == run.tau[s]);
      // One transfer per message on each side of the middle rank.
      CHECK(r.ranks[s].transfer_kernels == (s == 1 ? 2 : 1) * run.M);
    }
    for (const TraceLink& l : r.links) CHECK(l.pairs == run.M);
    // Each link's offset is within its transfer of the truth (the send's
    // issue to the message's arrival); the last stage's adds two links'.
    for (std::size_t s = 0; s < 3; ++s) {
      CHECK(std::abs(r.clock_offsets[s] - true_offset(run, s)) <= s * (run.transfer + 2));
    }
    CHECK(std::abs(r.T_real - makespan) <= 2 * (run.transfer + 2));
  }
}

TEST_CASE("trace chain: a late wake-up on the second link moves the last stage's clock no more than the link's own") {
  // Stage 1 outruns stage 0, so its receivers wait; stage 2 is the slowest,
  // so from micro-batch 1 on stage 1 waits in gloo:send for stage 2's
  // receive. Stage 2's only waiting receive woke 5 ms late: the causal bound
  // alone put stage 2's clock 5 ms early (and T_real with it); gloo's
  // rendezvous bound, which the waiting senders support, holds it, and link
  // 0's offset carries over unchanged.
  ChainRun run;
  run.late_stage = 2;
  run.late_microbatch = 0;
  run.late_wake = 5000;
  double makespan = 0;
  const TraceResult r = recover(chain_texts(run, makespan));
  REQUIRE(r.pipeline);
  for (std::size_t link = 0; link < 2; ++link) {
    const double truth = true_offset(run, link + 1) - true_offset(run, link);
    CHECK(r.clock_offset_bounds[link].lo <= truth);
    REQUIRE(r.clock_offset_bounds[link].hi);
    CHECK(*r.clock_offset_bounds[link].hi >= truth);
  }
  for (std::size_t s = 0; s < 3; ++s) CHECK(std::abs(r.clock_offsets[s] - true_offset(run, s)) <= run.transfer + 2);
  CHECK(std::abs(r.T_real - makespan) <= run.transfer + 2);
  CHECK(r.warnings.empty());
}
