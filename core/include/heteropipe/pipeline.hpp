#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "heteropipe/error.hpp"

namespace heteropipe {

// A validated chain of S stages: service times tau (S values) and link
// latencies d (S-1 values, zero when none were given). The sums and maxima
// every formula needs are computed once, here.
class Pipeline {
 public:
  // tau: 1..limits::kMaxStages values, each finite, >= 0 and <= kMaxValue,
  // at least one >= limits::kMinStageTime. d: empty, or exactly S-1 values, each finite, >= 0 and
  // <= kMaxValue.
  // A subnormal value (5e-324) is too_small (limit kMinNormalNumber) at its
  // item, tau's before d's, as the same number typed as text is: the one
  // check of every front end's list.
  static Result<Pipeline> create(std::vector<double> tau, std::vector<double> d = {});
  // The same checks for times the core computed (the planner's sums of layer
  // times, a trace's measured spans), where a subnormal is a value, not a
  // number a caller passed: it is kept, as any value below kMinStageTime is.
  static Result<Pipeline> of_computed_times(std::vector<double> tau, std::vector<double> d = {});

  std::int64_t S() const { return static_cast<std::int64_t>(tau_.size()); }
  const std::vector<double>& tau() const { return tau_; }
  const std::vector<double>& d() const { return d_; }
  // Blocking service time: sigma[s] = tau[s] + d[s] for s < S-1, and
  // sigma[S-1] = tau[S-1]. Computed on demand, so that a pipeline of a
  // million stages costs no array beyond its inputs. A sum that exceeds
  // tau_max by no more than tie_tolerance() is tau_max (see tie_tolerance).
  double sigma(std::int64_t s) const { return tied(s + 1 < S() ? tau_[s] + d_[s] : tau_[s], tau_max_, tie_); }
  std::vector<double> sigma() const;
  // Hands tau and d back, so that a caller can reuse their storage for the
  // next input (zeroing fresh arrays for a million stages costs a large
  // part of what analyzing them does).
  std::pair<std::vector<double>, std::vector<double>> release() &&;

  double tau_max() const { return tau_max_; }
  // The tie rule: two stage times (tau, d, sigma and their differences) that
  // differ by at most kTieUlps units in the last place of tau_max are equal.
  // Decimal inputs that are equal as typed (0.1 + 0.2 against 0.3) then agree
  // on every flag: the phase transition, each link's margin, sigma_max
  // against tau_max, the overlap headroom and the sign of the full bias.
  static constexpr double kTieUlps = 4;
  double tie_tolerance() const { return tie_; }
  // The rule for any largest stage time: the tolerance kTieUlps units in its
  // last place, and a sum (a sigma) that exceeds it by no more than that is
  // it. sigma() applies it; so does the simulator to fixed times.
  static double tie_tolerance_of(double tau_max);
  static double tied(double sum, double tau_max, double tie) {
    return sum > tau_max && sum - tau_max <= tie ? tau_max : sum;
  }
  double sigma_max() const { return sigma_max_; }
  // First index of the largest tau / sigma.
  std::int64_t bottleneck_stage() const { return bottleneck_; }
  std::int64_t blocking_bottleneck_stage() const { return blocking_bottleneck_; }
  double sum_tau() const { return sum_tau_; }
  double sum_d() const { return sum_d_; }
  // tau[s] + d[s] summed over all stages: the fill cost every makespan pays.
  double sum_tau_d() const { return sum_tau_ + sum_d_; }
  // Sum over s of (tau_max - tau[s]): Corollary 1's bias.
  double sum_slack() const { return sum_slack_; }

 private:
  Pipeline() = default;

  std::vector<double> tau_, d_;
  double tau_max_ = 0, sigma_max_ = 0, tie_ = 0;
  std::int64_t bottleneck_ = 0, blocking_bottleneck_ = 0;
  double sum_tau_ = 0, sum_d_ = 0, sum_slack_ = 0;
};

// Scalar checks, each returning the error for a bad value.
// M: an integer in [1, 2^53]. rho: in [0, 1]. T_real: finite, > 0, <= kMaxValue.
std::optional<Error> check_batches(double M);
std::optional<Error> check_rho(double rho);
std::optional<Error> check_T_real(double T_real);

}  // namespace heteropipe
