#pragma once

#include <cstdint>
#include <optional>
#include <vector>

// The one pass that validates and summarizes a pipeline's stages (see
// Pipeline::create), apart from the Pipeline it feeds.
namespace heteropipe {

// Running sums and maxima over the stages seen so far. The slack sum
// (tau_max - tau[s] over s) is kept against the running maximum: when a new
// maximum arrives, each earlier stage's slack grows by the difference. So
// Corollary 1's sum needs no second pass, and identical stages give exactly 0.
struct StageStats {
  double sum_tau = 0, sum_d = 0, sum_slack = 0, tau_max = 0, sigma_max = 0;
  std::int64_t bottleneck = 0, blocking_bottleneck = 0;

  void add(std::int64_t s, double tau, double link) {
    sum_tau += tau;
    sum_d += link;
    if (tau > tau_max) {
      sum_slack += static_cast<double>(s) * (tau - tau_max);
      tau_max = tau;
      bottleneck = s;
    } else {
      sum_slack += tau_max - tau;
    }
    const double sigma = tau + link;
    if (sigma > sigma_max) {
      sigma_max = sigma;
      blocking_bottleneck = s;
    }
  }
};

struct StageScan {
  StageStats stats;          // bit-identical to StageStats::add over every stage in order
  bool negative_zero = false;  // some tau or d is -0
};

// tau has S >= 1 values and d exactly S-1. nullopt when some value is NaN,
// negative or above limits::kMaxValue (the caller then looks for the first).
std::optional<StageScan> scan_stages(const std::vector<double>& tau, const std::vector<double>& d);

}  // namespace heteropipe
