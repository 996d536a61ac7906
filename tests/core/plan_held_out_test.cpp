// The estimator against published llama.cpp runs it was not fitted on
// (tests/core/held_out_rows.hpp; docs/planner.md#held-out-validation), and
// the multi-device cost against the fit set's multi-GPU rows.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <heteropipe/plan/report.hpp>

#include "held_out_rows.hpp"
#include "published_rows.hpp"

using namespace heteropipe;

namespace {

// Single-stream decode as the rows ran it: context 512, every layer on the GPUs, default links.
double estimated(const char* model, const char* quant, const char* gpu, int count) {
  return tokens_per_second(make_plan(estimate(on(model, quant, gpu, count)).value()).value(), 1);
}

// A held-out row's source, by its short name.
const HeldOutSource& source_of(const HeldOutRow& row) {
  const auto s = std::find_if(kHeldOutSources.begin(), kHeldOutSources.end(),
                              [&](const HeldOutSource& x) { return std::strcmp(x.name, row.source) == 0; });
  REQUIRE(s != kHeldOutSources.end());
  return *s;
}

// A held-out row's estimate by the fit set's rule (fit_estimate): as its
// build ran, so a CUDA build before CUDA graphs, a fact its source states,
// pays kPreGraphLayerCost on every layer, as the fit set's rows of that era do.
double as_it_ran(const HeldOutRow& row) {
  return fit_estimate(row.model, row.quant, row.gpu, row.count, source_of(row).cuda_graphs);
}

// The p-quantile of sorted values, interpolated between neighbours.
double quantile(const std::vector<double>& sorted, double p) {
  const double x = p * static_cast<double>(sorted.size() - 1);
  const auto i = static_cast<std::size_t>(x);
  const std::size_t j = std::min(i + 1, sorted.size() - 1);
  return sorted[i] + (sorted[j] - sorted[i]) * (x - static_cast<double>(i));
}

}  // namespace

TEST_CASE("held out: every row names a cited source, a catalog model and GPU, and the sources are not the fit set's") {
  CHECK(kHeldOutRows.size() == 41);
  for (const HeldOutRow& row : kHeldOutRows) {
    INFO((std::string(row.source) + " " + row.model + " " + row.gpu));
    CHECK(std::any_of(kHeldOutSources.begin(), kHeldOutSources.end(),
                      [&](const HeldOutSource& s) { return std::strcmp(s.name, row.source) == 0; }));
    CHECK(find_model(row.model));
    CHECK(find_quant(row.quant));
    CHECK(find_gpu(row.gpu, 0));
  }
  // No held-out source is one of the fit set's (tests/core/published_rows.hpp).
  for (const HeldOutSource& s : kHeldOutSources) {
    INFO(s.name);
    for (const FitSource& f : kFitSources) CHECK(std::strcmp(s.name, f.name) != 0);
    for (const char* fit_url : {"XiongjieDai", "llama.cpp/pull/6766", "llama.cpp/issues/6763", "discussions/15013"}) {
      CHECK(std::string(s.citation).find(fit_url) == std::string::npos);
    }
  }
}

namespace {

// The median of values.
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return quantile(v, 0.5);
}

