// The simulator's engines against the closed forms, the plain recurrences and
// independent simulations written in the tests.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "sim/engine.hpp"
#include "sim_support.hpp"
#include "support.hpp"

namespace hp = heteropipe;
namespace sim = heteropipe::sim;
using hp::testing::dyadic_list;
using hp::testing::make;

namespace {

double makespan(const hp::Pipeline& p, const sim::Options& o) {
  auto result = sim::simulate(p, o);
  REQUIRE(result.ok());
  return result.value().makespan.mean;
}

// No buffers given: all infinite.
sim::Options options(double M, sim::LinkMode links, std::vector<double> buffers = {}) {
  sim::Options o;
  o.M = M;
  o.links = links;
  if (!buffers.empty()) o.buffers = std::move(buffers);
  return o;
}

std::vector<double> random_matrix(hp::testing::TestRandom& rng, std::int64_t M, std::int64_t S) {
  return hp::testing::log_uniform_list(rng, static_cast<std::size_t>(M * S), 0.01, 1.0);
}

}  // namespace

TEST_CASE("sim: deterministic service, delay links, unbounded buffers give T_async exactly") {
  hp::testing::TestRandom rng(11);
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t S = 1 + rng() % 8;
    const auto p = make(dyadic_list(rng, S), dyadic_list(rng, S - 1, false));
    for (double M : {1.0, 2.0, 3.0, 7.0, 16.0, 41.0}) {
      CHECK(makespan(p, options(M, sim::LinkMode::async)) == hp::makespan_async(p, M));
    }
  }
  // Any values: the bits of the exact recurrence, and the closed form within rounding.
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t S = 1 + rng() % 8;
    const auto p = make(hp::testing::log_uniform_list(rng, S, 0.01, 1.0),
                        hp::testing::log_uniform_list(rng, S - 1, 0.0001, 2.0));
    const double M = static_cast<double>(1 + rng() % 60);
    const double T = makespan(p, options(M, sim::LinkMode::async));
    CHECK(T == hp::recurrence_makespan(p, M, hp::Regime::async).value());
    CHECK(std::fabs(T - hp::makespan_async(p, M)) <= 1e-12 * T);
  }
}

TEST_CASE("sim: block links give T_block exactly") {
  hp::testing::TestRandom rng(12);
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t S = 1 + rng() % 8;
    const auto p = make(dyadic_list(rng, S), dyadic_list(rng, S - 1, false));
    for (double M : {1.0, 2.0, 5.0, 13.0, 40.0}) {
      CHECK(makespan(p, options(M, sim::LinkMode::blocking)) == hp::makespan_blocking(p, M));
    }
  }
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t S = 1 + rng() % 8;
    const auto p = make(hp::testing::log_uniform_list(rng, S, 0.01, 1.0),
                        hp::testing::log_uniform_list(rng, S - 1, 0.0001, 2.0));
    const double M = static_cast<double>(1 + rng() % 60);
    const double T = makespan(p, options(M, sim::LinkMode::blocking));
    CHECK(std::fabs(T - hp::makespan_blocking(p, M)) <= 1e-12 * T);
  }
}

namespace {

// Times drawn with the core's own generator, log-uniform in [low, high].
std::vector<double> drawn_times(sim::Stream& stream, std::size_t n, double low, double high) {
  std::vector<double> v(n);
  const double a = sim::portable_log(low), b = sim::portable_log(high);
  for (double& x : v) x = sim::portable_exp(a + (b - a) * stream.uniform());
  return v;
}

}  // namespace

