// Every number of the paper an implementation must reproduce (docs/model.md).
#include <doctest/doctest.h>

#include "support.hpp"

using namespace heteropipe;
using heteropipe::testing::make;
using doctest::Approx;

TEST_CASE("Section 3.1: tau = [0.5, 1, 1, 5], no links") {
  const Pipeline p = make({0.5, 1, 1, 5});
  CHECK(makespan_free(p, 1) == 7.5);
  CHECK(makespan_gpipe(p, 1) == 20);
  CHECK(gpipe_overestimate(p, 1) == Approx(1.6667).epsilon(1e-4));
  CHECK(makespan_free(p, 8) == 42.5);
  CHECK(makespan_gpipe(p, 8) == 55);
  CHECK(gpipe_overestimate(p, 8) == Approx(0.2941).epsilon(1e-4));
  CHECK(homogeneity_bias(p) == 12.5);
  CHECK(crossover_batches(p) == 2.5);
}

TEST_CASE("Section 7.2: legalone:8b on RTX 5090 / 3090 / 3090") {
  const Pipeline p = make({1.13, 2.90, 2.62});
  CHECK(homogeneity_bias(p) == Approx(2.05).epsilon(1e-12));
  // The paper rounds to one decimal of a percent.
  CHECK(gpipe_overestimate(p, 1) * 100 == Approx(30.8).epsilon(0.05 / 30.8));
  CHECK(gpipe_overestimate(p, 100) * 100 == Approx(0.7).epsilon(0.05 / 0.7));
  CHECK_FALSE(phase_transition(p));
}

TEST_CASE("Table 1: bias and GPipe overestimate at M = 1 and M = 8") {
  struct Row {
    std::vector<double> tau;
    double bias, at_1_percent, at_8_percent;
  };
  const Row rows[] = {
      {{1, 1, 1, 1}, 0.0, 0.0, 0.0},
      {{0.8, 1, 1, 1.2}, 0.8, 20.0, 6.5},
      {{0.5, 1, 1, 2}, 3.5, 77.8, 18.9},
      {{0.5, 1, 1, 5}, 12.5, 166.7, 29.4},
      {{0.1, 0.2, 0.3, 5}, 14.4, 257.1, 35.5},
  };
  for (const Row& row : rows) {
    CAPTURE(row.bias);
    const Pipeline p = make(row.tau);
    CHECK(homogeneity_bias(p) == Approx(row.bias).epsilon(1e-12));
    // Table 1 prints one decimal: the exact value must round to it.
    CHECK(std::abs(gpipe_overestimate(p, 1) * 100 - row.at_1_percent) <= 0.05 + 1e-9);
    CHECK(std::abs(gpipe_overestimate(p, 8) * 100 - row.at_8_percent) <= 0.05 + 1e-9);
    // Corollary 1: the bias is exactly the gap between GPipe and Theorem 1.
    for (double M : {1.0, 8.0, 1000.0}) {
      CHECK(makespan_gpipe(p, M) - makespan_free(p, M) == Approx(row.bias).epsilon(1e-12).scale(1));
    }
  }
}

TEST_CASE("Appendix B: eleven configurations, closed forms equal the recurrences") {
  struct Config {
    std::vector<double> tau, d;
    bool phase_transition;
  };
  const Config configs[] = {
      {{1, 1, 1, 1}, {0, 0, 0}, false},
      {{0.5, 1, 1, 5}, {0, 0, 0}, false},
      {{5, 1, 1, 0.5}, {0, 0, 0}, false},
      {{1, 5, 1, 1}, {0, 0, 0}, false},
      {{1, 1, 5, 5}, {0, 0, 0}, false},
      {{0.5, 1, 1, 5}, {0.1, 0.1, 0.1}, false},
      {{0.5, 1, 1, 5}, {4, 0.1, 0.1}, false},
      {{0.5, 1, 1, 5}, {4.6, 0.1, 0.1}, true},  // phase transition: 0.5 + 4.6 > 5
      {{1, 1, 1, 1}, {10, 10, 10}, true},
      {{0.5, 0.5, 0.5, 0.5}, {1, 0.01, 1}, true},
      {{0.2, 0.3, 0.5, 0.9, 1.7}, {0.1, 0.1, 0.1, 0.9}, true},  // only the last link crosses
  };
  int number = 0;
  for (const Config& c : configs) {
    CAPTURE(++number);
    const Pipeline p = make(c.tau, c.d);
    CHECK(phase_transition(p) == c.phase_transition);
    CHECK((p.sigma_max() > p.tau_max()) == c.phase_transition);
    for (double M : {1.0, 2.0, 3.0, 8.0, 16.0, 100.0, 1000.0}) {
      CAPTURE(M);
      const double async_exact = recurrence_makespan(p, M, Regime::async).value();
      const double block_exact = recurrence_makespan(p, M, Regime::blocking).value();
      CHECK(makespan_async(p, M) == Approx(async_exact).epsilon(1e-12));
      CHECK(makespan_blocking(p, M) == Approx(block_exact).epsilon(1e-12));
      CHECK(makespan_async(p, M) <= makespan_blocking(p, M));
      CHECK(makespan_blocking(p, M) - makespan_async(p, M) == Approx(overlap_gap(p, M)).epsilon(1e-12).scale(1));
    }
  }
}

TEST_CASE("Appendix B configuration 11: the phase transition sits on the last link") {
  const Pipeline p = make({0.2, 0.3, 0.5, 0.9, 1.7}, {0.1, 0.1, 0.1, 0.9});
  const Analysis a = analyze(std::make_shared<const Pipeline>(p), 8, 1, std::nullopt);
  const std::vector<double> margin = a.link_margin();
  REQUIRE(margin.size() == 4);
  CHECK(margin[0] > 0);
  CHECK(margin[1] > 0);
  CHECK(margin[2] > 0);
  CHECK(margin[3] == Approx(-0.1));
  CHECK(a.blocking_bottleneck_stage == 3);
  CHECK(a.bottleneck_stage == 4);
}
