// The engine without shared links: every cell once, in fronts of cells that
// do not depend on each other (see engine.hpp for the rules).
#include "engine.hpp"

#include <type_traits>

namespace heteropipe::sim::detail {
namespace {

double later(double a, double b) { return a > b ? a : b; }

// Every time at its stage's or link's fixed value, read from plain arrays.
struct Fixed {
  std::vector<double> tau, d, held;  // held: Setup::held
  explicit Fixed(const Setup& su) : held(su.held) {
    for (const Sampler& s : su.stage) tau.push_back(s.mean());
    for (const Sampler& s : su.link) d.push_back(s.mean());
  }
  void front(std::int64_t) const {}
  double stage(std::int64_t, std::int64_t s) const { return tau[s]; }
  double link(std::int64_t, std::int64_t l) const { return d[l]; }
};

// Replication 0's draws (or matrix), each asked for as its cell comes.
struct Asked {
  Draws& draws;
  void front(std::int64_t) const {}
  double stage(std::int64_t m, std::int64_t s) { return draws.stage(m, s); }
  double link(std::int64_t m, std::int64_t l) { return draws.link(m, l); }
};

// Whether every micro-batch takes the same time on a stage: then its busy
// time is M times that, one product, not a sum of M in the loop.
template <class Times>
constexpr bool kFixedTimes = std::is_same_v<Times, Fixed>;

// The link mode, fixed for a whole sweep (without shared links every link has
// the same), so that no cell tests it.
enum class Mode { delay, serial, block };

// One stage's state and constants, side by side so that a cell reads one place.
struct Stage {
  double free_at = 0, arrival = 0;
  double busy = 0, starved = 0, blocked = 0;
  std::ptrdiff_t hold = 0;  // where its buffer's bound is, from its front's row (see Releases)
};

// Each cell's release, in a ring of rows, one row per front, so that a cell
// finds both where it writes and where its buffer's bound is from its front's
// one row index: no ring per stage, and no index of its own to keep.
//
// Cell (m, s), on front k = 2m + s, writes its release to column s of row
// k mod F. Behind a finite buffer b it needs release (m - b - 1, s + 1),
// written on front k - 2b - 1 to column s + 1. With F = 2b + 2 rows for the
// largest b, no later front has reused that row yet; when m - b - 1 < 0 no
// front has ever written that entry, and its 0 binds nothing. A stage whose
// buffer never fills reads column S, which no stage writes. So each stage
// keeps one offset, hold, from its front's row to its bound.
struct Releases {
  std::int64_t columns = 0, size = 0;
  std::vector<double> slots;

  Releases(const Setup& su, std::vector<Stage>& st) : columns(su.S + 1) {
    std::int64_t rows = 1;
    for (std::int64_t b : su.room) rows = b >= 0 && 2 * b + 2 > rows ? 2 * b + 2 : rows;
    size = rows * columns;
    slots.assign(static_cast<std::size_t>(size), 0.0);
    for (std::int64_t s = 0; s + 1 < su.S; ++s) {
      const std::int64_t b = su.room[s];
      st[s].hold = static_cast<std::ptrdiff_t>(b < 0 ? su.S : s + 1 - (2 * b + 1) * columns);
    }
  }
};

// One front's view of the releases: where its row starts, in a ring of size
// slots. Its indexes are the machine's own width (32 bits in WebAssembly),
// which the module's compiler keeps in registers better than 64-bit ones.
struct Front {
  double* slots;
  std::ptrdiff_t row, size;
  double bound(std::ptrdiff_t hold) const {
    std::ptrdiff_t at = row + hold;
    if (at < 0) at += size;
    return slots[at];
  }
  void write(std::int64_t s, double release) const { slots[row + static_cast<std::ptrdiff_t>(s)] = release; }
};

// kTotals: the per-stage totals (replication 0); kCells: every event too (a
// timeline). Both are kept out of the loop of every other replication.
template <Mode kMode, bool kTotals, bool kCells, class Times>
struct Sweep {
  const Setup& su;
  Times& times;
  Recorder* rec;
  std::vector<Stage> st;
  Releases releases;

  Sweep(const Setup& setup, Times& t, Recorder* r)
      : su(setup), times(t), rec(r), st(static_cast<std::size_t>(setup.S)), releases(setup, st) {}

  // Cell (m, s); kLast: s is the last stage, which has no link after it.
  template <bool kLast>
  void cell(std::int64_t m, std::int64_t s, Front front) {
    Stage& here = st[s];
    const double start = later(here.arrival, here.free_at);
    const double service = times.stage(m, s);
    const double finish = start + service;
    double release = finish;
    if (!kLast) {
      const double leave = later(finish, front.bound(here.hold));
      // A serial link is free once its last transfer, m - 1's, has ended: at
      // the arrival that transfer set at s + 1, which no cell has replaced
      // since. A blocking sender was held through that transfer, so its link
      // is free by the time m leaves; a delay link never waits.
      const double begin = kMode == Mode::serial ? later(leave, st[s + 1].arrival) : leave;
      const double x = times.link(m, s);
      // A blocking sender not held by its buffer releases at start + (p + x),
      // the core's blocking recurrence (on sigma = tau + d) bit for bit; with
      // fixed times, at start + sigma under the tie rule (Setup::held).
      double held = service + x;
      if constexpr (kFixedTimes<Times>) held = times.held[s];
      const double end = kMode == Mode::block && leave == finish ? start + held : begin + x;
      st[s + 1].arrival = end;
      release = kMode == Mode::block ? end : leave;
      if (kCells) rec->transfer(m, s, begin, end);
    }
    front.write(s, release);
    if (kTotals) {
      if (!kFixedTimes<Times>) here.busy += service;
      here.starved += start - here.free_at;
      here.blocked += release - finish;
    }
    if (kCells) rec->cell_times(m, s, start, finish, release);
    here.free_at = release;
  }