TEST_CASE("sim: deterministic block links give the core's blocking recurrence bit for bit") {
  // The recurrence runs on sigma = tau + d; a blocking sender's release must be
  // start + (tau + d), not (start + tau) + d, for the same bits (issue 22.9).
  const auto issue = make({2, 0, 2.6306419864991297}, {4.572090012088631, 2.865549961807062});
  CHECK(makespan(issue, options(3, sim::LinkMode::blocking)) ==
        hp::recurrence_makespan(issue, 3, hp::Regime::blocking).value());
  sim::Stream stream(2212, 0, 0);
  for (int trial = 0; trial < 600; ++trial) {
    const auto S = static_cast<std::size_t>(1 + stream.next_bits() % 8);
    auto tau = drawn_times(stream, S, 0.01, 10.0);
    const auto d = drawn_times(stream, S - 1, 0.0001, 10.0);
    if (S > 1 && trial % 5 == 0) tau[stream.next_bits() % S] = 0;  // a zero stage, as in the issue
    const auto p = make(tau, d);
    const auto M = static_cast<double>(1 + stream.next_bits() % 60);
    const double expected = hp::recurrence_makespan(p, M, hp::Regime::blocking).value();
    CHECK(makespan(p, options(M, sim::LinkMode::blocking)) == expected);
    // The event engine too: each link a shared group of its own.
    sim::Options alone = options(M, sim::LinkMode::blocking);
    for (std::int64_t l = 0; l + 1 < static_cast<std::int64_t>(S); ++l) alone.shared.push_back({l});
    CHECK(makespan(p, alone) == expected);
    // A buffer that never binds changes nothing.
    CHECK(makespan(p, options(M, sim::LinkMode::blocking, {M})) == expected);
  }
}

TEST_CASE("sim: a blocking send within the tie rule of tau_max costs what the recurrence's sigma does") {
  // 1e9 + 1e-7 rounds one unit in the last place above 1e9, within the tie
  // rule: sigma[0] is tau_max, and the recurrence runs on it. The engines
  // added tau + d as computed and finished a unit later: 1000000001.0000001
  // against 1000000001 at M = 1.
  const auto issue = make({1e9, 1}, {1e-7});
  REQUIRE(issue.sigma(0) == 1e9);
  for (double M : {1.0, 2.0, 7.0}) {
    CAPTURE(M);
    const double expected = hp::recurrence_makespan(issue, M, hp::Regime::blocking).value();
    CHECK(makespan(issue, options(M, sim::LinkMode::blocking)) == expected);
    sim::Options alone = options(M, sim::LinkMode::blocking);
    alone.shared = {{0}};
    CHECK(makespan(issue, alone) == expected);
  }
  // Random pipelines with some link's d within a few units in the last
  // place of tau_max's slack, any magnitude.
  hp::testing::TestRandom rng(2213);
  for (int trial = 0; trial < 600; ++trial) {
    const auto S = static_cast<std::size_t>(2 + rng() % 6);
    std::vector<double> tau = hp::testing::log_uniform_list(rng, S, 1e-3, 1e9);
    std::vector<double> d = hp::testing::log_uniform_list(rng, S - 1, 1e-12, 1e3);
    const double tau_max = *std::max_element(tau.begin(), tau.end());
    const std::size_t l = rng() % (S - 1);
    const double ulp = std::nextafter(tau_max, 2 * tau_max) - tau_max;
    d[l] = (tau_max - tau[l]) + static_cast<double>(rng() % 9) * ulp / 2;  // at the slack, or a few halves of a unit past it
    const auto p = make(tau, d);
    const auto M = static_cast<double>(1 + rng() % 20);
    CAPTURE(trial);
    const double expected = hp::recurrence_makespan(p, M, hp::Regime::blocking).value();
    CHECK(makespan(p, options(M, sim::LinkMode::blocking)) == expected);
    sim::Options alone = options(M, sim::LinkMode::blocking);
    for (std::int64_t k = 0; k + 1 < static_cast<std::int64_t>(S); ++k) alone.shared.push_back({k});
    CHECK(makespan(p, alone) == expected);
  }
}

