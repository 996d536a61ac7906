// The simulator's randomness: the generator's published outputs, the bits a
// seed gives (which the other interfaces compare with), and Monte Carlo
// against cases with a closed form.
#include <doctest/doctest.h>

#include <type_traits>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "support.hpp"
#include "test_random.hpp"

namespace hp = heteropipe;
namespace sim = heteropipe::sim;
using hp::testing::make;

namespace {

std::uint64_t bits(double x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

sim::Simulation run(const hp::Pipeline& p, sim::Options o) {
  auto result = sim::simulate(p, o);
  REQUIRE(result.ok());
  return std::move(result).value();
}

sim::Options monte_carlo(double M, sim::DistributionKind kind, double param, double reps, double seed) {
  sim::Options o;
  o.M = M;
  o.service = {sim::Distribution{kind, param}};
  o.reps = reps;
  o.seed = seed;
  return o;
}

}  // namespace

TEST_CASE("sim random: splitmix64 and xoshiro256** give their published outputs") {
  CHECK(sim::splitmix64(0) == 0xE220A8397B1DCDAFULL);
  auto s = sim::Stream::from_state(1, 2, 3, 4);
  CHECK(s.next_bits() == 11520ULL);
  CHECK(s.next_bits() == 0ULL);
  CHECK(s.next_bits() == 1509978240ULL);
  CHECK(s.next_bits() == 1215971899390074240ULL);
}

TEST_CASE("sim random: a seed's golden bits (the other interfaces hold theirs to these)") {
  sim::Stream s(42, 0, 0);
  CHECK(s.next_bits() == 3149118362257379461ULL);
  sim::Stream u(42, 3, 5);
  CHECK(bits(u.uniform()) == 4599073292875941349ULL);
  CHECK(bits(u.normal()) == 4607126842478329321ULL);
  const auto p = make({1.13, 2.90, 2.62}, {0.1, 0.2});
  sim::Options o = monte_carlo(16, sim::DistributionKind::lognormal, 0.5, 100, 7);
  o.link_service = {sim::Distribution{sim::DistributionKind::exponential, 0}};
  o.buffers = {1};
  const auto a = run(p, o);
  CHECK(bits(a.makespan.mean) == 4632921010276554628ULL);
  CHECK(bits(a.makespan.p99) == 4634377462268877808ULL);
  CHECK(bits(a.throughput.mean) == 4598981030015126052ULL);
  // The same seed gives the same bits; another seed does not.
  const auto b = run(p, o);
  CHECK(bits(b.makespan.mean) == bits(a.makespan.mean));
  CHECK(b.histogram.counts == a.histogram.counts);
  o.seed = 8;
  CHECK(bits(run(p, o).makespan.mean) != bits(a.makespan.mean));
}

TEST_CASE("sim random: each distribution has mean tau and the asked CV") {
  const auto p = make({2.5});
  struct Case {
    sim::DistributionKind kind;
    double param, cv;
  };
  const double reps = 400000;
  for (Case c : {Case{sim::DistributionKind::exponential, 0, 1}, Case{sim::DistributionKind::lognormal, 0.5, 0.5},
                 Case{sim::DistributionKind::lognormal, 3, 3}, Case{sim::DistributionKind::gamma, 0.3, 0.3},
                 Case{sim::DistributionKind::gamma, 2.5, 2.5}, Case{sim::DistributionKind::uniform, 0.8, 0.8 / std::sqrt(3.0)}}) {
    CAPTURE(static_cast<int>(c.kind));
    CAPTURE(c.param);
    const auto r = run(p, monte_carlo(1, c.kind, c.param, reps, 3));
    // S = 1, M = 1: each replication is one draw. The mean lies within its
    // interval; the sample CV within a few percent of the asked one.
    CHECK(r.makespan.ci95_low <= 2.5);
    CHECK(2.5 <= r.makespan.ci95_high);
    CHECK(std::fabs(r.makespan.sd / r.makespan.mean - c.cv) <= 0.05 * c.cv + (c.cv > 2 ? 0.1 * c.cv : 0));
  }
}

TEST_CASE("sim random: two-stage tandem with exponential service, the expected maximum of exponentials") {
  // M = 2: T = X00 + max(X01, X10) + X11, and E max(A, B) = a + b - ab / (a + b)
  // for independent exponentials of means a and b.
  const double a = 1.5, b = 0.7;
  const auto p = make({a, b});
  const auto r = run(p, monte_carlo(2, sim::DistributionKind::exponential, 0, 400000, 11));
  const double expected = a + (a + b - a * b / (a + b)) + b;
  CHECK(r.makespan.ci95_low <= expected);
  CHECK(expected <= r.makespan.ci95_high);
  // Jensen: the mean is above the makespan at the mean times (T_async here).
  CHECK(r.deterministic_makespan == hp::makespan_async(p, 2));
  CHECK(r.jensen_gap > 0);
  CHECK(r.T_async == hp::makespan_async(p, 2));
  CHECK(r.T_block == hp::makespan_blocking(p, 2));
  // The gap's interval is the mean's, moved by the deterministic makespan: here it lies above 0.
  CHECK(r.jensen_gap_ci95_low == r.makespan.ci95_low - r.deterministic_makespan);
  CHECK(r.jensen_gap_ci95_high == r.makespan.ci95_high - r.deterministic_makespan);
  CHECK(r.jensen_gap_ci95_low > 0);
  // Against T_async in percent: the exact mean's excess, a + b - ab / (a + b) + a + b against
  // T_async = 2a + b, lies within the interval around the estimate.
  const double exact_percent = (expected - r.T_async) / r.T_async * 100;
  CHECK(r.mean_vs_T_async_percent == doctest::Approx((r.makespan.mean - r.T_async) / r.T_async * 100).epsilon(1e-12));
  CHECK(std::abs(r.mean_vs_T_async_percent - exact_percent) <= r.mean_vs_T_async_ci95_percent);
  CHECK(r.mean_vs_T_async_ci95_percent ==
        doctest::Approx(1.959963984540054 * r.makespan.sd / std::sqrt(400000.0) / r.T_async * 100).epsilon(1e-9));
  CHECK(r.p99_vs_T_async_percent == doctest::Approx((r.makespan.p99 - r.T_async) / r.T_async * 100).epsilon(1e-12));
}

TEST_CASE("sim random: empirical samples and quantiles") {
  const auto p = make({2, 4});
  sim::Options o;
  o.M = 1;
  o.reps = 200000;
  o.seed = 5;
  // Stage 0: samples 1 and 3 as they are (mean 2); stage 1: quantiles 1, 2, 5
  // at probabilities 0, 1/2, 1, scaled to mean 4 (the mean of the linear
  // interpolation is (1.5 + 3.5) / 2 = 2.5, so each value x 1.6).
  o.service_samples = {sim::Empirical{{1, 3}, false, false}, sim::Empirical{{1, 2, 5}, true, true}};
  const auto r = run(p, o);
  CHECK(r.deterministic_makespan == 6);
  CHECK(r.makespan.ci95_low <= 6);
  CHECK(6 <= r.makespan.ci95_high);
  CHECK(r.makespan.min >= 1 + 1.6);
  CHECK(r.makespan.max <= 3 + 5 * 1.6);
  CHECK(r.makespan.max > 10.9);
}

TEST_CASE("sim random: equal makespans whose sum rounds have no spread, and the interval holds the mean") {
  // 0.1 + 0.1 + 0.1 = 0.30000000000000004, over 3 = 0.10000000000000002:
  // the mean was clamped back to 0.1 only after the sd and the interval were
  // taken around the rounded one, so a run with no randomness reported
  // sd 1.7e-17 and an interval [0.10000000000000002 -/+ 1.9e-17] that
  // excluded its own mean (and the same with a tiny CV, 288 replications of
  // 1077949216.5015352: sd 4e-6, the interval 36 units below the mean).
  for (const double cv : {0.0, 1e-10}) {
    CAPTURE(cv);
    const auto p = make({0.1});
    sim::Options o;
    o.M = 1;
    o.reps = 3;
    if (cv > 0) o.service = {sim::Distribution{sim::DistributionKind::gamma, cv}};
    const auto r = run(p, o);
    CHECK(r.makespan.mean == 0.1);
    CHECK(r.makespan.sd == 0);
    CHECK(r.makespan.ci95_low == 0.1);
    CHECK(r.makespan.ci95_high == 0.1);
    CHECK(r.mean_vs_T_async_ci95_percent == 0);
    CHECK(r.jensen_gap_ci95_low == 0);
    CHECK(r.jensen_gap_ci95_high == 0);
  }
  // Any spread: the interval is around the reported mean.
  hp::test::TestRandom rng(2214);
  for (int trial = 0; trial < 300; ++trial) {
    const auto p = make({rng.uniform(1e6, 1e9), rng.uniform(1e-3, 1)}, {rng.uniform(0, 1)});
    sim::Options o;
    o.M = static_cast<double>(1 + rng() % 8);
    o.reps = static_cast<double>(2 + rng() % 300);
    o.seed = static_cast<double>(trial);
    o.service = {sim::Distribution{sim::DistributionKind::uniform, trial % 2 == 0 ? 1e-10 : 1e-7}};
    const auto r = run(p, o);
    CAPTURE(trial);
    CHECK(r.makespan.ci95_low <= r.makespan.mean);
    CHECK(r.makespan.mean <= r.makespan.ci95_high);
    CHECK(r.mean_vs_T_async_ci95_percent >= 0);
    if (r.makespan.min == r.makespan.max) CHECK(r.makespan.sd == 0);
  }
}

TEST_CASE("sim random: the 95% interval of a makespan or a throughput never goes below 0") {
  // Two replications of a gamma of CV 4: mean - 1.96 sd / sqrt(2) is often < 0, an interval of
  // makespans that cannot be. Its low end is held at 0; its high end is the normal interval's.
  int clamped = 0;
  for (int seed = 0; seed < 200; ++seed) {
    CAPTURE(seed);
    sim::Options o;
    o.M = 1;
    o.reps = 2;
    o.seed = seed;
    o.service = {sim::Distribution{sim::DistributionKind::gamma, 4}};
    const auto r = run(make({1}), o);
    for (const sim::Summary* s : {&r.makespan, &r.throughput}) {
      const double half = 1.959963984540054 * s->sd / std::sqrt(2.0);
      CHECK(s->ci95_low >= 0);
      CHECK(s->ci95_low == std::max(0.0, s->mean - half));
      CHECK(s->ci95_high == s->mean + half);
      CHECK(s->ci95_low <= s->mean);
      if (s->mean - half < 0) ++clamped;
    }
    CHECK(r.jensen_gap_ci95_low == r.makespan.ci95_low - r.deterministic_makespan);
  }
  CHECK(clamped > 0);
}

TEST_CASE("sim random: statistics of a deterministic run are its one makespan") {
  const auto p = make({0.5, 1, 1, 5}, {0.1, 0.1, 0.1});
  sim::Options o;
  o.M = 8;
  o.reps = 5;
  const auto r = run(p, o);
  const double T = hp::makespan_async(p, 8);
  CHECK(r.makespan.mean == T);
  CHECK(r.makespan.sd == 0);
  CHECK(r.makespan.p99 == T);
  CHECK(r.makespan.ci95_low == T);
  CHECK(r.histogram.edges == std::vector<double>{T, T});
  CHECK(r.histogram.counts == std::vector<std::int64_t>{5});
  CHECK(r.throughput.mean == 8 / T);
  CHECK(r.jensen_gap == 0);
  // Deterministic times: the mean is T_async exactly, with no spread.
  CHECK(r.jensen_gap_ci95_low == 0);
  CHECK(r.jensen_gap_ci95_high == 0);
  CHECK(r.mean_vs_T_async_percent == 0);
  CHECK(r.mean_vs_T_async_ci95_percent == 0);
  CHECK(r.p99_vs_T_async_percent == 0);
}

TEST_CASE("sim random: the histogram counts every replication in equal-width bins") {
  const auto p = make({1, 2});
  const auto r = run(p, monte_carlo(4, sim::DistributionKind::gamma, 1, 1000, 2));
  REQUIRE(r.histogram.counts.size() == static_cast<std::size_t>(sim::kHistogramBins));
  // Counts are whole numbers by type (every interface prints them as integers).
  static_assert(std::is_same_v<decltype(r.histogram.counts), std::vector<std::int64_t>>);
  std::int64_t total = 0;
  for (std::int64_t c : r.histogram.counts) total += c;
  CHECK(total == 1000);
  CHECK(r.histogram.edges.front() == r.makespan.min);
  CHECK(r.histogram.edges.back() == r.makespan.max);
  CHECK(r.makespan.p50 <= r.makespan.p90);
  CHECK(r.makespan.p90 <= r.makespan.p95);
  CHECK(r.makespan.p95 <= r.makespan.p99);
}

TEST_CASE("sim random: below kMinCv every draw is the mean, and every CV in [0, kMaxCv] is finite") {
  const auto p = make({1, 2}, {0.5});
  const double exact = 2 + 0.5 + 1 + 3 * 2;  // T_async at M = 4, dyadic: exact
  for (auto kind : {sim::DistributionKind::lognormal, sim::DistributionKind::gamma, sim::DistributionKind::uniform}) {
    // 1e-300 once made the gamma's shape 1/cv^2 infinite and every draw NaN.
    for (double cv : {0.0, 1e-300, 1e-160, 1e-20, hp::limits::kMinCv / 2}) {
      sim::Options o = monte_carlo(4, kind, cv, 50, 3);
      o.link_service = o.service;
      const auto r = run(p, o);
      CHECK(r.makespan.min == exact);
      CHECK(r.makespan.max == exact);
      CHECK(r.run.busy == std::vector<double>{4, 8});
    }
    const double top = kind == sim::DistributionKind::uniform ? hp::limits::kMaxSpread : hp::limits::kMaxCv;
    for (double cv = hp::limits::kMinCv; cv <= top; cv *= 3.7) {
      const auto r = run(p, monte_carlo(4, kind, cv, 200, 5));
      CHECK(std::isfinite(r.makespan.mean));
      CHECK(r.makespan.min > 0);
      CHECK(std::isfinite(r.makespan.max));
      // Tiny spreads stay within a hair of the mean.
      if (cv < 1e-6) CHECK(std::fabs(r.makespan.mean - exact) <= 1e-4);
    }
  }
}

TEST_CASE("sim random: quantiles at given probabilities draw each u's interval, however the probabilities cluster") {
  // The draw searches a guide's bucket, not the whole list: the same draws as
  // the whole list's upper bound, with most probabilities packed in a sliver
  // (one bucket holding nearly all), evenly spread, and on the buckets' edges.
  const std::int64_t n = 4096;
  for (int shape = 0; shape < 3; ++shape) {
    std::vector<double> p, q;
    for (std::int64_t i = 0; i < n; ++i) {
      const double x = static_cast<double>(i) / static_cast<double>(n - 1);
      p.push_back(shape == 0 ? 0.5 + x * 1e-9 * (i + 1 < n) + (i + 1 == n) * 0.5
                  : shape == 1 ? x
                               : static_cast<double>(i) / static_cast<double>(n));
      q.push_back(1 + static_cast<double>(i));
    }
    sim::Options o;
    o.M = 5000;
    o.seed = 11;
    o.service_samples = std::vector<sim::Empirical>{{q, false, false}};
    o.service_probabilities = p;
    o.timeline = true;
    const sim::Run r = run(make({1}), o).run;
    sim::Stream stream(11, 0, 0);
    double finish = 0;
    for (std::int64_t m = 0; m < 5000; ++m) {
      const double u = stream.uniform();
      const auto above = static_cast<std::size_t>(std::upper_bound(p.begin(), p.end(), u) - p.begin());
      double expected = 0;
      if (above == 0) {
        expected = q.front();
      } else if (above == p.size()) {
        expected = q.back();
      } else {
        const std::size_t i = above - 1;
        expected = q[i] + (u - p[i]) / (p[i + 1] - p[i]) * (q[i + 1] - q[i]);
      }
      // One stage: each cell starts when the one before it finishes.
      finish += expected;
      REQUIRE(bits(r.timeline->compute_finish[static_cast<std::size_t>(m)]) == bits(finish));
    }
  }
}
