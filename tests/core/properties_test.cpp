// Properties the paper proves, checked on random pipelines.
#include <doctest/doctest.h>

#include <algorithm>

#include "support.hpp"
#include "test_random.hpp"

using namespace heteropipe;
using heteropipe::testing::make;
using doctest::Approx;

namespace {

std::vector<double> random_values(test::TestRandom& rng, std::size_t n, double low, double high) {
  std::vector<double> v(n);
  for (double& x : v) x = rng.uniform(low, high);
  return v;
}

}  // namespace

TEST_CASE("Corollary 1: the bias is constant in M") {
  test::TestRandom rng(11);
  for (int i = 0; i < 200; ++i) {
    const Pipeline p = make(random_values(rng, 2 + i % 7, 0.01, 10));
    const double bias = homogeneity_bias(p);
    CHECK(bias >= 0);
    for (double M : {1.0, 2.0, 10.0, 1e3, 1e6}) {
      CHECK(makespan_gpipe(p, M) - makespan_free(p, M) == Approx(bias).epsilon(1e-9).scale(M * p.tau_max()));
    }
  }
}

TEST_CASE("Proposition 2: stage order does not change T_async (free and with links)") {
  test::TestRandom rng(12);
  for (int i = 0; i < 200; ++i) {
    std::vector<double> tau = random_values(rng, 2 + i % 7, 0.01, 10);
    const std::vector<double> d = random_values(rng, tau.size() - 1, 0, 3);
    const double M = 1 + i % 50;
    const double reference = makespan_async(make(tau, d), M);
    rng.shuffle(tau);
    const Pipeline shuffled = make(tau, d);
    CHECK(makespan_async(shuffled, M) == Approx(reference).epsilon(1e-12));
    // ... and the exact schedule agrees: the position of the bottleneck
    // does not matter.
    CHECK(recurrence_makespan(shuffled, M, Regime::async).value() == Approx(reference).epsilon(1e-12));
  }
}

TEST_CASE("Corollary 2: links add a constant under async; the slope stays tau_max") {
  const Pipeline free_chain = make({0.5, 1, 1, 5});
  const Pipeline linked = make({0.5, 1, 1, 5}, {0.2, 0.1, 0.3});
  for (double M : {1.0, 8.0, 64.0}) {
    CHECK(makespan_async(linked, M) - makespan_free(free_chain, M) == Approx(0.6));
    CHECK(makespan_async(linked, M + 1) - makespan_async(linked, M) == Approx(5));
  }
}

TEST_CASE("Corollary 3: full bias = GPipe minus async, and it can turn negative") {
  const Pipeline p = make({1, 1, 1, 1}, {10, 10, 10});
  CHECK(full_bias(p) == -30);
  CHECK(makespan_gpipe(p, 8) - makespan_async(p, 8) == -30);
  CHECK(gpipe_overestimate(p, 8) < 0);
}

TEST_CASE("Corollary 4: the phase transition is d[s] > tau_max - tau[s] on some link") {
  CHECK_FALSE(phase_transition(make({0.5, 1, 1, 5}, {4.5, 0, 0})));  // d equal to slack: no
  CHECK(phase_transition(make({0.5, 1, 1, 5}, {4.5000001, 0, 0})));
  CHECK_FALSE(phase_transition(make({0.5, 1, 1, 5}, {0, 0, 0})));
}

TEST_CASE("Corollary 5 and the effective slope interpolate async and blocking") {
  const Pipeline p = make({0.5, 1, 1, 5}, {4.6, 0.1, 0.1});
  CHECK(effective_slope(p, 1) == 5);
  CHECK(effective_slope(p, 0) == Approx(5.1));
  CHECK(effective_slope(p, 0.5) == Approx(5.05));
  CHECK(overlap_gap(p, 11) == Approx(1.0));
  CHECK(asymptotic_throughput_async(p) == 0.2);
  CHECK(asymptotic_throughput_blocking(p) == Approx(1 / 5.1));
}

TEST_CASE("Proposition 2 fails under blocking: the bottleneck's position matters there") {
  const Pipeline first = make({5, 1, 1, 0.5}, {4.6, 0.1, 0.1});
  const Pipeline last = make({0.5, 1, 1, 5}, {4.6, 0.1, 0.1});
  CHECK(makespan_async(first, 16) == makespan_async(last, 16));
  CHECK(makespan_blocking(first, 16) != Approx(makespan_blocking(last, 16)));
}

TEST_CASE("the crossover M* is where fill and steady state cost the same") {
  const Pipeline p = make({0.5, 1, 1, 5}, {0.2, 0.1, 0.3});
  const double crossover = crossover_batches(p);
  CHECK((crossover - 1) * p.tau_max() == Approx(p.sum_tau_d()));
}