TEST_CASE("sim: buffers of 0, 1 and 2 leave identical deterministic micro-batches' makespan unchanged") {
  hp::testing::TestRandom rng(13);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t S = 1 + rng() % 8;
    const auto p = make(dyadic_list(rng, S));
    const double M = static_cast<double>(1 + rng() % 30);
    for (double b : {0.0, 1.0, 2.0}) {
      CHECK(makespan(p, options(M, sim::LinkMode::async, {b})) == hp::makespan_free(p, M));
    }
  }
}

TEST_CASE("sim: a replayed matrix with buffers 0, 1 and 2 matches an event-by-event simulation") {
  hp::testing::TestRandom rng(14);
  for (int trial = 0; trial < 300; ++trial) {
    const std::int64_t S = 1 + static_cast<std::int64_t>(rng() % 6);
    const std::int64_t M = 1 + static_cast<std::int64_t>(rng() % 25);
    const auto p = make(std::vector<double>(S, 1.0));
    sim::Options o = options(static_cast<double>(M), sim::LinkMode::async);
    o.service_matrix = random_matrix(rng, M, S);
    for (std::int64_t b : {0, 1, 2}) {
      o.buffers = {static_cast<double>(b)};
      const std::vector<std::int64_t> room(S, b);
      CHECK(makespan(p, o) == hp::testing::event_by_event(*o.service_matrix, S, M, room));
    }
    // Mixed buffers, one per link.
    std::vector<std::int64_t> room(S, 0);
    o.buffers.emplace(static_cast<std::size_t>(S - 1), 0.0);
    for (std::int64_t l = 0; l + 1 < S; ++l) {
      room[l + 1] = static_cast<std::int64_t>(rng() % 3);
      (*o.buffers)[l] = static_cast<double>(room[l + 1]);
    }
    if (S == 1) o.buffers.reset();
    std::vector<std::int64_t> by_link(S, 0);
    for (std::int64_t l = 0; l + 1 < S; ++l) by_link[l] = room[l + 1];
    CHECK(makespan(p, o) == hp::testing::event_by_event(*o.service_matrix, S, M, by_link));
  }
}

TEST_CASE("sim: serial links match the tandem recurrence over 2S-1 servers") {
  hp::testing::TestRandom rng(15);
  for (int trial = 0; trial < 300; ++trial) {
    const std::int64_t S = 1 + static_cast<std::int64_t>(rng() % 6);
    const std::int64_t M = 1 + static_cast<std::int64_t>(rng() % 25);
    const auto d = hp::testing::log_uniform_list(rng, static_cast<std::size_t>(S - 1), 0.001, 2.0);
    const auto p = make(std::vector<double>(S, 1.0), d);
    sim::Options o = options(static_cast<double>(M), sim::LinkMode::serial);
    o.service_matrix = random_matrix(rng, M, S);
    const bool random_links = trial % 2 == 1;
    if (random_links) {
      o.link_service = {sim::Distribution{sim::DistributionKind::exponential, 0}};
      o.seed = static_cast<double>(trial);
    }
    // Servers stage 0, link 0, stage 1, ..., stage S-1; link l draws from its
    // own stream (S + l), exponential of mean d[l].
    const std::int64_t K = 2 * S - 1;
    std::vector<double> w(static_cast<std::size_t>(M * K));
    std::vector<sim::Stream> streams;
    for (std::int64_t l = 0; l + 1 < S; ++l) streams.emplace_back(trial, 0, S + l);
    for (std::int64_t m = 0; m < M; ++m) {
      for (std::int64_t k = 0; k < K; ++k) {
        const std::int64_t s = k / 2;
        if (k % 2 == 0) {
          w[m * K + k] = (*o.service_matrix)[m * S + s];
        } else {
          w[m * K + k] = random_links ? -d[s] * sim::portable_log(streams[s].uniform()) : d[s];
        }
      }
    }
    CHECK(makespan(p, o) == hp::testing::tandem(w, K, M));
  }
}

