// A randomized fuzz of the parser and analyze: random bytes and random
// numbers never crash, never hang and never produce a non-finite result.
// Runs briefly by default; HETEROPIPE_FUZZ_ITERATIONS makes it run longer.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

#include "support.hpp"

using namespace heteropipe;

namespace {

long iterations() {
  const char* env = std::getenv("HETEROPIPE_FUZZ_ITERATIONS");
  return env ? std::strtol(env, nullptr, 10) : 20000;
}

// Bytes drawn mostly from the parser's alphabet, so that the fuzz reaches
// deep paths, with some arbitrary bytes.
std::string random_text(std::mt19937_64& rng) {
  static const std::string alphabet[] = {"0", "1", "5", "9", ".", "e", "E", "+", "-", ",", ";", " ", "\t",
                                         "\n", "x", "n", "a", "i", "\xEF\xBC\x8C", "\xE3\x80\x81", "\xE3\x80\x80"};
  std::uniform_int_distribution<int> length(0, 40), pick(0, 20), byte(0, 255), mode(0, 9);
  std::string text;
  for (int i = length(rng); i > 0; --i) {
    if (mode(rng) == 0) {
      text.push_back(static_cast<char>(byte(rng)));
    } else {
      text += alphabet[pick(rng)];
    }
  }
  return text;
}

double random_number(std::mt19937_64& rng) {
  static const double specials[] = {0.0, -0.0, 1.0, -1.0, 5e-324, 1e-15, 1e15, 2e15, 1e308,
                                    std::numeric_limits<double>::infinity(),
                                    std::numeric_limits<double>::quiet_NaN(), 9007199254740992.0, 0.5};
  std::uniform_int_distribution<int> mode(0, 3), pick(0, 12);
  std::uniform_real_distribution<double> exponent(-20, 20);
  if (mode(rng) == 0) return specials[pick(rng)];
  return std::pow(10.0, exponent(rng)) * (mode(rng) == 1 ? -1 : 1);
}

bool all_finite(const Analysis& a) {
  bool finite = true;
  struct {
    bool* finite;
    void operator()(std::string_view, double x) const { *finite = *finite && std::isfinite(x); }
    void operator()(std::string_view, const std::vector<double>& v) const {
      for (double x : v) *finite = *finite && std::isfinite(x);
    }
    void operator()(std::string_view, std::int64_t) const {}
    void operator()(std::string_view, bool) const {}
    void operator()(std::string_view, std::string_view) const {}
  } check{&finite};
  visit_fields(a, check);
  return finite;
}

}  // namespace

TEST_CASE("fuzz: the parser accepts or names an item, for any bytes") {
  std::mt19937_64 rng(99);
  for (long i = 0, n = iterations(); i < n; ++i) {
    const std::string text = random_text(rng);
    auto r = parse_number_list(text, Field::d);
    if (r.ok()) {
      for (double x : r.value()) REQUIRE(std::isfinite(x));
    } else {
      REQUIRE(r.error().field == Field::d);
      REQUIRE(r.error().index >= 0);
      REQUIRE(std::isfinite(r.error().value));
    }
  }
}

TEST_CASE("fuzz: analyze is finite or names the first bad field") {
  std::mt19937_64 rng(100);
  // Mostly short pipelines; one in sixteen long enough to span several of
  // the blocks Pipeline::create validates at a time.
  std::uniform_int_distribution<int> stages(0, 9), long_stages(200, 1200), one_in(0, 15), maybe(0, 1);
  long analyzed = 0;
  for (long i = 0, n = iterations(); i < n; ++i) {
    AnalysisRequest request;
    request.tau.resize(one_in(rng) == 0 ? long_stages(rng) : stages(rng));
    for (double& x : request.tau) x = std::abs(random_number(rng));
    if (maybe(rng) && !request.tau.empty()) {
      request.d.resize(request.tau.size() - 1 + (maybe(rng) && maybe(rng) ? 1 : 0));
      for (double& x : request.d) x = std::abs(random_number(rng));
    }
    request.M = maybe(rng) ? std::floor(std::abs(random_number(rng))) : random_number(rng);
    request.rho = maybe(rng) ? std::fmod(std::abs(random_number(rng)), 1.0) : random_number(rng);
    if (maybe(rng)) request.T_real = random_number(rng);
    auto r = analyze(request);
    if (r.ok()) {
      ++analyzed;
      REQUIRE(all_finite(r.value()));
    } else {
      REQUIRE(std::isfinite(r.error().value));
    }
  }
  CHECK(analyzed > 0);
}
