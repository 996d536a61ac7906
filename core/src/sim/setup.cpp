// From checked options to what the engines read, and what they record.
#include "engine.hpp"

#include <algorithm>

namespace heteropipe::sim::detail {
namespace {

// The i-th of a list that holds none, one for all, or one each.
template <class T>
const T* pick(const std::vector<T>& list, std::int64_t i) {
  if (list.empty()) return nullptr;
  return list.size() == 1 ? &list[0] : &list[static_cast<std::size_t>(i)];
}

// Setup::held: with every time fixed, each blocking sender's stage time plus
// its link's, a sum within the tie rule above the largest stage time being
// that time, as Pipeline::sigma has it. Without it, 1e9 + 1e-7 (a unit in the
// last place above 1e9) held the sender a unit longer than the recurrence's
// sigma of 1e9.
void fix_held(Setup& su) {
  su.held.clear();
  if (su.random || su.matrix || su.link_matrix) return;
  double tau_max = 0;
  for (const Sampler& s : su.stage) tau_max = std::max(tau_max, s.mean());
  const double tie = Pipeline::tie_tolerance_of(tau_max);
  for (std::int64_t l = 0; l + 1 < su.S; ++l) {
    su.held.push_back(Pipeline::tied(su.stage[l].mean() + su.link[l].mean(), tau_max, tie));
  }
}

}  // namespace

Setup make_setup(const Pipeline& p, const Options& o) {
  Setup su;
  su.S = p.S();
  su.M = static_cast<std::int64_t>(o.M);
  su.block = o.links == LinkMode::blocking;
  const std::int64_t links = su.S - 1;
  su.room.assign(static_cast<std::size_t>(links), -1);
  su.server.assign(static_cast<std::size_t>(links), o.links != LinkMode::async);
  su.group.assign(static_cast<std::size_t>(links), -1);
  for (std::int64_t l = 0; l < links; ++l) {
    const double* b = o.buffers ? pick(*o.buffers, l) : nullptr;
    if (b && can_fill(*b, o.M)) su.room[l] = static_cast<std::int64_t>(*b);
  }
  for (std::size_t g = 0; g < o.shared.size(); ++g) {
    for (std::int64_t l : o.shared[g]) {
      su.group[l] = static_cast<std::int64_t>(g);
      su.server[l] = 1;
    }
  }
  su.groups = static_cast<std::int64_t>(o.shared.size());
  const auto guide = o.service_samples && !o.service_probabilities.empty()
                         ? Sampler::guide_for(o.service_probabilities)
                         : nullptr;
  for (std::int64_t s = 0; s < su.S; ++s) {
    const double tau = p.tau()[s];
    if (o.service_samples) {
      su.stage.push_back(Sampler::from((*o.service_samples)[s], tau, o.service_probabilities, guide));
    } else if (const Distribution* dist = pick(o.service, s)) {
      su.stage.push_back(Sampler::of(*dist, tau));
    } else {
      su.stage.push_back(Sampler::fixed(tau));
    }
  }
  for (std::int64_t l = 0; l < links; ++l) {
    const Distribution* dist = pick(o.link_service, l);
    su.link.push_back(dist ? Sampler::of(*dist, p.d()[l]) : Sampler::fixed(p.d()[l]));
  }
  if (o.service_matrix) su.matrix = o.service_matrix->data();
  if (o.link_matrix) su.link_matrix = o.link_matrix->data();
  auto any_random = [](const std::vector<Sampler>& list) {
    return std::any_of(list.begin(), list.end(), [](const Sampler& s) { return s.random(); });
  };
  // A replayed matrix replaces the stages' (the links') samplers.
  su.random = (!su.matrix && any_random(su.stage)) || (!su.link_matrix && any_random(su.link));
  fix_held(su);
  return su;
}

namespace {

// Each column's mean of an M x width matrix.
std::vector<double> column_means(const double* matrix, std::int64_t M, std::int64_t width) {
  std::vector<double> means(static_cast<std::size_t>(width), 0.0);
  for (std::int64_t m = 0; m < M; ++m) {
    for (std::int64_t c = 0; c < width; ++c) means[c] += matrix[m * width + c];
  }
  for (double& x : means) x /= static_cast<double>(M);
  return means;
}

}  // namespace

Setup mean_setup(const Setup& setup) {
  Setup su = setup;
  su.random = false;
  for (Sampler& s : su.stage) s = Sampler::fixed(s.mean());
  for (Sampler& s : su.link) s = Sampler::fixed(s.mean());
  if (setup.matrix) {
    const std::vector<double> means = column_means(setup.matrix, su.M, su.S);
    for (std::int64_t s = 0; s < su.S; ++s) su.stage[s] = Sampler::fixed(means[s]);
    su.matrix = nullptr;
  }
  if (setup.link_matrix) {
    const std::vector<double> link_means = column_means(setup.link_matrix, su.M, su.S - 1);
    for (std::int64_t l = 0; l + 1 < su.S; ++l) su.link[l] = Sampler::fixed(link_means[l]);
    su.link_matrix = nullptr;
  }
  fix_held(su);
  return su;
}

Recorder::Recorder(const Setup& setup, bool keep_cells) : cells(keep_cells) {
  const auto S = static_cast<std::size_t>(setup.S);
  run.busy.assign(S, 0.0);
  run.starved.assign(S, 0.0);
  run.blocked.assign(S, 0.0);
  if (!cells) return;
  const auto M = static_cast<std::size_t>(setup.M);
  run.completion.assign(M, 0.0);
  run.latency.assign(M, 0.0);
  RunTimeline t;
  t.S = setup.S;
  t.M = setup.M;
  t.compute_start.assign(M * S, 0.0);
  t.compute_finish.assign(M * S, 0.0);
  t.release.assign(M * S, 0.0);
  t.transfer_start.assign(M * (S - 1), 0.0);
  t.transfer_finish.assign(M * (S - 1), 0.0);
  run.timeline = std::move(t);
}

void Recorder::cell(std::int64_t m, std::int64_t s, double free_before, double start, double service, double finish,
                    double release) {
  run.busy[s] += service;
  run.starved[s] += start - free_before;
  run.blocked[s] += release - finish;
  if (cells) cell_times(m, s, start, finish, release);
}

void Recorder::cell_times(std::int64_t m, std::int64_t s, double start, double finish, double release) {
  RunTimeline& t = *run.timeline;
  const std::int64_t at = m * t.S + s;
  t.compute_start[at] = start;
  t.compute_finish[at] = finish;
  t.release[at] = release;
  if (s == 0) run.latency[m] = -start;  // completed when the last stage finishes it
  if (s + 1 == t.S) {
    run.completion[m] = finish;
    run.latency[m] = finish + run.latency[m];
  }
}

void Recorder::transfer(std::int64_t m, std::int64_t s, double start, double finish) {
  if (!cells) return;
  RunTimeline& t = *run.timeline;
  t.transfer_start[m * (t.S - 1) + s] = start;
  t.transfer_finish[m * (t.S - 1) + s] = finish;
}

namespace {

// Blocks of 64 draws, or of the least power of two >= M for fewer micro-batches.
std::int64_t block_bits_for(std::int64_t M) {
  std::int64_t bits = 0;
  while (bits < 6 && (std::int64_t{1} << bits) < M) ++bits;
  return bits;
}

}  // namespace

Draws::Draws(const Setup& setup, std::uint64_t seed, std::uint64_t rep)
    : setup_(setup),
      matrix_(setup.matrix),
      link_matrix_(setup.link_matrix),
      S_(setup.S),
      block_bits_(block_bits_for(setup.M)),
      block_(std::int64_t{1} << block_bits_) {
  const std::int64_t streams = 2 * setup.S - 1;
  streams_.reserve(static_cast<std::size_t>(streams));
  for (std::int64_t k = 0; k < streams; ++k) streams_.emplace_back(seed, rep, static_cast<std::uint64_t>(k));
  drawn_.assign(static_cast<std::size_t>(streams * block_), 0.0);
}

// The block for micro-batches m .. m + B - 1, fewer at the end, so that no
// replication draws more than it uses.
void Draws::refill(std::int64_t k, std::int64_t m) {
  const Sampler& sampler = k < S_ ? setup_.stage[k] : setup_.link[k - S_];
  if (m > 0 && !sampler.random()) return;  // a fixed time's block holds it from the first
  sampler.fill(streams_[k], &drawn_[k << block_bits_], std::min(block_, setup_.M - m));
}

}  // namespace heteropipe::sim::detail

namespace heteropipe::sim {

double working_bytes(std::int64_t S, const Options& options) {
  using detail::Sampler;
  const double stages = static_cast<double>(S);
  const double M = options.M;
  const double streams = 2 * stages;
  const auto block = static_cast<double>(std::int64_t{1} << detail::block_bits_for(static_cast<std::int64_t>(M)));
  // A setup (its samplers and per-link state) with its draws; a run that may
  // draw or replay its times makes a second at the means.
  const double setup = streams * (sizeof(Sampler) + 3 * sizeof(double));
  const double draws = streams * (sizeof(Stream) + block * sizeof(double));
  const bool at_means = !options.service.empty() || !options.link_service.empty() || options.service_matrix ||
                        options.link_matrix || options.service_samples;
  // The engines' per-stage state and the recorder's totals.
  const double engine = 16 * stages * sizeof(double);
  const double reps = 2 * options.reps * sizeof(double);
  const double timeline = options.timeline ? (5 * M * stages + 2 * M) * sizeof(double) : 0.0;
  return (at_means ? 2 : 1) * (setup + draws) + engine + reps + timeline;
}

}  // namespace heteropipe::sim