TEST_CASE("sim: random stages and links draw in micro-batch order from their own streams, over many blocks") {
  // M = 150 takes each stream's draws in more than one block (64, 64, 22);
  // with serial links the makespan is the tandem recurrence over the draws
  // made here, stream by stream, one at a time.
  const std::int64_t S = 3, M = 150;
  const std::vector<double> tau{0.7, 1.3, 0.9}, d{0.2, 0.05};
  const auto p = make(tau, d);
  sim::Options o = options(static_cast<double>(M), sim::LinkMode::serial);
  o.service = {sim::Distribution{sim::DistributionKind::exponential, 0}};
  o.link_service = {sim::Distribution{sim::DistributionKind::exponential, 0}};
  o.seed = 21;
  const std::int64_t K = 2 * S - 1;
  std::vector<sim::Stream> streams;
  for (std::int64_t k = 0; k < K; ++k) streams.emplace_back(21, 0, k);
  std::vector<double> w(static_cast<std::size_t>(M * K));
  for (std::int64_t m = 0; m < M; ++m) {
    for (std::int64_t k = 0; k < K; ++k) {
      // Server k is stage k / 2 (stream k / 2) or link k / 2 (stream S + k / 2).
      const std::int64_t s = k / 2;
      const double mean = k % 2 == 0 ? tau[s] : d[s];
      sim::Stream& stream = streams[k % 2 == 0 ? s : S + s];
      w[m * K + k] = -mean * sim::portable_log(stream.uniform());
    }
  }
  CHECK(makespan(p, o) == hp::testing::tandem(w, K, M));
}

TEST_CASE("sim: the event engine equals the row engine where no link is shared") {
  hp::testing::TestRandom rng(16);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t S = 1 + rng() % 7;
    const auto p = make(hp::testing::log_uniform_list(rng, S, 0.01, 1.0),
                        hp::testing::log_uniform_list(rng, S - 1, 0.001, 1.0));
    sim::Options o = options(static_cast<double>(1 + rng() % 30), static_cast<sim::LinkMode>(trial % 3));
    o.service = {sim::Distribution{sim::DistributionKind::lognormal, 0.7}};
    o.link_service = {sim::Distribution{sim::DistributionKind::gamma, 1.3}};
    o.seed = trial;
    o.buffers.reset();
    // Small buffers, infinite ones, and some near M, whose history wraps rarely or never.
    for (std::size_t l = 0; l + 1 < S; ++l) {
      const auto pick = rng() % 5;
      const double near_M = o.M - 3 + static_cast<double>(rng() % 4);
      if (!o.buffers) o.buffers.emplace();
      o.buffers->push_back(pick == 3 ? INFINITY : pick == 4 ? std::max(0.0, near_M) : static_cast<double>(pick));
    }
    const auto setup = sim::detail::make_setup(p, o);
    sim::detail::Draws a(setup, trial, 3), b(setup, trial, 3);
    CHECK(sim::detail::row_engine(setup, a, nullptr) == sim::detail::event_engine(setup, b, nullptr));
  }
}

TEST_CASE("sim: a shared group of one link is a serial link; sharing never shortens") {
  hp::testing::TestRandom rng(17);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t S = 2 + rng() % 6;
    const auto p = make(hp::testing::log_uniform_list(rng, S, 0.01, 1.0),
                        hp::testing::log_uniform_list(rng, S - 1, 0.001, 1.0));
    const bool block = trial % 2 == 1;
    sim::Options serial = options(static_cast<double>(1 + rng() % 30), block ? sim::LinkMode::blocking : sim::LinkMode::serial);
    if (trial % 3 != 0) {
      serial.service = {sim::Distribution{sim::DistributionKind::exponential, 0}};
      serial.link_service = {sim::Distribution{sim::DistributionKind::uniform, 0.5}};
      serial.seed = trial;
    }
    if (trial % 4 == 1) serial.buffers = {static_cast<double>(rng() % 3)};
    sim::Options alone = serial;
    for (std::int64_t l = 0; l + 1 < static_cast<std::int64_t>(S); ++l) alone.shared.push_back({l});
    CHECK(makespan(p, alone) == makespan(p, serial));

    // Deterministic service: a medium for several links can only add waiting.
    sim::Options fixed = options(serial.M, serial.links, serial.buffers.value_or(std::vector<double>{}));
    sim::Options shared = fixed;
    shared.shared = {{}};
    for (std::int64_t l = 0; l + 1 < static_cast<std::int64_t>(S); ++l) {
      if (rng() % 2) shared.shared[0].push_back(l);
    }
    if (shared.shared[0].empty()) shared.shared[0].push_back(0);
    CHECK(makespan(p, shared) >= makespan(p, fixed));
  }
}

