// Exactness at the edges: the tie rule makes inputs that are equal as typed
// agree on every flag, and the ratio, headroom and position follow from the
// reported makespans, in agreement with exact rational arithmetic.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "support.hpp"

using namespace heteropipe;

namespace {

double typed(int hundredths) {
  const std::string text = std::to_string(hundredths / 100) + "." + (hundredths % 100 < 10 ? "0" : "") +
                           std::to_string(hundredths % 100);
  return parse_number(text, Field::tau).value();
}

Analysis analysis_of(std::vector<double> tau, std::vector<double> d, double M, std::optional<double> T_real = {}) {
  return analyze({std::move(tau), std::move(d), M, 1, T_real}).value();
}

// Every flag and derived value tells one story.
void check_consistent(const Analysis& a) {
  const std::vector<double> margin = a.link_margin();
  bool past = false;
  for (double m : margin) past = past || m < 0;
  CHECK(a.phase_transition == past);
  CHECK(a.phase_transition == (a.sigma_max > a.tau_max));
  CHECK(a.overlap_headroom == (a.T_block > a.T_async));
  CHECK(a.overlap_gap == a.T_block - a.T_async);
  CHECK((a.full_bias < 0) == (a.gpipe_overestimate < 0));
  CHECK(a.T_gpipe >= a.T_free);
  CHECK(a.homogeneity_bias >= 0);
  if (a.T_real) {
    const SandwichPosition position = *a.T_real_position;
    CHECK((position == SandwichPosition::below_async) == (*a.T_real < a.T_async));
    CHECK((position == SandwichPosition::above_block) == (*a.T_real > a.T_block));
    CHECK(a.overlap_ratio.has_value() == a.overlap_headroom);
    if (a.overlap_ratio && position == SandwichPosition::inside) {
      CHECK(*a.overlap_ratio >= 0);
      CHECK(*a.overlap_ratio <= 1);
    }
  }
}

}  // namespace

TEST_CASE("every two-decimal boundary up to 1.00: d equal to the slack as typed is no phase transition") {
  int cases = 0;
  for (int a = 1; a < 100; ++a) {
    for (int c = a + 1; c <= 100; ++c) {
      CAPTURE(a);
      CAPTURE(c);
      // tau = [a, c], d = [c - a]: sigma[0] = a + (c - a) equals tau_max = c as typed.
      const Analysis tie = analysis_of({typed(a), typed(c)}, {typed(c - a)}, 8, typed(c) * 9);
      CHECK_FALSE(tie.phase_transition);
      CHECK(tie.sigma_max == tie.tau_max);
      CHECK(tie.link_margin()[0] == 0);
      CHECK(tie.full_bias == 0);
      CHECK(tie.gpipe_overestimate == 0);
      CHECK(tie.T_block == tie.T_async);
      CHECK_FALSE(tie.overlap_headroom);
      check_consistent(tie);
      // One hundredth more latency is past the transition, plainly.
      const Analysis past = analysis_of({typed(a), typed(c)}, {typed(c - a + 1)}, 8, typed(c) * 9);
      CHECK(past.phase_transition);
      CHECK(past.link_margin()[0] < 0);
      CHECK(past.full_bias < 0);
      CHECK(past.overlap_headroom);
      check_consistent(past);
      ++cases;
    }
  }
  CHECK(cases == 4950);
}

