#include "search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

// The makespan of a split is fill + (M - 1) * bottleneck. Let g(t) be the
// least fill over splits whose bottleneck is at most t: a step function that
// never rises as t grows. A pass of the dynamic program at bound t returns
// g(t) and a split reaching it, whose bottleneck B <= t; g is constant on
// [B, t] (a plateau). Any split with bottleneck B' has fill >= g(B'), so the
// best makespan is the least g(B) + (M - 1) B over such pass results, and a
// region of bounds below a plateau of fill f can only beat the best value v
// where f + (M - 1) B < v. The search probes a few bounds to find a good v,
// then walks every gap between known plateaus down from the top of its live
// part; each probe there either closes the gap or opens a plateau below the
// previous one, so it ends, and nothing is skipped that could win.
namespace heteropipe::plan_detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Probes of the golden-section phase. It only finds a good incumbent
// quickly (the walk that follows is exact whatever it finds); more probes
// than this cost more than they save in the benchmarks.
constexpr int kSamples = 8;
// Steps walked down at M = 1 before bisecting (settle_flat): most chains need one or two.
constexpr int kWalkSteps = 8;

double below(double x) { return std::nextafter(x, -kInf); }

// A non-negative double's bits, which order as the doubles do, and back.
std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
double double_of(std::uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

double fastest(const Chain& chain, std::int64_t b) {
  double t = kInf;
  for (std::int64_t s = 0; s < chain.S; ++s) t = std::min(t, chain.time(s, b));
  return t;
}

// Where the doubling of least_bottleneck starts: at most the least
// bottleneck in exact arithmetic (some stage runs the layer with the largest
// fastest time, and some carries a 1/S share of their sum); it only sets how
// many passes the doubling takes.
double bottleneck_floor(const Chain& chain) {
  double total = 0, largest = 0;
  for (std::int64_t b = 0; b < chain.L; ++b) {
    total += fastest(chain, b);
    largest = std::max(largest, fastest(chain, b));
  }
  return std::max(largest, total / static_cast<double>(chain.S));
}

// No split's fill, as the program computes it, is below this: the layers'
// fastest times summed, less 2^-30 of that and of the largest prefix sum.
// The program's fill differs from the exact sum by at most 3 S rounding
// units of the largest partial value (a fill or a prefix sum), and
// 3 S 2^-53 is far below 2^-30 for S <= limits::kMaxPlanDevices.
double largest_prefix(const Chain& chain) {
  double largest = 0;
  for (std::int64_t s = 0; s < chain.S; ++s) largest = std::max(largest, chain.prefix[s * (chain.L + 1) + chain.L].hi);
  return largest;
}

double fill_floor(const Chain& chain) {
  double total = 0;
  for (std::int64_t b = 0; b < chain.L; ++b) total += fastest(chain, b);
  return total - (total + largest_prefix(chain)) * 0x1p-30;
}

// Above every stage cost: past it a bound is no bound.
double cost_ceiling(const Chain& chain) {
  double total = 0, delay = 0;
  for (std::int64_t b = 0; b < chain.L; ++b) {
    double slowest = 0;
    for (std::int64_t s = 0; s < chain.S; ++s) {
      slowest = std::max(slowest, chain.time(s, b));
      if (std::isfinite(chain.link_delay(s, b))) delay = std::max(delay, chain.link_delay(s, b));
    }
    total += slowest;
  }
  return 2 * (total + delay);
}

// An x with fill + slope * x > best in floating point (slope > 0), within a
// few units in the last place of the least such x: since both operations are
// monotone, no split with fill >= `fill` and bottleneck >= x reaches `best`.
double cutoff(double fill, double slope, double best) {
  const double x = (best - fill) / slope;
  for (double margin = std::abs(x) * 0x1p-52 + 0x1p-1074;; margin *= 2) {
    if (fill + slope * (x + margin) > best) return x + margin;
  }
}

class Search {
 public:
  Search(const Chain& chain, double M, double least) : chain_(chain), slope_(M - 1), least_(least) {}

  // The pass at `bound` (>= the least bottleneck, so never empty): records
  // its plateau and keeps its split if it beats the best, or ties it with a
  // smaller bottleneck.
  void probe(double bound) {
    Split split = *best_split(chain_, Fold::fill, bound);
    if (plateaus_.empty()) first_ = split.bounds;
    const double bottleneck = bottleneck_of(chain_, split.bounds);
    const double value = split.value + slope_ * bottleneck;
    if (value < best_value_ || (value == best_value_ && bottleneck < best_bottleneck_)) {
      best_value_ = value;
      best_bottleneck_ = bottleneck;
      best_ = std::move(split.bounds);
    }
    plateaus_.push_back({bottleneck, bound, split.value});
  }

  const Bounds& best() const { return best_; }
  const Bounds& first() const { return first_; }

  // Golden-section search for a good incumbent over [least, top].
  void sample(double top) {
    if (slope_ == 0 || !(top > least_)) return;
    constexpr double r = 0.6180339887498949;
    double lo = least_, hi = top;
    double x1 = hi - r * (hi - lo), x2 = lo + r * (hi - lo);
    double f1 = value_at(x1), f2 = value_at(x2);
    for (int i = 2; i < kSamples; ++i) {
      if (f1 <= f2) {
        hi = x2, x2 = x1, f2 = f1, x1 = hi - r * (hi - lo);
        f1 = value_at(x1);
      } else {
        lo = x1, x1 = x2, f1 = f2, x2 = lo + r * (hi - lo);
        f2 = value_at(x2);
      }
    }
  }

  // At M = 1 the value is the fill alone: the least fill v is g at no bound,
  // and the answer the least bottleneck whose g is v. Most chains settle a
  // step or two down from that pass's bottleneck (a bound just below it has
  // more fill), so a few steps are walked first; past them, since g never
  // rises, the rest is bisected between the least bottleneck and the
  // least bottleneck of fill v found so far, over the doubles' bit patterns
  // (monotone for non-negative doubles): at most 64 more passes. Walking
  // every plateau took one pass each, thousands where every split ties
  // (identical devices).
  void settle_flat() {
    probe(kInf);
    if (plateaus_.front().fill == best_value_) return;  // the least bottleneck's split has the least fill
    double lo = least_ + 0.0, hi = best_bottleneck_;  // g(lo) > v = g(hi); + 0.0: -0 is 0, whose bits are least
    for (int step = 0;; ++step) {
      const std::uint64_t a = bits_of(lo), b = bits_of(hi);
      if (b - a < 2) return;  // no double between: hi is the least bottleneck of fill v
      const double bound = step < kWalkSteps ? below(hi) : double_of(a + (b - a) / 2);
      probe(bound);
      if (plateaus_.back().fill == best_value_) {
        hi = std::min(hi, plateaus_.back().bottom);
      } else if (step < kWalkSteps) {
        return;  // just below hi the fill is more: hi is the least
      } else {
        lo = bound;
      }
    }
  }

  // Every gap between known plateaus, most promising first, walked down.
  void close_gaps(double floor) {
    for (const Gap& gap : gaps(floor)) {
      double top = live_below(gap.hi_bottom, gap.fill);
      while (top > gap.lo_top) {
        probe(top);
        const Plateau& found = plateaus_.back();
        if (found.bottom <= gap.lo_top) break;
        top = live_below(found.bottom, found.fill);
      }
    }
  }

  double live_below(double bottom, double fill) const {
    if (slope_ == 0) return fill > best_value_ ? -kInf : below(bottom);
    return std::min(below(bottom), below(cutoff(fill, slope_, best_value_)));
  }

 private:
  struct Plateau {
    double bottom, top, fill;  // g == fill on [bottom, top]
  };
  // Bounds in (lo_top, hi_bottom): splits there have fill >= `fill`.
  struct Gap {
    double lo_top, hi_bottom, fill;
  };

  double value_at(double bound) {
    probe(bound);
    return plateaus_.back().fill + slope_ * plateaus_.back().bottom;
  }

  std::vector<Gap> gaps(double floor) const {
    std::vector<Plateau> sorted = plateaus_;
    std::sort(sorted.begin(), sorted.end(), [](const Plateau& a, const Plateau& b) { return a.bottom < b.bottom; });
    std::vector<Plateau> merged;  // overlapping plateaus share their fill
    for (const Plateau& p : sorted) {
      if (!merged.empty() && p.bottom <= merged.back().top) {
        merged.back().top = std::max(merged.back().top, p.top);
      } else {
        merged.push_back(p);
      }
    }
    std::vector<Gap> gaps;
    for (std::size_t i = 0; i < merged.size(); ++i) {
      const bool last = i + 1 == merged.size();
      gaps.push_back({merged[i].top, last ? kInf : merged[i + 1].bottom, last ? floor : merged[i + 1].fill});
    }
    const double slope = slope_;
    std::sort(gaps.begin(), gaps.end(), [slope](const Gap& a, const Gap& b) {
      return a.fill + slope * a.lo_top < b.fill + slope * b.lo_top;
    });
    return gaps;
  }

  const Chain& chain_;
  double slope_, least_;
  double best_value_ = kInf, best_bottleneck_ = kInf;
  Bounds best_, first_;
  std::vector<Plateau> plateaus_;
};

}  // namespace