  // Cell (m, s) needs (m, s-1), (m-1, s) and (m - b - 1, s+1), all on earlier
  // fronts k = 2m + s, so the cells of one front are independent and the
  // processor overlaps their chains of max and +. Each stage still sees its
  // micro-batches in order, and each cell the same operations, so the bits
  // equal a row-by-row pass.
  double run() {
    const std::int64_t S = su.S, M = su.M;
    const std::int64_t fronts = 2 * (M - 1) + S;
    Front front{releases.slots.data(), 0, static_cast<std::ptrdiff_t>(releases.size)};
    const auto columns = static_cast<std::ptrdiff_t>(releases.columns);
    for (std::int64_t k = 0; k < fronts; ++k) {
      times.front(k);
      std::int64_t m = k - (S - 1) > 0 ? (k - (S - 1) + 1) / 2 : 0;
      const std::int64_t last = k / 2 < M - 1 ? k / 2 : M - 1;
      if (m <= last && k - 2 * m == S - 1) cell<true>(m++, S - 1, front);
      for (; m <= last; ++m) cell<false>(m, k - 2 * m, front);
      front.row += columns;
      if (front.row == front.size) front.row = 0;
    }
    if (kTotals) {
      for (std::int64_t s = 0; s < S; ++s) {
        rec->run.busy[s] = kFixedTimes<Times> ? static_cast<double>(M) * times.stage(0, s) : st[s].busy;
        rec->run.starved[s] = st[s].starved;
        rec->run.blocked[s] = st[s].blocked;
      }
    }
    return st[S - 1].free_at;
  }
};

template <bool kTotals, bool kCells, class Times>
double sweep(const Setup& su, Times& times, Recorder* rec) {
  if (su.block) return Sweep<Mode::block, kTotals, kCells, Times>(su, times, rec).run();
  if (su.S > 1 && su.server[0]) return Sweep<Mode::serial, kTotals, kCells, Times>(su, times, rec).run();
  return Sweep<Mode::delay, kTotals, kCells, Times>(su, times, rec).run();
}

// rec: replication 0's totals, and its timeline when asked; null for the rest.
template <class Times>
double sweep_recorded(const Setup& su, Times& times, Recorder* rec) {
  if (!rec) return sweep<false, false>(su, times, rec);
  if (rec->cells) return sweep<true, true>(su, times, rec);
  return sweep<true, false>(su, times, rec);
}

// The times of every replication after the first, for each kind without the
// others' tests: the stages draw or replay a matrix, the links draw, are
// fixed (the usual Monte Carlo) or replay theirs. The draws' blocks are
// filled a front at a time (Draws::fill_front), so that no cell tests whether
// its block is due and the cells' loop calls nothing. The same values as
// Draws' stage and link.
enum class Links { fixed, drawn, replayed };

template <bool kReplay, Links kLinks>
struct Replicated {
  Draws& draws;
  const double *matrix, *link_matrix;
  std::int64_t S;
  std::vector<double> d;
  Replicated(const Setup& su, Draws& from)
      : draws(from), matrix(su.matrix), link_matrix(su.link_matrix), S(su.S) {
    for (const Sampler& l : su.link) d.push_back(l.mean());
  }
  void front(std::int64_t k) { draws.fill_front(k); }
  double stage(std::int64_t m, std::int64_t s) { return kReplay ? matrix[m * S + s] : draws.filled(s, m); }
  double link(std::int64_t m, std::int64_t l) {
    if (kLinks == Links::replayed) return link_matrix[m * (S - 1) + l];
    return kLinks == Links::drawn ? draws.filled(S + l, m) : d[l];
  }
};

template <bool kReplay, Links kLinks>
double replicate(const Setup& su, Draws& draws) {
  Replicated<kReplay, kLinks> times(su, draws);
  return sweep<false, false>(su, times, nullptr);
}

}  // namespace

double row_engine(const Setup& su, Draws& draws, Recorder* rec) {
  if (!su.random && !su.matrix && !su.link_matrix) {
    Fixed fixed(su);
    return sweep_recorded(su, fixed, rec);
  }
  if (rec) {
    Asked asked{draws};
    return sweep_recorded(su, asked, rec);
  }
  bool drawn_links = false;
  for (const Sampler& l : su.link) drawn_links = drawn_links || l.random();
  // Replayed stages with fixed or replayed links have nothing random: they
  // are never replicated.
  if (su.matrix) return replicate<true, Links::drawn>(su, draws);
  if (su.link_matrix) return replicate<false, Links::replayed>(su, draws);
  return drawn_links ? replicate<false, Links::drawn>(su, draws) : replicate<false, Links::fixed>(su, draws);
}

}  // namespace heteropipe::sim::detail
