// The engine without shared links: every cell once, in fronts of cells that
// do not depend on each other (see engine.hpp for the rules).
#include "engine.hpp"

namespace heteropipe::sim::detail {
namespace {

double later(double a, double b) { return a > b ? a : b; }

// Every time at its stage's or link's fixed value, read from plain arrays.
struct Fixed {
  std::vector<double> tau, d;
  explicit Fixed(const Setup& su) {
    for (const Sampler& s : su.stage) tau.push_back(s.mean());
    for (const Sampler& s : su.link) d.push_back(s.mean());
  }
  double stage(std::int64_t, std::int64_t s) const { return tau[s]; }
  double link(std::int64_t, std::int64_t l) const { return d[l]; }
};

// kTotals: the per-stage totals (replication 0); kCells: every event too (a
// timeline). Both are kept out of the loop of every other replication.
// One stage's state and constants, side by side so that a cell reads one
// place. The ring of stage s >= 1 behind a finite buffer b holds its last
// b + 1 release times: slot m mod (b + 1) holds micro-batch m - b - 1's
// release until stage s overwrites it with m's, which is exactly when stage
// s - 1 has read it for m. Slots start at 0, which no rule can bind on.
struct StageState {
  double free_at = 0, arrival = 0, link_free = 0;
  double* ring = nullptr;
  std::size_t ring_size = 0, ring_at = 0;
  bool server = false;
};

template <bool kTotals, bool kCells, class Times>
double sweep(const Setup& su, Times& times, Recorder* rec) {
  const std::int64_t S = su.S, M = su.M;
  const auto n = static_cast<std::size_t>(S);
  // One more than the stages, so that the last stage's "next" is an idle one.
  std::vector<StageState> st(n + 1);
  std::size_t slots = 0;
  for (std::int64_t s = 1; s < S; ++s) {
    if (su.room[s - 1] >= 0) slots += static_cast<std::size_t>(su.room[s - 1]) + 1;
  }
  std::vector<double> ring(slots, 0.0);
  slots = 0;
  for (std::int64_t s = 0; s < S; ++s) {
    if (s + 1 < S) st[s].server = su.server[s] != 0;
    if (s >= 1 && su.room[s - 1] >= 0) {
      st[s].ring = ring.data() + slots;
      st[s].ring_size = static_cast<std::size_t>(su.room[s - 1]) + 1;
      slots += st[s].ring_size;
    }
  }
  const bool block = su.block;
  std::vector<double> busy(n, 0.0), starved(n, 0.0), blocked(n, 0.0);

  // Cell (m, s) needs (m, s-1), (m-1, s) and (m - b - 1, s+1), all on earlier
  // fronts k = 2m + s, so the cells of one front are independent and the
  // processor overlaps their chains of max and +. Each stage still sees its
  // micro-batches in order, and each cell the same operations, so the bits
  // equal a row-by-row pass.
  const std::int64_t fronts = 2 * (M - 1) + S;
  for (std::int64_t k = 0; k < fronts; ++k) {
    const std::int64_t first = k - (S - 1) > 0 ? (k - (S - 1) + 1) / 2 : 0;
    const std::int64_t last = k / 2 < M - 1 ? k / 2 : M - 1;
    for (std::int64_t m = first; m <= last; ++m) {
      const std::int64_t s = k - 2 * m;
      StageState& here = st[s];
      const double start = later(here.arrival, here.free_at);
      const double finish = start + times.stage(m, s);
      double release = finish;
      if (s + 1 < S) {
        StageState& next = st[s + 1];
        double leave = finish;
        if (next.ring_size) leave = later(leave, next.ring[next.ring_at]);
        const double begin = here.server ? later(leave, here.link_free) : leave;
        const double end = begin + times.link(m, s);
        here.link_free = end;
        next.arrival = end;
        release = block ? end : leave;
        if (kCells) rec->transfer(m, s, begin, end);
      }
      if (here.ring_size) {
        here.ring[here.ring_at] = release;
        if (++here.ring_at == here.ring_size) here.ring_at = 0;
      }
      if (kTotals) {
        busy[s] += finish - start;
        starved[s] += start - here.free_at;
        blocked[s] += release - finish;
      }
      if (kCells) rec->cell_times(m, s, start, finish, release);
      here.free_at = release;
    }
  }
  if (kTotals) {
    rec->run.busy = std::move(busy);
    rec->run.starved = std::move(starved);
    rec->run.blocked = std::move(blocked);
  }
  return st[n - 1].free_at;
}

template <class Times>
double sweep_for(const Setup& su, Times& times, Recorder* rec) {
  if (!rec) return sweep<false, false>(su, times, rec);
  return rec->cells ? sweep<true, true>(su, times, rec) : sweep<true, false>(su, times, rec);
}

}  // namespace

double row_engine(const Setup& su, Draws& draws, Recorder* rec) {
  if (!su.random && !su.matrix) {
    Fixed fixed(su);
    return sweep_for(su, fixed, rec);
  }
  return sweep_for(su, draws, rec);
}

}  // namespace heteropipe::sim::detail
