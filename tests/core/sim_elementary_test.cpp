// The simulator's own exp and log against the C library's, over the whole
// range and its edges, and exp against the true value; the ziggurat normal's moments and tail; every sampler's
// draws finite and positive where docs/simulation.md says they are.
#include <doctest/doctest.h>

#include <heteropipe/sim/elementary.hpp>
#include <heteropipe/sim/random.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "sim/sampler.hpp"

namespace sim = heteropipe::sim;

namespace {

// How many doubles lie between a and b (both finite, same sign, or zero).
std::int64_t ulps_apart(double a, double b) {
  std::int64_t x = 0, y = 0;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x > y ? x - y : y - x;
}

// Points spread over [low, high] by a fixed sequence (not the stream under
// test), plus both ends.
std::vector<double> points(double low, double high, int n) {
  std::vector<double> xs{low, high};
  std::uint64_t state = 12345;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t b = sim::splitmix64(state++);
    xs.push_back(low + (high - low) * (static_cast<double>(b >> 11) * 0x1p-53));
  }
  return xs;
}

// The largest distance in ulps between f and g over xs.
template <class F, class G>
std::int64_t worst(const std::vector<double>& xs, F f, G g) {
  std::int64_t most = 0;
  for (double x : xs) {
    const std::int64_t d = ulps_apart(f(x), g(x));
    if (d > most) most = d;
  }
  return most;
}

}  // namespace

TEST_CASE("sim elementary: exp within one ulp of the C library's over its whole range") {
  auto own = [](double x) { return sim::portable_exp(x); };
  auto lib = [](double x) { return std::exp(x); };
  CHECK(worst(points(-745.1, 709.78, 200000), own, lib) <= 1);
  CHECK(worst(points(-1, 1, 200000), own, lib) <= 1);
  CHECK(worst(points(-1e-6, 1e-6, 20000), own, lib) <= 1);
  CHECK(worst(points(-745.13, -708, 20000), own, lib) <= 1);  // subnormal results
  CHECK(worst(points(700, 709.782712893384, 20000), own, lib) <= 1);
  CHECK(sim::portable_exp(0) == 1);
  CHECK(sim::portable_exp(-1e-300) == 1);
  CHECK(sim::portable_exp(710) == std::numeric_limits<double>::infinity());
  CHECK(sim::portable_exp(-746) == 0);
  CHECK(sim::portable_exp(-std::numeric_limits<double>::infinity()) == 0);
  CHECK(std::isnan(sim::portable_exp(std::numeric_limits<double>::quiet_NaN())));
}

// e^x by its Taylor series in long double, for |x| <= 1.
static long double taylor_exp(long double x) {
  long double sum = 1, term = 1;
  for (int n = 1; n < 40; ++n) {
    term = term * x / n;
    sum += term;
  }
  return sum;
}

// Against a wider type's exp (long double: 64 significant bits natively), not
// another double's: about half an ulp, which is what the table's two parts
// and the one rounding at the end give. musl's long double exp (the
// WebAssembly build's) is only its double exp, so there the reference is a
// long double (113 bits) Taylor series, on |x| <= 1; the bits of portable_exp
// are the same in every build (the golden-bit tests), so the native check
// covers the whole range for all.
TEST_CASE("sim elementary: exp within 0.52 ulp of the true value; the table is 2^(j/128)") {
  const bool wide = std::exp(1.0L) != static_cast<long double>(std::exp(1.0));
  double most = 0;
  for (const double x : wide ? points(-708, 708, 50000) : points(-1, 1, 20000)) {
    const long double truth = wide ? std::exp(static_cast<long double>(x)) : taylor_exp(x);
    const double nearest = static_cast<double>(truth);
    const double ulp = std::nextafter(nearest, std::numeric_limits<double>::infinity()) - nearest;
    const auto error = static_cast<double>(std::fabs(static_cast<long double>(sim::portable_exp(x)) - truth) / ulp);
    most = error > most ? error : most;
  }
  CHECK(most <= 0.52);
  for (int j = 0; j < sim::elementary_detail::kExpTableSize; ++j) {
    const double* t = sim::elementary_detail::kPowersOfTwo[j];
    // ln 2 to 36 digits, for a 113-bit long double.
    const long double power = static_cast<long double>(j) / sim::elementary_detail::kExpTableSize;
    const long double truth = wide ? std::exp2(power) : taylor_exp(power * 0.693147180559945309417232121458176568L);
    CHECK(t[0] == static_cast<double>(truth));  // the nearest double
    CHECK(std::fabs(static_cast<long double>(t[0]) + t[1] - truth) <= std::ldexp(1.0L, -62) * truth);
  }
}

TEST_CASE("sim elementary: log within one ulp of the C library's over its whole range") {
  auto own = [](double x) { return sim::portable_log(x); };
  auto lib = [](double x) { return std::log(x); };
  // Uniforms as the samplers draw them, near 1 where log is smallest, every
  // binade by its exponent, and the subnormals.
  CHECK(worst(points(0x1p-54, 1, 200000), own, lib) <= 1);
  CHECK(worst(points(1 - 0x1p-20, 1 + 0x1p-20, 50000), own, lib) <= 1);
  CHECK(worst(points(0.7, 1.5, 100000), own, lib) <= 1);
  std::vector<double> binades;
  for (int e = -1074; e <= 1023; ++e) {
    for (double m : {1.0, 1.2345678901234567, 1.4142135623730951, 1.4142135623730954, 1.9999999999999998}) {
      const double x = std::ldexp(m, e);
      if (x > 0 && std::isfinite(x)) binades.push_back(x);
    }
  }
  CHECK(worst(binades, own, lib) <= 1);
  CHECK(sim::portable_log(1) == 0);
  CHECK(sim::portable_log(2) == std::log(2.0));
  CHECK(sim::portable_log(0) == -std::numeric_limits<double>::infinity());
  CHECK(std::isnan(sim::portable_log(-1)));
  CHECK(sim::portable_log(std::numeric_limits<double>::infinity()) == std::numeric_limits<double>::infinity());
}

