#pragma once

#include <cstdint>
#include <vector>

#include "heteropipe/sim/simulate.hpp"
#include "sampler.hpp"

// The simulator's engines and what they share. Both compute, cell by cell,
//   start   = max(arrival from link s-1, release of the previous micro-batch)
//   finish  = start + p[m][s]
//   leave   = max(finish, release of micro-batch m - buffers[s] - 1 by stage s+1)
//   transfer start = leave (delay), or the link's (group's) next free time
//                    after leave (serial, block, shared)
//   arrival at s+1 = transfer start + x[m][s]
//   release = transfer end (block) or leave (delay, serial)
// The row engine goes micro-batch by micro-batch; the event engine, needed
// when links share a medium, lets each stage run ahead and decides the
// medium's order only when nothing else can move (docs/simulation.md).
namespace heteropipe::sim::detail {

struct Setup {
  std::int64_t S = 0, M = 0;
  bool block = false;
  std::vector<std::int64_t> room;    // per link: its buffer, or -1 when it never binds
  std::vector<char> server;          // per link: one transfer at a time
  std::vector<std::int64_t> group;   // per link: its shared group, or -1
  std::int64_t groups = 0;
  std::vector<Sampler> stage, link;  // S and S-1
  const double* matrix = nullptr;    // M x S, replacing stage
  const double* link_matrix = nullptr;  // M x (S-1), replacing link
  bool random = false;               // whether any sampler draws
  // Per link, with every time fixed (no draw, no matrix): what a blocking
  // sender not held by its buffer is busy, its stage's time plus its link's
  // under the pipeline's tie rule (Pipeline::tied), so that the engines give
  // the blocking recurrence's bits, which runs on sigma; empty otherwise.
  std::vector<double> held;
};

// Whether a finite buffer can ever fill: M micro-batches fit in one of M - 1
// or more (the one on the stage after it too).
inline bool can_fill(double buffer, double M) { return buffer < M - 1; }

Setup make_setup(const Pipeline& p, const Options& o);
// The same setup with every time at its mean (a matrix's column means).
Setup mean_setup(const Setup& setup);

// What the engines record beyond the makespan (Run's fields).
struct Recorder {
  explicit Recorder(const Setup& setup, bool cells);
  // Adds to the per-stage totals (busy: the service times' sum) and, with
  // cells, records the cell.
  void cell(std::int64_t m, std::int64_t s, double free_before, double start, double service, double finish,
            double release);
  // Records the cell only (for an engine that keeps the totals itself).
  void cell_times(std::int64_t m, std::int64_t s, double start, double finish, double release);
  void transfer(std::int64_t m, std::int64_t s, double start, double finish);
  Run run;
  bool cells;
};

// Service and transfer times of one replication, each stage and link
// drawing from its own stream in micro-batch order. The draws come a block at
// a time, so that the sampler's loop runs without the engine's in between;
// they are the same draws in the same order, whichever engine asks. Each
// (m, s) is asked once, and each stream's micro-batches in order.
class Draws {
 public:
  Draws(const Setup& setup, std::uint64_t seed, std::uint64_t rep);
  double stage(std::int64_t m, std::int64_t s) {
    if (matrix_) return matrix_[m * S_ + s];
    return drawn(s, m);
  }
  double link(std::int64_t m, std::int64_t l) {
    if (link_matrix_) return link_matrix_[m * (S_ - 1) + l];
    return drawn(S_ + l, m);
  }
  // Stream k's draw for micro-batch m (stages 0..S-1, then links). A
  // stream's block holds micro-batches q B .. q B + B - 1 (B a power of
  // two), so m itself says where its draw is and when the next block is due:
  // no count to keep per draw.
  double drawn(std::int64_t k, std::int64_t m) {
    const std::int64_t slot = m & (block_ - 1);
    if (slot == 0) refill(k, m);
    return drawn_[(k << block_bits_) + slot];
  }
  // For the row engine, which visits cell (m, s) on front k = 2m + s: every
  // block due on front k, so that filled() finds its draw without a test.
  // Stage s's block begins at a multiple m of B, on a front k = s (mod 2B),
  // a mask since 2B is a power of two; its link's stream draws on the same cells.
  // Only stages from k - 2(M - 1) on have a micro-batch on front k, so the
  // walk starts there: starting at the first stage made each front look at
  // every stage before it, O(S^2) per replication at small M.
  void fill_front(std::int64_t k) {
    const std::int64_t step = 2 * block_, first = k - 2 * (setup_.M - 1);
    std::int64_t s = k & (step - 1);
    if (s < first) s += (first - s + step - 1) / step * step;
    for (; s < S_ && s <= k; s += step) {
      const std::int64_t m = (k - s) / 2;
      refill(s, m);
      if (s + 1 < S_) refill(S_ + s, m);
    }
  }
  double filled(std::int64_t k, std::int64_t m) const { return drawn_[(k << block_bits_) + (m & (block_ - 1))]; }

 private:
  void refill(std::int64_t k, std::int64_t m);

  const Setup& setup_;
  const double* matrix_;
  const double* link_matrix_;
  std::int64_t S_, block_bits_, block_;
  std::vector<Stream> streams_;
  std::vector<double> drawn_;  // block_ draws per stream
};

// The makespan; rec may be null.
double row_engine(const Setup& setup, Draws& draws, Recorder* rec);
double event_engine(const Setup& setup, Draws& draws, Recorder* rec);

inline double run_engine(const Setup& setup, Draws& draws, Recorder* rec) {
  return setup.groups > 0 ? event_engine(setup, draws, rec) : row_engine(setup, draws, rec);
}

}  // namespace heteropipe::sim::detail