// docs/planner.md#held-out-validation's tables, from this test's own
// numbers: HETEROPIPE_PRINT_HELD_OUT=1 prints them as markdown.
void print_tables(const std::vector<double>& estimates) {
  std::printf("| source | build | model | quant | GPUs | measured tokens/s | estimate | error |\n|---|---|---|---|---|---|---|---|\n");
  std::map<std::string, std::vector<double>> by_source, by_class, by_count;
  std::vector<std::string> source_order;
  for (std::size_t k = 0; k < kHeldOutRows.size(); ++k) {
    const HeldOutRow& row = kHeldOutRows[k];
    const char* era = source_of(row).era;
    const double error = estimates[k] / row.tokens_per_second - 1;
    const std::string gpus = row.count == 1 ? row.gpu : std::to_string(row.count) + " x " + row.gpu;
    std::printf("| %s | %s | %s | %s | %s | %.2f | %.1f | %+.0f %% |\n", row.source, era, row.model, row.quant,
                gpus.c_str(), row.tokens_per_second, estimates[k], 100 * error);
    if (by_source.find(row.source) == by_source.end()) source_order.push_back(row.source);
    by_source[row.source].push_back(std::fabs(error));
    by_class[std::string(device_class_name(find_gpu(row.gpu, 0).value().device_class))].push_back(std::fabs(error));
    by_count[row.count == 1 ? "1" : "more than 1"].push_back(std::fabs(error));
  }
  auto table = [](const char* head, const std::vector<std::string>& order,
                  std::map<std::string, std::vector<double>>& groups) {
    std::printf("\n| %s | rows | median \\|error\\| | worst \\|error\\| |\n|---|---|---|---|\n", head);
    for (const std::string& key : order) {
      const std::vector<double>& e = groups[key];
      std::printf("| %s | %zu | %.0f %% | %.0f %% |\n", key.c_str(), e.size(), 100 * median(e),
                  100 * *std::max_element(e.begin(), e.end()));
    }
  };
  table("source", source_order, by_source);
  std::vector<std::string> classes;
  for (const auto& [key, e] : by_class) classes.push_back(key);
  table("device class", classes, by_class);
  table("GPUs", {"1", "more than 1"}, by_count);
  std::vector<double> all;
  for (const auto& [key, e] : by_count) all.insert(all.end(), e.begin(), e.end());
  std::printf("\nAll %zu rows: median |error| %.1f %%, worst %.0f %%.\n", all.size(), 100 * median(all),
              100 * *std::max_element(all.begin(), all.end()));
  std::vector<double> ratios;
  for (std::size_t k = 0; k < kHeldOutRows.size(); ++k) ratios.push_back(kHeldOutRows[k].tokens_per_second / estimates[k]);
  std::sort(ratios.begin(), ratios.end());
  std::printf("Measured / estimated: 10th percentile %.6f, 90th %.6f.\n", quantile(ratios, 0.1), quantile(ratios, 0.9));
}

}  // namespace

// The contract of docs/planner.md#held-out-validation: the bounds the
// estimate reaches on runs it was not fitted on, as they are (of the goal,
// a median of 10 % and a worst of 20 %, the worst is not reached; the doc
// says why).
TEST_CASE("held out: median |error| under 9.5 % and worst under 95 % on 41 published runs from other sources") {
  std::vector<double> errors, ratios, estimates;
  for (const HeldOutRow& row : kHeldOutRows) {
    const double e = as_it_ran(row);
    INFO((std::string(row.source) + ": " + row.model + " " + row.quant + " on " + std::to_string(row.count) + " x " +
          row.gpu + ": measured " + std::to_string(row.tokens_per_second) + ", estimated " + std::to_string(e)));
    REQUIRE(std::isfinite(e));
    estimates.push_back(e);
    errors.push_back(std::fabs(e / row.tokens_per_second - 1));
    ratios.push_back(row.tokens_per_second / e);
  }
  if (std::getenv("HETEROPIPE_PRINT_HELD_OUT") != nullptr) print_tables(estimates);
  std::sort(errors.begin(), errors.end());
  std::sort(ratios.begin(), ratios.end());
  CHECK(quantile(errors, 0.5) < 0.095);
  CHECK(errors.back() < 0.95);
  // The band's derivation (kEstimateBandLow / kEstimateBandHigh): the 10th
  // and 90th percentiles of measured / estimated over these rows.
  CHECK(quantile(ratios, 0.1) == doctest::Approx(kEstimateBandLow).epsilon(0.002));
  CHECK(quantile(ratios, 0.9) == doctest::Approx(kEstimateBandHigh).epsilon(0.002));
  CHECK(kEstimateBandLow == 0.694);
  CHECK(kEstimateBandHigh == 1.139);
}

