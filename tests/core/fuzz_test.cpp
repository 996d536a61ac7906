// A randomized fuzz of the parser and analyze: random bytes and random
// numbers never crash, never hang and never produce a non-finite result.
// Runs briefly by default; HETEROPIPE_FUZZ_ITERATIONS makes it run longer.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "support.hpp"
#include "test_random.hpp"

using namespace heteropipe;

namespace {

long iterations() {
  const char* env = std::getenv("HETEROPIPE_FUZZ_ITERATIONS");
  return env ? std::strtol(env, nullptr, 10) : 20000;
}

// Bytes drawn mostly from the parser's alphabet, so that the fuzz reaches
// deep paths, with some arbitrary bytes.
std::string random_text(test::TestRandom& rng) {
  static const std::string alphabet[] = {"0", "1", "5", "9", ".", "e", "E", "+", "-", ",", ";", " ", "\t",
                                         "\n", "x", "n", "a", "i", "\xEF\xBC\x8C", "\xE3\x80\x81", "\xE3\x80\x80"};
  std::string text;
  for (auto i = rng.integer(0, 40); i > 0; --i) {
    if (rng.integer(0, 9) == 0) {
      text.push_back(static_cast<char>(rng.integer(0, 255)));
    } else {
      text += alphabet[rng.integer(0, 20)];
    }
  }
  return text;
}

double random_number(test::TestRandom& rng) {
  static const double specials[] = {0.0, -0.0, 1.0, -1.0, 5e-324, 1e-15, 1e15, 2e15, 1e308,
                                    std::numeric_limits<double>::infinity(),
                                    std::numeric_limits<double>::quiet_NaN(), 9007199254740992.0, 0.5};
  if (rng.integer(0, 3) == 0) return specials[rng.integer(0, 12)];
  const double magnitude = rng.ten_to_uniform(-20, 20);
  return rng.integer(0, 3) == 1 ? -magnitude : magnitude;
}

bool all_finite(const Analysis& a) {
  bool finite = true;
  struct {
    bool* finite;
    void operator()(std::string_view, double x) const { *finite = *finite && std::isfinite(x); }
    void operator()(std::string_view, const std::vector<double>& v) const {
      for (double x : v) *finite = *finite && std::isfinite(x);
    }
    void operator()(std::string_view name, const ComputedList& list) const { (*this)(name, list.values()); }
    void operator()(std::string_view, std::int64_t) const {}
    void operator()(std::string_view, bool) const {}
    void operator()(std::string_view, std::string_view) const {}
  } check{&finite};
  visit_fields(a, check);
  return finite;
}

}  // namespace

TEST_CASE("fuzz: the parser accepts or names an item, for any bytes") {
  test::TestRandom rng(99);
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
  test::TestRandom rng(100);
  // Mostly short pipelines; one in sixteen long enough to span several of
  // the blocks Pipeline::create validates at a time.
  const auto maybe = [&rng] { return rng.integer(0, 1) == 1; };
  long analyzed = 0;
  for (long i = 0, n = iterations(); i < n; ++i) {
    AnalysisRequest request;
    request.tau.resize(static_cast<std::size_t>(rng.integer(0, 15) == 0 ? rng.integer(200, 1200) : rng.integer(0, 9)));
    for (double& x : request.tau) x = std::abs(random_number(rng));
    if (maybe() && !request.tau.empty()) {
      request.d.resize(request.tau.size() - 1 + (maybe() && maybe() ? 1 : 0));
      for (double& x : request.d) x = std::abs(random_number(rng));
    }
    request.M = maybe() ? std::floor(std::abs(random_number(rng))) : random_number(rng);
    request.rho = maybe() ? std::fmod(std::abs(random_number(rng)), 1.0) : random_number(rng);
    if (maybe()) request.T_real = random_number(rng);
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
