#include "chain.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace heteropipe::plan_detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A start a of the stage at the current position, still able to win: its
// key ranks it (see run), and tau and used are the time and memory of layers
// a .. next - 1, added one layer at a time in layer order, which is exactly
// stage_tau: bounds are checked on the values reported.
struct Candidate {
  std::int64_t start, next;
  DoubleDouble key;
  double tau, used;
};

// A stage's fill on top of `key` (a start's prev[a] - P[a]): key + P[end] + d,
// rounded once. fill_of adds the same way.
double stage_fill(DoubleDouble key, DoubleDouble prefix_end, double delay) {
  return add(add(key, prefix_end), delay).hi;
}

// Row s of the program holds, for each count q of layers placed on positions
// 0..s, the least fill (or bottleneck) of doing so; from[s][q] is where the
// stage at s begins in that best way (q itself when s is idle).
//
// A stage a..b extends row s-1's value at a. Its fill is written
// (prev[a] - P[a]) + P[b+1] + d[b], P the position's prefix sums (in
// double-double, so that no small term is lost beside a huge one), so for
// every b the candidates rank by key(a) = prev[a] - P[a] alone (bottleneck:
// by prev[a], the stage cost only shrinking as a grows). A candidate whose
// key is no better than a later start's never wins again: the later one has
// a better key and a shorter stage, so no more tau, memory or sigma, for
// every b. The live candidates are thus a short deque (the classic
// sliding-window minimum): starts increasing, keys strictly increasing. The
// front leaves for good once its tau or memory passes its bound (both only
// grow with b); a candidate's sums are brought up to b only when looked at.
//
// kEven (fill only) also carries each value's spread, the sum of its
// stages' squared costs with links (tau + d), and among starts of equal fill
// keeps the least spread: equal keys then stay in the deque side by side
// (keys non-decreasing), and every start of the least key is priced.
template <Fold kFold, StageCost kCost, bool kEven = false>
std::optional<Split> run(const Chain& chain, double bound) {
  const std::int64_t S = chain.S, L = chain.L, width = L + 1;
  std::vector<double> prev(static_cast<std::size_t>(width), kInf), cur(prev.size());
  std::vector<double> prev_spread(kEven ? prev.size() : 0, 0.0), cur_spread(prev_spread.size());
  std::vector<Candidate> live(static_cast<std::size_t>(L));
  std::vector<std::int32_t> from(static_cast<std::size_t>(S * width));
  const double* memory = chain.layer_memory.data();
  prev[0] = 0;
  for (std::int64_t s = 0; s < S; ++s) {
    std::int32_t* from_s = &from[s * width];
    if (chain.allow_idle) {
      cur = prev;
      if (kEven) cur_spread = prev_spread;
      for (std::int64_t q = 0; q < width; ++q) from_s[q] = static_cast<std::int32_t>(q);
    } else {
      std::fill(cur.begin(), cur.end(), kInf);
    }
    // Without idle devices each later position needs a layer of its own.
    const std::int64_t q_max = chain.allow_idle ? L : L - (S - 1 - s);
    const double* time = &chain.times[s * L];
    const DoubleDouble* prefix = &chain.prefix[s * width];
    const double* delay = &chain.delay[s * L];
    const double capacity = chain.capacity[s];
    const auto catch_up = [&](Candidate& c, std::int64_t b) {
      for (; c.next <= b; ++c.next) {
        c.tau += time[c.next];
        c.used += memory[c.next];
      }
    };
    std::int64_t head = 0, tail = 0;  // live[head, tail)
    for (std::int64_t b = 0; b < q_max; ++b) {
      if (prev[b] != kInf) {
        const DoubleDouble key = kFold == Fold::fill ? add(negated(prefix[b]), prev[b]) : DoubleDouble{prev[b], 0};
        if (kEven) {
          while (tail > head && less(key, live[tail - 1].key)) --tail;
        } else {
          while (tail > head && !less(live[tail - 1].key, key)) --tail;
        }
        live[tail++] = Candidate{b, b, key, 0, 0};
      }
      for (; head < tail; ++head) {
        catch_up(live[head], b);
        if (live[head].tau <= bound && live[head].used <= capacity) break;
      }
      double best = cur[b + 1];
      double best_spread = kEven ? cur_spread[b + 1] : 0.0;
      std::int64_t best_start = -1;
      if (kFold == Fold::fill) {
        // The first candidate within the bound has the least key, so the
        // least fill. No stage ends at b where no link can carry its cut.
        for (std::int64_t i = head; i < tail && delay[b] < kInf; ++i) {
          Candidate& c = live[i];
          catch_up(c, b);
          if (kCost == StageCost::sigma && c.tau + delay[b] > bound) continue;
          const double value = stage_fill(c.key, prefix[b + 1], delay[b]);
          if (!kEven) {
            if (value < best) {
              best = value;
              best_start = c.start;
            }
            break;
          }
          // The later starts of the same key: shorter stages, so within
          // every bound this one keeps, and of the same fill.
          for (std::int64_t j = i; j < tail && !less(c.key, live[j].key); ++j) {
            Candidate& e = live[j];
            catch_up(e, b);
            const double cost = e.tau + delay[b];
            const double spread = prev_spread[e.start] + cost * cost;
            if (value < best || (value == best && spread < best_spread)) {
              best = value;
              best_spread = spread;
              best_start = e.start;
            }
          }
          break;
        }
      } else {
        // From the back: stage costs grow toward the front while the values
        // carried shrink, so stop once a cost reaches the best so far.
        for (std::int64_t i = tail - 1; i >= head; --i) {
          Candidate& c = live[i];
          catch_up(c, b);
          const double cost = kCost == StageCost::sigma ? c.tau + delay[b] : c.tau;
          if (cost > bound || cost >= best) break;
          const double value = std::max(prev[c.start], cost);
          if (value < best) {
            best = value;
            best_start = c.start;
          }
        }
      }
      if (best_start >= 0) {
        cur[b + 1] = best;
        if (kEven) cur_spread[b + 1] = best_spread;
        from_s[b + 1] = static_cast<std::int32_t>(best_start);
      }
    }
    std::swap(prev, cur);
    if (kEven) std::swap(prev_spread, cur_spread);
  }
  if (prev[L] == kInf) return std::nullopt;
  Split split;
  split.value = prev[L];
  split.bounds.assign(static_cast<std::size_t>(S + 1), 0);
  split.bounds[S] = L;
  for (std::int64_t s = S - 1; s >= 0; --s) split.bounds[s] = from[s * width + split.bounds[s + 1]];
  return split;
}

}  // namespace

