#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "heteropipe/sim/input.hpp"
#include "heteropipe/sim/random.hpp"

// One stage's or one link's service time: a distribution of a given mean,
// ready to draw (its constants worked out once).
namespace heteropipe::sim::detail {

class Sampler {
 public:
  static Sampler fixed(double value);
  static Sampler of(const Distribution& dist, double mean);
  // values and probabilities (empty: evenly spaced, or samples) must outlive
  // the sampler.
  static Sampler from(const Empirical& measured, double tau, const std::vector<double>& probabilities,
                      std::shared_ptr<const std::vector<std::uint32_t>> guide = nullptr);
  // For probabilities p (n of them), the n + 1 positions upper_bound(p, b / n),
  // b = 0..n, so that a draw searches only about one bucket of them: with a
  // million probabilities a search of the whole list missed the cache about
  // 20 times a draw (ten times another draw's cost).
  static std::shared_ptr<const std::vector<std::uint32_t>> guide_for(const std::vector<double>& probabilities);

  double draw(Stream& stream) const;
  // n draws in a row into out: the same values as n calls of draw, in a loop
  // that tests the kind once.
  void fill(Stream& stream, double* out, std::int64_t n) const;
  double mean() const { return mean_; }
  bool random() const { return kind_ != Kind::fixed; }

 private:
  enum class Kind { fixed, exponential, lognormal, gamma, uniform, samples, quantiles, quantiles_at };
  double gamma_draw(Stream& stream) const;

  Kind kind_ = Kind::fixed;
  double mean_ = 0;
  double a_ = 0, b_ = 0, c_ = 0;  // the kind's constants (see sampler.cpp)
  double scale_ = 1;
  const std::vector<double>* values_ = nullptr;
  const std::vector<double>* probabilities_ = nullptr;  // quantiles_at's
  std::shared_ptr<const std::vector<std::uint32_t>> guide_;  // quantiles_at's, from guide_for
};

}  // namespace heteropipe::sim::detail
