// The simulator's progress callback (Options::progress): the pages' progress
// bar. At most about 100 calls a run, rising fractions of the replications
// done, none without randomness, and the same results with it as without.
#include <doctest/doctest.h>

#include <vector>

#include "support.hpp"

namespace hp = heteropipe;
namespace sim = heteropipe::sim;
using hp::testing::make;

namespace {

sim::Options random_options(double reps) {
  sim::Options o;
  o.M = 8;
  o.service = {sim::Distribution{sim::DistributionKind::lognormal, 0.5}};
  o.reps = reps;
  o.seed = 3;
  return o;
}

}  // namespace

TEST_CASE("sim progress: every hundredth of the replications, rising, below 1") {
  const auto p = make({1, 2, 3}, {0.5, 0.2});
  std::vector<double> seen;
  sim::Options o = random_options(1000);
  o.progress = [&seen](double f) { seen.push_back(f); };
  auto with = sim::simulate(p, o);
  REQUIRE(with.ok());
  REQUIRE(seen.size() == 99);  // after replications 10, 20, ..., 990
  CHECK(seen.front() == 0.01);
  CHECK(seen.back() == 0.99);
  for (std::size_t k = 1; k < seen.size(); ++k) CHECK(seen[k] > seen[k - 1]);

  auto without = sim::simulate(p, random_options(1000));
  REQUIRE(without.ok());
  CHECK(with.value().makespan.mean == without.value().makespan.mean);
  CHECK(with.value().makespan.p99 == without.value().makespan.p99);
}

TEST_CASE("sim progress: a few replications call it after each; deterministic runs never") {
  const auto p = make({1, 2, 3}, {});
  std::vector<double> seen;
  sim::Options o = random_options(4);
  o.progress = [&seen](double f) { seen.push_back(f); };
  REQUIRE(sim::simulate(p, o).ok());
  CHECK(seen == std::vector<double>{0.25, 0.5, 0.75});

  seen.clear();
  sim::Options fixed;
  fixed.reps = 1000;
  fixed.progress = [&seen](double f) { seen.push_back(f); };
  REQUIRE(sim::simulate(p, fixed).ok());
  CHECK(seen.empty());
}