// The held-out layer splits (two and three P40s, two RTX 3090s in
// ik_llama.cpp, four RTX 4090s), as docs/planner.md#multi-device-cost
// tabulates them. What the estimate still misses is part of the P40s' loss
// against one GPU: in January 2024 two and three P40s lost 1.6 to 2.4 ms a
// hop, ten times the fit set's hop cost, which one constant for every card
// and link does not follow, so the estimate keeps one, two and three P40s
// within a few points of one another.
TEST_CASE("held out: the multi-GPU rows, median |error| under 10 % and worst under 13 %") {
  std::vector<double> errors;
  for (const HeldOutRow& row : kHeldOutRows) {
    if (row.count == 1) continue;
    errors.push_back(std::fabs(as_it_ran(row) / row.tokens_per_second - 1));
  }
  std::sort(errors.begin(), errors.end());
  CHECK(errors.size() == 6);
  CHECK(quantile(errors, 0.5) < 0.10);
  CHECK(errors.back() < 0.13);
  const double one = estimated("llama-2-7b", "Q4_0", "tesla-p40", 1);
  CHECK(estimated("llama-2-7b", "Q4_0", "tesla-p40", 2) / one > 0.98);
  CHECK(estimated("llama-2-7b", "Q4_0", "tesla-p40", 3) / one > 0.97);
}

// Issue 24: the boundary cost only the link's latency and transfer, so more
// GPUs came out flat (1, 2 and 3 P40s all at 63.9 tokens/s). Each hop now
// also pays kHopSync: the loss of n GPUs against one follows the fit set's
// rows to within 6 points, where it was up to 9 points (six RTX 3090s
// measured 0.905 of one, estimated 0.993 of one).
TEST_CASE("multi-device cost: more GPUs of a kind decode slower, as the fit set's multi-GPU rows do") {
  int compared = 0;
  for (const PublishedRow& many : kPublishedRows) {
    if (many.count == 1) continue;
    for (const PublishedRow& one : kPublishedRows) {
      if (one.count != 1 || std::strcmp(one.model, many.model) != 0 || std::strcmp(one.quant, many.quant) != 0 ||
          std::strcmp(one.gpu, many.gpu) != 0) {
        continue;
      }
      const double measured = many.tokens_per_second / one.tokens_per_second;
      // As the rows ran: builds before CUDA graphs (fit_estimate, tests/core/published_rows.hpp).
      const double ratio = fit_estimate(many.model, many.quant, many.gpu, many.count, false) /
                           fit_estimate(one.model, one.quant, one.gpu, 1, false);
      INFO((std::string(many.model) + " " + many.quant + " on " + std::to_string(many.count) + " x " + many.gpu +
            ": measured " + std::to_string(measured) + " of one GPU, estimated " + std::to_string(ratio)));
      CHECK(std::fabs(ratio - measured) <= 0.06);
      ++compared;
    }
  }
  CHECK(compared == 18);
  const double p40 = estimated("llama-2-7b", "Q4_0", "tesla-p40", 1);
  CHECK(estimated("llama-2-7b", "Q4_0", "tesla-p40", 2) < p40);
  CHECK(estimated("llama-2-7b", "Q4_0", "tesla-p40", 3) < estimated("llama-2-7b", "Q4_0", "tesla-p40", 2));
}

TEST_CASE("multi-device cost: each hop's delay is the link's latency, kHopSync and the activations over its bandwidth") {
  EstimateInput in;
  in.model = "llama-3-8b";
  in.quant = "Q4_K_M";
  in.devices = {DeviceChoice{"rtx-4090", {}, {}, {}, {}, {}, {}}, DeviceChoice{"rtx-3090", {}, {}, {}, {}, {}, {}}};
  in.links = {LinkChoice{"", 2e-5, 1e10}};
  const PlanInput plan = estimate(in).value();
  CHECK(plan.links[0].latency == 2e-5 + kHopSync);
  CHECK(plan.links[0].bandwidth == 1e10);
  const Plan made = make_plan(plan).value();
  // M = 1: a token crosses every stage and the one hop in turn.
  double stages = 0;
  for (const PlanStage& s : made.stages) stages += s.tau;
  CHECK(made.analysis.T_async == doctest::Approx(stages + 2e-5 + kHopSync + 4096.0 * 4 / 1e10).epsilon(1e-12));
}
