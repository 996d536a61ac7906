// The engine without shared links: micro-batch by micro-batch, every stage
// in turn, each cell once (see engine.hpp for the rules).
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
template <bool kTotals, bool kCells, class Times>
double sweep(const Setup& su, Times& times, Recorder* rec) {
  const std::int64_t S = su.S, M = su.M;
  const auto n = static_cast<std::size_t>(S);
  std::vector<double> free_at(n, 0.0), arrival(n, 0.0), link_free(n, 0.0);
  // Stage s >= 1 behind a finite buffer b keeps its last b + 1 release times
  // in a ring: slot m mod (b + 1) holds micro-batch m - b - 1's release until
  // stage s overwrites it with m's, which is exactly when stage s - 1 has
  // read it for m. Slots start at 0, which no rule can bind on.
  std::vector<std::size_t> ring_begin(n + 1, 0), ring_size(n + 1, 0), ring_at(n + 1, 0);
  for (std::int64_t s = 1; s < S; ++s) {
    if (su.room[s - 1] >= 0) ring_size[s] = static_cast<std::size_t>(su.room[s - 1]) + 1;
    ring_begin[s + 1] = ring_begin[s] + ring_size[s];
  }
  std::vector<double> ring(ring_begin[n], 0.0);
  std::vector<char> server(su.server.begin(), su.server.end());
  server.push_back(0);
  const bool block = su.block;
  std::vector<double> busy(n, 0.0), starved(n, 0.0), blocked(n, 0.0);

  for (std::int64_t m = 0; m < M; ++m) {
    for (std::int64_t s = 0; s < S; ++s) {
      const double start = later(arrival[s], free_at[s]);
      const double finish = start + times.stage(m, s);
      double release = finish;
      if (s + 1 < S) {
        double leave = finish;
        if (ring_size[s + 1]) leave = later(leave, ring[ring_begin[s + 1] + ring_at[s + 1]]);
        const double begin = server[s] ? later(leave, link_free[s]) : leave;
        const double end = begin + times.link(m, s);
        link_free[s] = end;
        arrival[s + 1] = end;
        release = block ? end : leave;
        if (kCells) rec->transfer(m, s, begin, end);
      }
      if (ring_size[s]) {
        ring[ring_begin[s] + ring_at[s]] = release;
        if (++ring_at[s] == ring_size[s]) ring_at[s] = 0;
      }
      if (kTotals) {
        busy[s] += finish - start;
        starved[s] += start - free_at[s];
        blocked[s] += release - finish;
      }
      if (kCells) rec->cell_times(m, s, start, finish, release);
      free_at[s] = release;
    }
  }
  if (kTotals) {
    rec->run.busy = std::move(busy);
    rec->run.starved = std::move(starved);
    rec->run.blocked = std::move(blocked);
  }
  return free_at[n - 1];
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
