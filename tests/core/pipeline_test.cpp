// Pipeline::create on long pipelines, where it validates and summarizes block
// by block: the same summary and the same first error as a plain stage-by-
// stage pass, wherever a block boundary falls.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "support.hpp"
#include "test_random.hpp"

using namespace heteropipe;

namespace {

struct Summary {
  double sum_tau = 0, sum_d = 0, sum_slack = 0, tau_max = 0, sigma_max = 0;
  std::int64_t bottleneck = 0, blocking_bottleneck = 0;
};

// The definition, one stage at a time, with the same order of operations.
Summary plain_summary(const std::vector<double>& tau, const std::vector<double>& d) {
  Summary r;
  for (std::size_t s = 0; s < tau.size(); ++s) {
    const double link = s + 1 < tau.size() ? d[s] : 0.0;
    r.sum_tau += tau[s];
    r.sum_d += link;
    if (tau[s] > r.tau_max) {
      r.sum_slack += static_cast<double>(s) * (tau[s] - r.tau_max);
      r.tau_max = tau[s];
      r.bottleneck = static_cast<std::int64_t>(s);
    } else {
      r.sum_slack += r.tau_max - tau[s];
    }
    if (tau[s] + link > r.sigma_max) {
      r.sigma_max = tau[s] + link;
      r.blocking_bottleneck = static_cast<std::int64_t>(s);
    }
  }
  return r;
}

std::vector<double> random_values(test::TestRandom& rng, std::size_t n, int shape) {
  const auto u = [&rng] { return rng.uniform(0.01, 10); };
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (shape == 0) v[i] = u();                                 // random
    if (shape == 1) v[i] = 0.5 + static_cast<double>(i) * 1e-3;    // rising: a new maximum everywhere
    if (shape == 2) v[i] = 10 - static_cast<double>(i) * 1e-3;     // falling
    if (shape == 3) v[i] = std::round(u());                     // many ties
  }
  return v;
}

}  // namespace

TEST_CASE("long pipelines: the summary equals the plain stage-by-stage pass, bit for bit") {
  test::TestRandom rng(5);
  for (std::size_t S : {2u, 3u, 6u, 255u, 256u, 257u, 258u, 259u, 511u, 512u, 513u, 1000u, 4097u}) {
    for (int shape = 0; shape < 4; ++shape) {
      CAPTURE(S);
      CAPTURE(shape);
      const std::vector<double> tau = random_values(rng, S, shape);
      const std::vector<double> d = random_values(rng, S - 1, (shape + 1) % 4);
      const Pipeline p = Pipeline::create(tau, d).value();
      const Summary expected = plain_summary(tau, d);
      CHECK(p.sum_tau() == expected.sum_tau);
      CHECK(p.sum_d() == expected.sum_d);
      CHECK(p.sum_slack() == expected.sum_slack);
      CHECK(p.tau_max() == expected.tau_max);
      CHECK(p.sigma_max() == expected.sigma_max);
      CHECK(p.bottleneck_stage() == expected.bottleneck);
      CHECK(p.blocking_bottleneck_stage() == expected.blocking_bottleneck);
    }
  }
}

TEST_CASE("long pipelines: the first bad value is the error, with its field and index") {
  const double bad_values[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(), -1.0, 2e15};
  const ErrorCode codes[] = {ErrorCode::not_finite, ErrorCode::not_finite, ErrorCode::not_finite,
                             ErrorCode::negative, ErrorCode::too_large};
  test::TestRandom rng(6);
  const std::size_t S = 1500;
  for (std::size_t k = 0; k < 5; ++k) {
    for (std::size_t index : {0u, 1u, 255u, 256u, 257u, 700u, 1495u, 1496u, 1497u, 1498u, 1499u}) {
      CAPTURE(k);
      CAPTURE(index);
      std::vector<double> tau = random_values(rng, S, 0), d = random_values(rng, S - 1, 0);
      // tau is judged before d, and an earlier item before a later one.
      tau[index] = bad_values[k];
      d[0] = -5;
      if (index + 1 < S) tau[S - 1] = -7;
      auto r = Pipeline::create(tau, d);
      REQUIRE_FALSE(r.ok());
      CHECK(r.error().field == Field::tau);
      CHECK(r.error().index == static_cast<std::int64_t>(index));
      CHECK(r.error().code == codes[k]);
      if (index + 1 >= S) continue;
      tau = random_values(rng, S, 0);
      d[0] = 1;
      d[index] = bad_values[k];
      d[S - 2] = -7;
      if (index == S - 2) d[S - 2] = bad_values[k];
      r = Pipeline::create(tau, d);
      REQUIRE_FALSE(r.ok());
      CHECK(r.error().field == Field::d);
      CHECK(r.error().index == static_cast<std::int64_t>(index));
      CHECK(r.error().code == codes[k]);
    }
  }
}

TEST_CASE("long pipelines: negative zero is zero, and a zero-time stage is fine") {
  std::vector<double> tau(1000, 1.0), d(999, 0.0);
  tau[300] = -0.0;
  d[600] = -0.0;
  const Pipeline p = Pipeline::create(tau, d).value();
  CHECK(p.sum_tau() == 999);
  CHECK(homogeneity_bias(p) == 1);
}