TEST_CASE("near-cancellation: ratio, headroom and position agree with exact arithmetic on 20,000 cases") {
  // Inputs are whole multiples of 2^-10 below 2^20, so every sum the formulas
  // take is exact in a double, and exact integer arithmetic on the multiples
  // (units of 2^-10) is the reference. Latencies sit at the slack, one unit
  // either side of it, or anywhere; T_real sits at, or one unit beside,
  // T_async and T_block.
  std::mt19937_64 random(10'000);
  const double unit = 1.0 / 1024;
  for (int trial = 0; trial < 20'000; ++trial) {
    CAPTURE(trial);
    const int S = 2 + static_cast<int>(random() % 5);
    std::vector<std::int64_t> tau_units(S), d_units(S - 1);
    for (auto& t : tau_units) t = 1 + static_cast<std::int64_t>(random() % (1 << 20));
    std::int64_t tau_max = 0;
    for (auto t : tau_units) tau_max = std::max(tau_max, t);
    for (int s = 0; s + 1 < S; ++s) {
      const std::int64_t slack = tau_max - tau_units[s];
      switch (random() % 4) {
        case 0: d_units[s] = slack; break;
        case 1: d_units[s] = slack + 1; break;
        case 2: d_units[s] = slack > 0 ? slack - 1 : 0; break;
        default: d_units[s] = static_cast<std::int64_t>(random() % (1 << 20)); break;
      }
    }
    const std::int64_t M = 1 + static_cast<std::int64_t>(random() % 64);
    std::int64_t sum = 0, sigma_max = 0;
    for (int s = 0; s < S; ++s) {
      const std::int64_t sigma = tau_units[s] + (s + 1 < S ? d_units[s] : 0);
      sum += sigma;
      sigma_max = std::max(sigma_max, sigma);
    }
    const std::int64_t T_async = sum + (M - 1) * tau_max, T_block = sum + (M - 1) * sigma_max;
    const std::int64_t choices[] = {T_async - 1, T_async, T_async + 1, T_block - 1, T_block, T_block + 1,
                                    (T_async + T_block) / 2};
    const std::int64_t T_real = std::max<std::int64_t>(1, choices[random() % 7]);

    std::vector<double> tau, d;
    for (auto t : tau_units) tau.push_back(static_cast<double>(t) * unit);
    for (auto l : d_units) d.push_back(static_cast<double>(l) * unit);
    const Analysis a = analysis_of(tau, d, static_cast<double>(M), static_cast<double>(T_real) * unit);
    check_consistent(a);
    CHECK(a.T_async == static_cast<double>(T_async) * unit);
    CHECK(a.T_block == static_cast<double>(T_block) * unit);
    CHECK(a.overlap_headroom == (T_block > T_async));
    CHECK(a.phase_transition == (sigma_max > tau_max));
    const SandwichPosition exact = T_real < T_async   ? SandwichPosition::below_async
                                   : T_real > T_block ? SandwichPosition::above_block
                                                      : SandwichPosition::inside;
    CHECK(*a.T_real_position == exact);
    if (T_block > T_async) {
      // The ratio is the correctly rounded quotient of two exact integers.
      const double ratio = static_cast<double>(T_block - T_real) / static_cast<double>(T_block - T_async);
      CHECK(*a.overlap_ratio == ratio);
    }
  }
}

TEST_CASE("M = 2^53: T_gpipe never below T_free, the bias never negative") {
  for (const std::vector<double>& tau : {std::vector<double>{1}, {1, 2}, {0.5, 1, 1, 5}, {3, 3, 3}}) {
    const Analysis a = analysis_of(tau, {}, limits::kMaxBatches);
    CHECK(a.T_gpipe >= a.T_free);
    CHECK(a.gpipe_overestimate >= 0);
    check_consistent(a);
  }
}

TEST_CASE("-0 is 0 in every list and scalar") {
  const Analysis a = analyze({{-0.0, 1}, {-0.0}, 8, -0.0, {}}).value();
  CHECK_FALSE(std::signbit(a.tau()[0]));
  CHECK_FALSE(std::signbit(a.d()[0]));
  CHECK_FALSE(std::signbit(a.sigma()[0]));
  CHECK_FALSE(std::signbit(a.rho));
  // Long pipelines take the block-wise path.
  std::vector<double> tau(1001, -0.0), d(1000, -0.0);
  tau[500] = 2;
  const Pipeline p = Pipeline::create(tau, d).value();
  for (double x : p.tau()) CHECK_FALSE(std::signbit(x));
  for (double x : p.d()) CHECK_FALSE(std::signbit(x));
}