TEST_CASE("sim elementary: the ziggurat normal has mean 0, variance 1 and the normal's tails") {
  sim::Stream s(9, 0, 0);
  const int n = 2000000;
  double sum = 0, squares = 0, fourth = 0;
  int beyond_1 = 0, beyond_3 = 0, beyond_r = 0;
  for (int i = 0; i < n; ++i) {
    const double z = s.normal();
    REQUIRE(std::isfinite(z));
    sum += z;
    squares += z * z;
    fourth += z * z * z * z;
    beyond_1 += std::fabs(z) > 1;
    beyond_3 += std::fabs(z) > 3;
    beyond_r += std::fabs(z) > 3.6541528853610088;
  }
  const double N = n;
  // Within about four standard errors of the normal's values.
  CHECK(std::fabs(sum / N) < 4 * std::sqrt(1 / N));
  CHECK(std::fabs(squares / N - 1) < 4 * std::sqrt(2 / N));
  CHECK(std::fabs(fourth / N - 3) < 4 * std::sqrt(96 / N));
  auto near = [&](int count, double p) { return std::fabs(count - N * p) < 4 * std::sqrt(N * p) + 1; };
  CHECK(near(beyond_1, 0.31731050786291415));
  CHECK(near(beyond_3, 0.0026997960632601913));
  CHECK(near(beyond_r, 2.580324876539013e-4));  // 2 (1 - Phi(r)): the tail's own branch
}

TEST_CASE("sim elementary: every sampler's draws are finite and > 0 for a positive mean, at the limits too") {
  using Kind = sim::DistributionKind;
  struct Case {
    Kind kind;
    double param;
  };
  for (Case c : {Case{Kind::exponential, 0}, Case{Kind::lognormal, 0.01}, Case{Kind::lognormal, 4},
                 Case{Kind::gamma, 0.01}, Case{Kind::gamma, 1}, Case{Kind::gamma, 4}, Case{Kind::uniform, 1},
                 Case{Kind::uniform, 0.5}}) {
    CAPTURE(static_cast<int>(c.kind));
    CAPTURE(c.param);
    for (double mean : {1e-9, 1.0, 1e9}) {
      const auto sampler = sim::detail::Sampler::of(sim::Distribution{c.kind, c.param}, mean);
      sim::Stream s(1, 2, 3);
      bool ok = true;
      for (int i = 0; i < 200000; ++i) {
        const double x = sampler.draw(s);
        ok = ok && std::isfinite(x) && x > 0;
      }
      CHECK(ok);
    }
  }
}

// Quantiles at given probabilities (the measured preset's dur_min, p5, p50
// and p95 at 0, 0.05, 0.5 and 0.95) against 21 evenly spaced quantiles
// through the same points: the same quantile function, so the same uniform
// gives the same draw but for rounding, and the means agree.
TEST_CASE("sim elementary: quantiles at given probabilities equal evenly spaced ones through the same points") {
  const double low = 1.13, q5 = 7.006, q50 = 8.569, q95 = 10.3396;
  const std::vector<double> probabilities{0, 0.05, 0.5, 0.95};
  const sim::Empirical given{{low, q5, q50, q95}, true, false};
  std::vector<double> spaced{low};
  for (int k = 1; k <= 10; ++k) spaced.push_back(q5 + (q50 - q5) * (k - 1) / 9);
  for (int k = 11; k <= 19; ++k) spaced.push_back(q50 + (q95 - q50) * (k - 10) / 9);
  spaced.push_back(q95);
  const sim::Empirical even{spaced, true, false};
  const std::vector<double> none;
  const auto at = sim::detail::Sampler::from(given, 1, probabilities);
  const auto evenly = sim::detail::Sampler::from(even, 1, none);
  CHECK(at.mean() == doctest::Approx(evenly.mean()).epsilon(1e-14));
  // 0.05 x (1.13 + 7.006) / 2 + 0.45 x (7.006 + 8.569) / 2 + 0.45 x (8.569 + 10.3396) / 2 + 0.05 x 10.3396
  // = 0.2034 + 3.504375 + 4.254435 + 0.51698
  CHECK(at.mean() == doctest::Approx(8.47919).epsilon(1e-14));
  sim::Stream a(3, 0, 0), b(3, 0, 0);
  double worst = 0;
  for (int i = 0; i < 100000; ++i) {
    const double x = at.draw(a), y = evenly.draw(b);
    worst = std::fmax(worst, std::fabs(x - y) / y);
    CHECK(x >= low);
    CHECK(x <= q95);
  }
  CHECK(worst <= 1e-14);
  // scaled: the shape at the asked mean.
  const sim::Empirical shape{{low, q5, q50, q95}, true, true};
  CHECK(sim::detail::Sampler::from(shape, 2.5, probabilities).mean() == 2.5);
}
