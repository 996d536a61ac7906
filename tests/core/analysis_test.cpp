// analyze(): every field, the T_real reconciliation, the field list.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "support.hpp"
#include "heteropipe/limits.hpp"

using namespace heteropipe;
using doctest::Approx;

namespace {

Analysis run(AnalysisRequest request) { return analyze(request).value(); }

struct FieldNames {
  std::vector<std::string> names;
  template <class Value>
  void operator()(std::string_view name, const Value&) {
    names.emplace_back(name);
  }
};

}  // namespace

TEST_CASE("analyze returns every quantity of the reference README example") {
  const Analysis a = run({{0.5, 1, 1, 5}, {0.2, 0.1, 0.3}, 16, 0.8, std::nullopt});
  CHECK(a.S == 4);
  CHECK(a.M == 16);
  CHECK(a.tau_max == 5);
  CHECK(a.sigma_max == 5);
  CHECK(a.T_free == 82.5);
  CHECK(a.T_async == Approx(83.1));
  CHECK(a.T_block == Approx(83.1));
  CHECK(a.T_gpipe == 95);
  CHECK(a.homogeneity_bias == 12.5);
  CHECK(a.full_bias == Approx(11.9));
  CHECK_FALSE(a.phase_transition);
  CHECK(a.overlap_gap == 0);
  CHECK(a.effective_slope == 5);
  CHECK(a.asymptotic_throughput_async == 0.2);
  CHECK(a.asymptotic_throughput_blocking == 0.2);
  CHECK(a.crossover_batches == Approx(2.62));
  CHECK(a.rho == 0.8);
  CHECK(a.T_rho == a.T_block);  // no headroom: every rho predicts T_block == T_async
  CHECK(a.bottleneck_stage == 3);
  CHECK(a.gpipe_overestimate == Approx((95 - 83.1) / 83.1));
  CHECK(a.tau() == std::vector<double>{0.5, 1, 1, 5});
  CHECK(a.d() == std::vector<double>{0.2, 0.1, 0.3});
  CHECK(a.sigma() == std::vector<double>{0.7, 1.1, 1.3, 5});
  CHECK(a.link_slack() == std::vector<double>{4.5, 4, 4});
  CHECK(a.link_margin()[0] == Approx(4.3));
  CHECK_FALSE(a.overlap_headroom);
  CHECK_FALSE(a.T_real.has_value());
}

TEST_CASE("T_real inside the sandwich gives the overlap ratio") {
  // Configuration 8: T_async = 12.3 + 15 * 5 = 87.3, T_block = 12.3 + 15 * 5.1 = 88.8.
  const Analysis a = run({{0.5, 1, 1, 5}, {4.6, 0.1, 0.1}, 16, 1, 88.0});
  CHECK(a.overlap_headroom);
  REQUIRE(a.overlap_ratio.has_value());
  CHECK(*a.overlap_ratio == Approx((88.8 - 88.0) / 1.5));
  CHECK(a.T_real_position == SandwichPosition::inside);
}

TEST_CASE("T_real outside the sandwich is placed and still gets a ratio") {
  const AnalysisRequest base{{0.5, 1, 1, 5}, {4.6, 0.1, 0.1}, 16, 1, std::nullopt};
  AnalysisRequest below = base, above = base;
  below.T_real = 80.0;
  above.T_real = 95.0;
  CHECK(run(below).T_real_position == SandwichPosition::below_async);
  CHECK(*run(below).overlap_ratio > 1);
  CHECK(run(above).T_real_position == SandwichPosition::above_block);
  CHECK(*run(above).overlap_ratio < 0);
}

TEST_CASE("without overlap headroom there is no ratio, only a position") {
  const Analysis a = run({{0.5, 1, 1, 5}, {0.2, 0.1, 0.3}, 16, 1, 83.1});
  CHECK_FALSE(a.overlap_headroom);
  CHECK_FALSE(a.overlap_ratio.has_value());
  CHECK(a.T_real_position == SandwichPosition::inside);
  CHECK_FALSE(overlap_ratio(heteropipe::testing::make({1, 2}, {0.5}), 1, 3.0).has_value());  // M = 1
}

TEST_CASE("the makespan predicted at rho runs from T_block at rho = 0 to T_async at rho = 1") {
  // Configuration 8 at M = 16: T_async = 87.3, T_block = 88.8, gap = 1.5.
  for (const double rho : {0.0, 0.25, 0.5, 1.0}) {
    const Analysis a = run({{0.5, 1, 1, 5}, {4.6, 0.1, 0.1}, 16, rho, std::nullopt});
    CHECK(a.T_rho == (rho >= 0.5 ? a.T_async + (1 - rho) * a.overlap_gap : a.T_block - rho * a.overlap_gap));
    CHECK(a.T_rho >= a.T_async);
    CHECK(a.T_rho <= a.T_block);
    CHECK(a.T_rho == Approx(87.3 + (1 - rho) * 1.5));
  }
  const Analysis one = run({{0.5, 1, 1, 5}, {4.6, 0.1, 0.1}, 16, 1, std::nullopt});
  CHECK(one.T_rho == one.T_async);
  // A measured run at the predicted makespan has the measured overlap rho.
  const Analysis back = run({{0.5, 1, 1, 5}, {4.6, 0.1, 0.1}, 16, 0.5, 88.05});
  CHECK(*back.overlap_ratio == Approx(0.5));
  CHECK(back.T_rho == Approx(88.05));
}