double stage_tau(const Chain& chain, std::int64_t s, std::int64_t begin, std::int64_t end) {
  double tau = 0;
  for (std::int64_t b = begin; b < end; ++b) tau += chain.time(s, b);
  return tau;
}

double stage_delay(const Chain& chain, std::int64_t s, std::int64_t begin, std::int64_t end) {
  return begin == end ? 0.0 : chain.link_delay(s, end - 1);
}

double stage_cost(const Chain& chain, std::int64_t s, std::int64_t begin, std::int64_t end) {
  const double tau = stage_tau(chain, s, begin, end);
  return chain.cost == StageCost::sigma ? tau + stage_delay(chain, s, begin, end) : tau;
}

double bottleneck_of(const Chain& chain, const Bounds& bounds) {
  double bottleneck = 0;
  for (std::int64_t s = 0; s < chain.S; ++s) {
    if (bounds[s] == bounds[s + 1]) continue;
    bottleneck = std::max(bottleneck, stage_cost(chain, s, bounds[s], bounds[s + 1]));
  }
  return bottleneck;
}

double fill_of(const Chain& chain, const Bounds& bounds) {
  double fill = 0;
  for (std::int64_t s = 0; s < chain.S; ++s) {
    const std::int64_t begin = bounds[s], end = bounds[s + 1];
    if (begin == end) continue;
    const DoubleDouble* prefix = &chain.prefix[s * (chain.L + 1)];
    fill = stage_fill(add(negated(prefix[begin]), fill), prefix[end], stage_delay(chain, s, begin, end));
  }
  return fill;
}

double spread_of(const Chain& chain, const Bounds& bounds) {
  double spread = 0;
  for (std::int64_t s = 0; s < chain.S; ++s) {
    if (bounds[s] == bounds[s + 1]) continue;
    const double cost = stage_tau(chain, s, bounds[s], bounds[s + 1]) + stage_delay(chain, s, bounds[s], bounds[s + 1]);
    spread += cost * cost;
  }
  return spread;
}

std::optional<Split> most_even_split(const Chain& chain, double bound) {
  return chain.cost == StageCost::sigma ? run<Fold::fill, StageCost::sigma, true>(chain, bound)
                                        : run<Fold::fill, StageCost::tau, true>(chain, bound);
}

std::optional<Split> best_split(const Chain& chain, Fold fold, double bound) {
  const bool sigma = chain.cost == StageCost::sigma;
  if (fold == Fold::fill) {
    return sigma ? run<Fold::fill, StageCost::sigma>(chain, bound) : run<Fold::fill, StageCost::tau>(chain, bound);
  }
  return sigma ? run<Fold::bottleneck, StageCost::sigma>(chain, bound)
               : run<Fold::bottleneck, StageCost::tau>(chain, bound);
}

}  // namespace heteropipe::plan_detail
