#include "sampler.hpp"

#include <algorithm>
#include <cmath>

#include "heteropipe/limits.hpp"
#include "heteropipe/sim/elementary.hpp"

namespace heteropipe::sim::detail {

Sampler Sampler::fixed(double value) {
  Sampler s;
  s.mean_ = value;
  return s;
}

Sampler Sampler::of(const Distribution& dist, double mean) {
  Sampler s = fixed(mean);
  const double cv = dist.param;
  // A spread or CV below kMinCv (0 included), or a mean of 0, leaves nothing
  // to draw: every draw is the mean.
  if (mean == 0 || (dist.kind != DistributionKind::exponential && cv < limits::kMinCv)) return s;
  switch (dist.kind) {
    case DistributionKind::deterministic:
      break;
    case DistributionKind::exponential:
      s.kind_ = Kind::exponential;
      break;
    case DistributionKind::lognormal:
      // mean x exp(sigma Z - sigma^2 / 2) with sigma^2 = log(1 + cv^2) has
      // this mean and this CV.
      s.kind_ = Kind::lognormal;
      s.b_ = portable_log(1 + cv * cv);
      s.a_ = std::sqrt(s.b_);
      s.b_ = s.b_ / 2;
      break;
    case DistributionKind::gamma: {
      // Shape k = 1/cv^2 and scale mean x cv^2. Marsaglia and Tsang's
      // method needs a shape >= 1: below it, draw shape k + 1 and multiply by
      // U^(1/k).
      s.kind_ = Kind::gamma;
      const double k = 1 / (cv * cv);
      const double shape = k < 1 ? k + 1 : k;
      s.a_ = shape - 1.0 / 3;               // d
      s.b_ = 1 / std::sqrt(9 * s.a_);       // c
      s.c_ = k < 1 ? 1 / k : 0;             // the boost's exponent, or none
      s.scale_ = mean / k;
      break;
    }
    case DistributionKind::uniform:
      s.kind_ = Kind::uniform;
      s.a_ = cv;
      break;
  }
  return s;
}

std::shared_ptr<const std::vector<std::uint32_t>> Sampler::guide_for(const std::vector<double>& p) {
  auto guide = std::make_shared<std::vector<std::uint32_t>>();
  const auto n = static_cast<double>(p.size());
  std::size_t at = 0;
  for (std::size_t b = 0; b <= p.size(); ++b) {
    const double edge = static_cast<double>(b) / n;
    while (at < p.size() && p[at] <= edge) ++at;
    guide->push_back(static_cast<std::uint32_t>(at));
  }
  return guide;
}

Sampler Sampler::from(const Empirical& measured, double tau, const std::vector<double>& probabilities,
                      std::shared_ptr<const std::vector<std::uint32_t>> guide) {
  const std::vector<double>& v = measured.values;
  const std::size_t n = v.size();
  double mean = 0;
  if (!probabilities.empty()) {
    // The quantile function's integral over [0, 1]: flat at the first value
    // up to the first probability, the trapezoids between, flat at the last.
    const std::vector<double>& p = probabilities;
    mean = p[0] * v[0];
    for (std::size_t i = 0; i + 1 < n; ++i) mean += (p[i + 1] - p[i]) * ((v[i] + v[i + 1]) / 2);
    mean += (1 - p[n - 1]) * v[n - 1];
  } else if (measured.quantiles && n > 1) {
    // The mean of the piecewise-linear quantile function: the trapezoids' average.
    for (std::size_t i = 0; i + 1 < n; ++i) mean += (v[i] + v[i + 1]) / 2;
    mean /= static_cast<double>(n - 1);
  } else {
    for (double x : v) mean += x;
    mean /= static_cast<double>(n);
  }
  Sampler s;
  s.kind_ = !probabilities.empty() ? Kind::quantiles_at : measured.quantiles ? Kind::quantiles : Kind::samples;
  s.values_ = &v;
  s.probabilities_ = &probabilities;
  s.guide_ = std::move(guide);
  s.a_ = measured.scaled ? tau / mean : 1;
  s.mean_ = measured.scaled ? tau : mean;
  return s;
}

double Sampler::gamma_draw(Stream& stream) const {
  const double d = a_, c = b_;
  double x = 0, v = 0;
  for (;;) {
    do {
      x = stream.normal();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = stream.uniform();
    if (u < 1 - 0.0331 * (x * x) * (x * x)) break;
    if (portable_log(u) < 0.5 * x * x + d * (1 - v + portable_log(v))) break;
  }
  double g = d * v;
  if (c_ != 0) g = g * portable_exp(portable_log(stream.uniform()) * c_);
  return g;
}

double Sampler::draw(Stream& stream) const {
  switch (kind_) {
    case Kind::fixed:
      return mean_;
    case Kind::exponential:
      return -mean_ * portable_log(stream.uniform());
    case Kind::lognormal:
      return mean_ * portable_exp(a_ * stream.normal() - b_);
    case Kind::gamma:
      // A gamma of shape k has mean k, so mean / k (= mean x cv^2) scales it.
      return gamma_draw(stream) * scale_;
    case Kind::uniform:
      return mean_ * (1 + a_ * (2 * stream.uniform() - 1));
    case Kind::samples: {
      const auto n = static_cast<double>(values_->size());
      const auto i = static_cast<std::size_t>(stream.uniform() * n);
      return (*values_)[i < values_->size() ? i : values_->size() - 1] * a_;
    }
    case Kind::quantiles: {
      const std::vector<double>& q = *values_;
      if (q.size() == 1) return q[0] * a_;
      const double position = stream.uniform() * static_cast<double>(q.size() - 1);
      const auto i = static_cast<std::size_t>(position);
      if (i + 1 >= q.size()) return q.back() * a_;
      const double f = position - static_cast<double>(i);
      return (q[i] + f * (q[i + 1] - q[i])) * a_;
    }
    case Kind::quantiles_at: {
      const std::vector<double>& q = *values_;
      const std::vector<double>& p = *probabilities_;
      const double u = stream.uniform();
      // The first probability above u: u lies in [p[i], p[i + 1]). It lies
      // between the guide's positions at u's bucket's edges; a bucket to each
      // side more absorbs any rounding of u x n, so the answer is the whole
      // list's upper bound, found in a few steps.
      auto low = p.begin();
      auto high = p.end();
      if (guide_) {
        const std::vector<std::uint32_t>& g = *guide_;
        const auto buckets = static_cast<std::int64_t>(p.size());
        const auto b = static_cast<std::int64_t>(u * static_cast<double>(buckets));
        low = p.begin() + g[static_cast<std::size_t>(std::max<std::int64_t>(b - 1, 0))];
        high = p.begin() + g[static_cast<std::size_t>(std::min<std::int64_t>(b + 2, buckets))];
      }
      const auto above = static_cast<std::size_t>(std::upper_bound(low, high, u) - p.begin());
      if (above == 0) return q[0] * a_;
      if (above == p.size()) return q.back() * a_;
      const std::size_t i = above - 1;
      const double f = (u - p[i]) / (p[i + 1] - p[i]);
      return (q[i] + f * (q[i + 1] - q[i])) * a_;
    }
  }
  return mean_;
}

void Sampler::fill(Stream& stream, double* out, std::int64_t n) const {
  switch (kind_) {
    case Kind::fixed:
      for (std::int64_t i = 0; i < n; ++i) out[i] = mean_;
      return;
    case Kind::lognormal:
      // The normals first, in a loop of their own that keeps the generator in
      // registers, then the exponentials, independent of one another.
      stream.normals(out, n);
      for (std::int64_t i = 0; i < n; ++i) out[i] = mean_ * portable_exp(a_ * out[i] - b_);
      return;
    default:
      for (std::int64_t i = 0; i < n; ++i) out[i] = draw(stream);
      return;
  }
}

}  // namespace heteropipe::sim::detail