std::optional<double> least_bottleneck(const Chain& chain) {
  const double ceiling = cost_ceiling(chain);
  // Doubling: a pass only grows stages up to its bound, so passes below the
  // answer are cheap, and the last bound is under twice the answer.
  for (double bound = bottleneck_floor(chain);; bound *= 2) {
    if (!(bound < ceiling)) bound = kInf;
    if (auto split = best_split(chain, Fold::bottleneck, bound)) return split->value;
    if (bound == kInf) return std::nullopt;
  }
}

std::optional<Bounds> least_bottleneck_split(const Chain& chain) {
  const auto least = least_bottleneck(chain);
  if (!least) return std::nullopt;
  return best_split(chain, Fold::fill, *least)->bounds;
}

std::optional<Bounds> least_makespan(const Chain& chain, double M, Bounds* balanced) {
  const auto least = least_bottleneck(chain);
  if (!least) return std::nullopt;
  Search search(chain, M, *least);
  search.probe(*least);  // least_bottleneck_split's split
  if (balanced) *balanced = search.first();
  if (M == 1) {
    search.settle_flat();
    return search.best();
  }
  const double floor = fill_floor(chain);
  search.sample(search.live_below(kInf, floor));
  search.close_gaps(floor);
  return search.best();
}

}  // namespace heteropipe::plan_detail
