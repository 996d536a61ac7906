// The timeline: a valid schedule that ends at the recurrence's makespan.
#include <doctest/doctest.h>

#include "support.hpp"
#include "test_random.hpp"

using namespace heteropipe;
using heteropipe::testing::make;

namespace {

void check_schedule(const Pipeline& p, std::int64_t M, Regime regime) {
  CAPTURE(regime_name(regime));
  CAPTURE(M);
  const Timeline t = timeline(p, static_cast<double>(M), regime).value();
  const std::int64_t S = p.S();
  REQUIRE(t.S == S);
  REQUIRE(t.M == M);
  REQUIRE(t.compute_start.size() == static_cast<std::size_t>(M * S));
  REQUIRE(t.transfer_start.size() == static_cast<std::size_t>(M * (S - 1)));
  CHECK(t.makespan == recurrence_makespan(p, static_cast<double>(M), regime).value());
  const auto& tau = p.tau();
  const auto& d = p.d();
  // Utilization: each stage's busy intervals as drawn (compute, and under
  // blocking the send that holds it), added up, over the makespan.
  REQUIRE(t.utilization.size() == static_cast<std::size_t>(S));
  for (std::int64_t s = 0; s < S; ++s) {
    double busy = 0;
    for (std::int64_t m = 0; m < M; ++m) {
      busy += t.compute_finish[m * S + s] - t.compute_start[m * S + s];
      if (regime == Regime::blocking && s + 1 < S) {
        busy += t.transfer_finish[m * (S - 1) + s] - t.transfer_start[m * (S - 1) + s];
      }
    }
    CHECK(t.utilization[s] == doctest::Approx(busy / t.makespan).epsilon(1e-12));
    CHECK(t.utilization[s] <= 1 + 1e-12);
  }
  for (std::int64_t m = 0; m < M; ++m) {
    for (std::int64_t s = 0; s < S; ++s) {
      const std::int64_t c = m * S + s;
      // Stage times to scale.
      CHECK(t.compute_finish[c] - t.compute_start[c] == doctest::Approx(tau[s]));
      CHECK(t.compute_start[c] >= 0);
      // No overlap on a stage: a micro-batch starts after the previous one
      // left (compute, and under blocking the send too).
      if (m > 0) {
        const std::int64_t before = (m - 1) * S + s;
        double busy_until = t.compute_finish[before];
        if (regime == Regime::blocking && s + 1 < S) busy_until = t.transfer_finish[(m - 1) * (S - 1) + s];
        CHECK(t.compute_start[c] >= busy_until);
      }
      // Dependencies: stage s starts after its input arrived.
      if (s > 0) {
        const std::int64_t link = m * (S - 1) + (s - 1);
        CHECK(t.compute_start[c] >= t.transfer_finish[link]);
      }
      if (s + 1 < S) {
        const std::int64_t link = m * (S - 1) + s;
        CHECK(t.transfer_start[link] == t.compute_finish[c]);
        CHECK(t.transfer_finish[link] - t.transfer_start[link] == doctest::Approx(d[s]));
      }
    }
  }
}

}  // namespace

TEST_CASE("timelines respect every dependency and never overlap on a stage") {
  check_schedule(make({0.5, 1, 1, 5}, {0.2, 0.1, 0.3}), 6, Regime::async);
  check_schedule(make({0.5, 1, 1, 5}, {0.2, 0.1, 0.3}), 6, Regime::blocking);
  check_schedule(make({0.5, 1, 1, 5}, {4.6, 0.1, 0.1}), 9, Regime::blocking);
  check_schedule(make({3}), 4, Regime::async);
  test::TestRandom rng(7);
  for (int i = 0; i < 50; ++i) {
    std::vector<double> tau(2 + i % 6), d(tau.size() - 1);
    for (double& x : tau) x = rng.uniform(0.0, 2.0) + 0.01;
    for (double& x : d) x = rng.uniform(0.0, 2.0);
    check_schedule(make(tau, d), 1 + i % 11, i % 2 ? Regime::blocking : Regime::async);
  }
}

TEST_CASE("timeline of Section 3.1: the bottleneck runs back to back") {
  const Timeline t = timeline(make({0.5, 1, 1, 5}), 3, Regime::async).value();
  // Stage 3 (tau = 5) starts at 2.5 and never idles afterwards.
  CHECK(t.compute_start[3] == 2.5);
  CHECK(t.compute_start[4 + 3] == 7.5);
  CHECK(t.compute_start[8 + 3] == 12.5);
  CHECK(t.makespan == 17.5);
}

TEST_CASE("the regimes are named async and blocking; the former spellings still read") {
  CHECK(regime_name(Regime::async) == "async");
  CHECK(regime_name(Regime::blocking) == "blocking");
  CHECK(regime_from_name("async") == Regime::async);
  CHECK(regime_from_name("asynchronous") == Regime::async);
  CHECK(regime_from_name("blocking") == Regime::blocking);
  CHECK(regime_from_name("block") == Regime::blocking);
  CHECK_FALSE(regime_from_name("sideways").has_value());
  CHECK_FALSE(regime_from_name("").has_value());
}

TEST_CASE("the timeline refuses requests over its cell limit") {
  const Pipeline p = make({1, 1, 1, 1});
  auto r = timeline(p, limits::kMaxTimelineCells / 4 + 1, Regime::async);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::too_many_cells);
  CHECK(r.error().field == Field::M);
  CHECK(timeline(p, limits::kMaxTimelineCells / 4, Regime::async).ok());
}