TEST_CASE("sim: a thousand shared groups, one link each, are serial links") {
  // Each link its own medium is a serial link (the test above), here with
  // 999 media: picking each transfer once scanned every group's every link,
  // 1e6 steps a transfer (minutes for this run; docs/benchmarks.md has the
  // time, as tests assert values, not speed).
  hp::testing::TestRandom rng(5);
  const std::size_t S = 1000;
  const auto p = make(hp::testing::log_uniform_list(rng, S, 0.01, 1.0), hp::testing::log_uniform_list(rng, S - 1, 0.001, 1.0));
  sim::Options serial = options(50, sim::LinkMode::serial);
  serial.service = {sim::Distribution{sim::DistributionKind::exponential, 0}};
  serial.seed = 3;
  sim::Options alone = serial;
  for (std::int64_t l = 0; l + 1 < static_cast<std::int64_t>(S); ++l) alone.shared.push_back({l});
  CHECK(makespan(p, alone) == makespan(p, serial));
}

TEST_CASE("sim: one link shared by two stages, worked by hand") {
  // tau = [1, 1, 1], d = [2, 2], both links on one medium, M = 2.
  // m0: stage 0 [0,1], link 0 [1,3], stage 1 [3,4], link 1 [4,6], stage 2 [6,7].
  // m1: stage 0 [1,2], ready for link 0 at 2 but the medium is busy until 3:
  //     link 0 [3,5]; link 1's transfer of m0 was ready at 4, after m1's (2), so
  //     it waits until 5: link 1 m0 [5,7], stage 2 m0 [7,8]. m1: stage 1 [5,6],
  //     link 1 [7,9], stage 2 [9,10].
  const auto p = make({1, 1, 1}, {2, 2});
  sim::Options o = options(2, sim::LinkMode::async);
  o.shared = {{0, 1}};
  CHECK(makespan(p, o) == 10);
  o.timeline = true;
  const auto run = sim::simulate(p, o).value().run;
  const auto& t = *run.timeline;
  CHECK(t.transfer_start == std::vector<double>{1, 5, 3, 7});
  CHECK(t.transfer_finish == std::vector<double>{3, 7, 5, 9});
  CHECK(run.completion == std::vector<double>{8, 10});
  CHECK(run.latency == std::vector<double>{8, 9});
  // Without sharing: serial links, T = 1 + 2 + 1 + 2 + 1 + 2 (the slowest server, links of 2) = 9.
  o.shared.clear();
  o.links = sim::LinkMode::serial;
  CHECK(makespan(p, o) == 9);
}