TEST_CASE("the makespan predicted at rho keeps its ends and the sandwich when T_block dwarfs T_async") {
  // T_async = 1,000,000,003,000,001 and T_block about 1e21: the gap carries
  // T_block's rounding unit (131,072), so T_block - 1 * gap gave
  // 1,000,000,002,981,888, below T_async.
  for (const double rho : {1.0, 1 - 0x1p-53, 0.75, 0.5, 0.5 - 0x1p-54, 1e-300, 0.0}) {
    CAPTURE(rho);
    const Analysis a = run({{1, 3}, {1e15}, 1e6, rho, std::nullopt});
    CHECK(a.T_async == 1000000003000001.0);
    CHECK(a.T_rho >= a.T_async);
    CHECK(a.T_rho <= a.T_block);
    if (rho == 1) CHECK(a.T_rho == a.T_async);
    if (rho == 0) CHECK(a.T_rho == a.T_block);
  }
  // Near rho = 1, within T_async's scale of the exact value.
  const Analysis near = run({{1, 3}, {1e15}, 1e6, 1 - 0x1p-40, std::nullopt});
  const double exact = 1000000003000001.0 + 0x1p-40 * (1.0000000000000009e+21 - 1000000003000001.0);
  CHECK(std::fabs(near.T_rho - exact) <= 1);
}

TEST_CASE("visit_fields names every field once, in the documented order") {
  FieldNames visitor;
  visit_fields(run({{0.5, 1, 1, 5}, {4.6, 0.1, 0.1}, 16, 1, 88.0}), visitor);
  const std::vector<std::string> expected = {
      "S", "M", "tau", "d", "tau_max", "sigma_max", "T_free", "T_async", "T_block", "T_gpipe",
      "homogeneity_bias", "full_bias", "phase_transition", "overlap_gap", "effective_slope",
      "asymptotic_throughput_async", "asymptotic_throughput_blocking", "crossover_batches", "rho", "T_rho",
      "bottleneck_stage", "blocking_bottleneck_stage", "gpipe_overestimate", "sigma", "link_slack",
      "link_margin", "overlap_headroom", "T_real", "overlap_ratio", "T_real_position"};
  CHECK(visitor.names == expected);
}

TEST_CASE("curves: the batches cover 1, M and the crossover, and the values are the closed forms") {
  const Pipeline p = heteropipe::testing::make({0.5, 1, 1, 5});
  const std::vector<double> batches = curve_batches(p, 40, 25);
  CHECK(batches.front() == 1);
  CHECK(batches.back() == 40);
  CHECK(std::is_sorted(batches.begin(), batches.end()));
  CHECK(std::count(batches.begin(), batches.end(), 3.0) == 1);  // ceil(M*) = ceil(2.5)
  CHECK(batches.size() <= 27);
  const Curve c = makespan_curve(p, batches);
  for (std::size_t i = 0; i < batches.size(); ++i) {
    CHECK(c.T_async[i] == makespan_async(p, batches[i]));
    CHECK(c.T_gpipe[i] - c.T_free[i] == Approx(12.5));
  }
  // A small M still plots past the crossover.
  CHECK(curve_batches(p, 1, 100).back() == 6);
  // At most max(points, 4) values: 1, the last, M and ceil(M*) are always there.
  for (double M : {1.0, 2.0, 3.0, 7.0, 40.0, 1e6}) {
    for (std::int64_t points = limits::kMinCurvePoints; points <= 12; ++points) {
      const std::vector<double> b = curve_batches(p, M, points);
      CHECK(b.size() <= static_cast<std::size_t>(std::max<std::int64_t>(points, 4)));
      CHECK(std::count(b.begin(), b.end(), M) == 1);
      CHECK(std::count(b.begin(), b.end(), 1.0) == 1);
      CHECK(std::count(b.begin(), b.end(), 3.0) == 1);
    }
  }
}

TEST_CASE("visit_fields can leave the per-stage lists out") {
  FieldNames all, scalars;
  const Analysis a = run({{0.5, 1, 1, 5}, {4.6, 0.1, 0.1}, 16, 1, std::nullopt});
  visit_fields(a, all);
  visit_fields(a, scalars, Lists::omit);
  CHECK(all.names.size() == scalars.names.size() + 5);
  for (const char* list : {"tau", "d", "sigma", "link_slack", "link_margin"}) {
    CHECK(std::count(scalars.names.begin(), scalars.names.end(), list) == 0);
  }
  CHECK(scalars.names.front() == "S");
  CHECK(scalars.names.back() == "overlap_headroom");
}
