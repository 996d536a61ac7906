// The simulator's progress callback (Options::progress): the pages' progress
// bar. At most about 100 calls a run, rising fractions of the replications
// done, none without randomness, and the same results with it as without
// and whichever threads ran the replications.
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

TEST_CASE("sim progress: after every hundredth of the replications, rising, up to 1") {
  const auto p = make({1, 2, 3}, {0.5, 0.2});
  std::vector<double> seen;
  sim::Options o = random_options(1000);
  o.progress = [&seen](double f) { seen.push_back(f); };
  auto with = sim::simulate(p, o);
  REQUIRE(with.ok());
  // Batches of 10 replications after replication 0, all on the caller's
  // thread when there is a callback: 11, 21, ..., 991 and 1000 done.
  REQUIRE(seen.size() == 100);
  CHECK(seen.front() == 0.011);
  CHECK(seen[98] == 0.991);
  CHECK(seen.back() == 1);
  for (std::size_t k = 1; k < seen.size(); ++k) CHECK(seen[k] > seen[k - 1]);

  auto without = sim::simulate(p, random_options(1000));
  REQUIRE(without.ok());
  CHECK(with.value().makespan.mean == without.value().makespan.mean);
  CHECK(with.value().makespan.p99 == without.value().makespan.p99);
}

// The replications may run on several threads; each draws from its own
// streams, so the makespans are those of run_replication, one by one.
TEST_CASE("sim progress: threads change no bit of the replications") {
  const auto p = make({1, 2, 3}, {0.5, 0.2});
  const sim::Options o = random_options(1000);
  auto r = sim::simulate(p, o);
  REQUIRE(r.ok());
  double sum = 0, low = 1e300, high = 0;
  for (std::uint64_t rep = 0; rep < 1000; ++rep) {
    const double t = sim::run_replication(p, o, rep, false).makespan;
    sum += t;
    low = t < low ? t : low;
    high = t > high ? t : high;
  }
  CHECK(r.value().makespan.mean == sum / 1000);
  CHECK(r.value().makespan.min == low);
  CHECK(r.value().makespan.max == high);
}

TEST_CASE("sim progress: a few replications call it after each; deterministic runs never") {
  const auto p = make({1, 2, 3}, {});
  std::vector<double> seen;
  sim::Options o = random_options(4);
  o.progress = [&seen](double f) { seen.push_back(f); };
  REQUIRE(sim::simulate(p, o).ok());
  CHECK(seen == std::vector<double>{0.5, 0.75, 1});  // one thread below 100

  seen.clear();
  sim::Options fixed;
  fixed.reps = 1000;
  fixed.progress = [&seen](double f) { seen.push_back(f); };
  REQUIRE(sim::simulate(p, fixed).ok());
  CHECK(seen.empty());
}