TEST_CASE("sim: busy + starved + blocked is each stage's last release; utilization is busy over the makespan; the timeline keeps every rule") {
  hp::testing::TestRandom rng(18);
  for (int trial = 0; trial < 120; ++trial) {
    const std::int64_t S = 1 + static_cast<std::int64_t>(rng() % 5);
    const auto p = make(dyadic_list(rng, S), dyadic_list(rng, S - 1, false));
    sim::Options o = options(static_cast<double>(1 + rng() % 12), static_cast<sim::LinkMode>(trial % 3),
                             {static_cast<double>(rng() % 3)});
    if (trial % 5 == 0 && S > 2) o.shared = {{0, 1}};
    o.timeline = true;
    const auto run = sim::simulate(p, o).value().run;
    const auto& t = *run.timeline;
    const std::int64_t M = t.M;
    for (std::int64_t s = 0; s < S; ++s) {
      CHECK(run.busy[s] + run.starved[s] + run.blocked[s] == t.release[(M - 1) * S + s]);
      CHECK(run.utilization[s] == run.busy[s] / run.makespan);
      CHECK(run.utilization[s] <= 1);
      for (std::int64_t m = 0; m < M; ++m) {
        const std::int64_t at = m * S + s;
        CHECK(t.compute_start[at] <= t.compute_finish[at]);
        CHECK(t.compute_finish[at] <= t.release[at]);
        if (m > 0) CHECK(t.release[at - S] <= t.compute_start[at]);
        if (s + 1 < S) {
          const std::int64_t x = m * (S - 1) + s;
          CHECK(t.compute_finish[at] <= t.transfer_start[x]);
          CHECK(t.transfer_finish[x] <= t.compute_start[at + 1]);
          // At most b + 1 micro-batches between leaving s and leaving s+1.
          const auto b = static_cast<std::int64_t>((*o.buffers)[0]);
          if (m > b) CHECK(t.release[(m - b - 1) * S + s + 1] <= t.transfer_start[x]);
        }
      }
    }
    CHECK(run.makespan == t.compute_finish[M * S - 1]);
  }
}

namespace {

// Async and blocking links with unbounded buffers, cell by cell as written in
// docs/simulation.md, with stage times p (M x S) and link times x (M x (S-1)).
double plain_replay(const std::vector<double>& p, const std::vector<double>& x, std::int64_t S, std::int64_t M,
                    bool blocking) {
  std::vector<double> free_at(S, 0.0), arrival(S, 0.0);
  for (std::int64_t m = 0; m < M; ++m) {
    for (std::int64_t s = 0; s < S; ++s) {
      const double finish = std::max(arrival[s], free_at[s]) + p[m * S + s];
      free_at[s] = finish;
      if (s + 1 == S) continue;
      arrival[s + 1] = finish + x[m * (S - 1) + s];
      if (blocking) free_at[s] = arrival[s + 1];
    }
  }
  return free_at[S - 1];
}

}  // namespace

TEST_CASE("sim: a replayed link matrix matches the plain recurrence under async and blocking links") {
  hp::testing::TestRandom rng(17);
  for (int trial = 0; trial < 300; ++trial) {
    const std::int64_t S = 1 + static_cast<std::int64_t>(rng() % 6);
    const std::int64_t M = 1 + static_cast<std::int64_t>(rng() % 25);
    // Dyadic times: every sum is exact, so the two orders of addition agree.
    const auto p = make(std::vector<double>(S, 1.0), std::vector<double>(S - 1, 1.0));
    sim::Options o = options(static_cast<double>(M), sim::LinkMode::async);
    o.service_matrix = dyadic_list(rng, static_cast<std::size_t>(M * S));
    o.link_matrix = dyadic_list(rng, static_cast<std::size_t>(M * (S - 1)), false);
    CHECK(makespan(p, o) == plain_replay(*o.service_matrix, *o.link_matrix, S, M, false));
    o.links = sim::LinkMode::blocking;
    CHECK(makespan(p, o) == plain_replay(*o.service_matrix, *o.link_matrix, S, M, true));
    // The event engine reads the same matrix: each link a shared group of its own is serial.
    sim::Options alone = o;
    alone.links = sim::LinkMode::serial;
    for (std::int64_t l = 0; l + 1 < S; ++l) alone.shared.push_back({l});
    sim::Options serial = o;
    serial.links = sim::LinkMode::serial;
    CHECK(makespan(p, alone) == makespan(p, serial));
  }
}

TEST_CASE("sim: a link matrix of constant rows replays exactly the closed forms") {
  hp::testing::TestRandom rng(18);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t S = 1 + rng() % 8;
    const auto tau = dyadic_list(rng, S);
    const auto d = dyadic_list(rng, S - 1, false);
    const auto p = make(tau, d);
    const auto M = static_cast<std::int64_t>(1 + rng() % 40);
    sim::Options o = options(static_cast<double>(M), sim::LinkMode::async);
    o.service_matrix.emplace();
    o.link_matrix.emplace();
    for (std::int64_t m = 0; m < M; ++m) {
      o.service_matrix->insert(o.service_matrix->end(), tau.begin(), tau.end());
      o.link_matrix->insert(o.link_matrix->end(), d.begin(), d.end());
    }
    auto async = sim::simulate(p, o);
    REQUIRE(async.ok());
    CHECK(async.value().makespan.mean == hp::makespan_async(p, static_cast<double>(M)));
    CHECK(async.value().deterministic_makespan == async.value().makespan.mean);
    o.links = sim::LinkMode::blocking;
    CHECK(makespan(p, o) == hp::makespan_blocking(p, static_cast<double>(M)));
  }
}

TEST_CASE("sim: drawn stages over a replayed link matrix: every replication as replication r alone") {
  const auto p = make({0.7, 1.3, 0.9}, {0.2, 0.05});
  sim::Options o = options(90, sim::LinkMode::async);
  o.service = {sim::Distribution{sim::DistributionKind::exponential, 0}};
  o.link_service = {sim::Distribution{sim::DistributionKind::exponential, 0}};  // replaced by the matrix
  hp::testing::TestRandom rng(19);
  o.link_matrix = hp::testing::log_uniform_list(rng, 90 * 2, 0.001, 1.0);
  o.reps = 2;
  o.seed = 5;
  auto r = sim::simulate(p, o);
  REQUIRE(r.ok());
  const double first = sim::run_replication(p, o, 0, false).makespan;
  const double second = sim::run_replication(p, o, 1, false).makespan;
  CHECK(r.value().makespan.min == std::min(first, second));
  CHECK(r.value().makespan.max == std::max(first, second));
  CHECK(first != second);
  // The link times are the matrix's, not draws: a matrix of zeros gives the
  // same makespan as zero link times.
  o.link_matrix->assign(90 * 2, 0.0);
  o.reps = 1;
  const auto no_links = make({0.7, 1.3, 0.9}, {0.0, 0.0});
  sim::Options plain = o;
  plain.link_matrix.reset();
  plain.link_service.clear();
  CHECK(makespan(p, o) == makespan(no_links, plain));
}

TEST_CASE("sim: a long pipeline of one micro-batch replicates in time linear in its stages") {
  // The row engine fills the draws due on each front; at M = 1 only one
  // stage's are, so a front that looked at every stage before it made each
  // replication quadratic in S (this one, S = 200,000 and 100 replications,
  // took minutes before). Each replication equals itself run alone. (30
  // replications: the most that the work limit, which counts each one's
  // 2S - 1 streams, allows.)
  const std::int64_t S = 200'000;
  const auto p = make(std::vector<double>(static_cast<std::size_t>(S), 1.0), {});
  sim::Options o = options(1, sim::LinkMode::async);
  o.service = {sim::Distribution{sim::DistributionKind::exponential, 0}};
  o.reps = 30;
  o.seed = 5;
  auto result = sim::simulate(p, o);
  REQUIRE(result.ok());
  double low = INFINITY, high = -INFINITY;
  for (std::uint64_t r = 0; r < 30; ++r) {
    const double makespan = sim::run_replication(p, o, r, false).makespan;
    low = std::min(low, makespan);
    high = std::max(high, makespan);
  }
  CHECK(result.value().makespan.min == low);
  CHECK(result.value().makespan.max == high);
  CHECK(low < high);
}
