#pragma once

// Test-only helpers for the simulator: random instances, and independent
// simulations written as plainly as possible to hold the engines to.
#include <heteropipe/heteropipe.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "test_random.hpp"

namespace heteropipe::testing {

using test::TestRandom;

// Multiples of 1/8 in [0, 8]: every sum the engines form is exact.
inline double dyadic(TestRandom& rng) { return static_cast<double>(rng() % 65) / 8; }

inline std::vector<double> dyadic_list(TestRandom& rng, std::size_t n, bool positive_first = true) {
  std::vector<double> v(n);
  for (double& x : v) x = dyadic(rng);
  if (positive_first && n > 0) v[0] += 0.125;
  return v;
}

inline std::vector<double> log_uniform_list(TestRandom& rng, std::size_t n, double low, double high) {
  std::vector<double> v(n);
  for (double& x : v) x = rng.log_uniform(low, high);
  return v;
}

// Event by event, blocking after service, no link times: a finished
// micro-batch moves into the next stage when that stage is idle with nothing
// waiting, into the queue in front of it when the queue holds fewer than b,
// and otherwise holds its stage. Returns the makespan.
inline double event_by_event(const std::vector<double>& p, std::int64_t S, std::int64_t M,
                             const std::vector<std::int64_t>& b) {
  enum State { idle, busy, holding };
  std::vector<State> state(S, idle);
  std::vector<std::int64_t> job(S, -1);
  std::vector<double> done(S, 0.0);
  std::vector<std::vector<std::int64_t>> queue(S);  // queue[s]: waiting in front of s
  std::int64_t next_in = 0, finished = 0;
  double now = 0, makespan = 0;
  auto start = [&](std::int64_t s, std::int64_t m) {
    state[s] = busy;
    job[s] = m;
    done[s] = now + p[m * S + s];
  };
  for (;;) {
    bool moved = true;
    while (moved) {
      moved = false;
      for (std::int64_t s = S - 1; s >= 0; --s) {
        if (state[s] == holding) {
          if (s + 1 == S) {
            state[s] = idle;
            ++finished;
            makespan = now;
            moved = true;
          } else if (state[s + 1] == idle && queue[s + 1].empty()) {
            start(s + 1, job[s]);
            state[s] = idle;
            moved = true;
          } else if (static_cast<std::int64_t>(queue[s + 1].size()) < b[s]) {
            queue[s + 1].push_back(job[s]);
            state[s] = idle;
            moved = true;
          }
        }
        if (state[s] == idle) {
          if (s == 0 && next_in < M) {
            start(0, next_in++);
            moved = true;
          } else if (s > 0 && !queue[s].empty()) {
            start(s, queue[s].front());
            queue[s].erase(queue[s].begin());
            moved = true;
          }
        }
      }
    }
    if (finished == M) return makespan;
    double t = -1;
    for (std::int64_t s = 0; s < S; ++s) {
      if (state[s] == busy && (t < 0 || done[s] < t)) t = done[s];
    }
    now = t;
    for (std::int64_t s = 0; s < S; ++s) {
      if (state[s] == busy && done[s] == now) state[s] = holding;
    }
  }
}

// A tandem of servers in a line, unbounded queues: T[m][k] =
// max(T[m][k-1], T[m-1][k]) + w[m][k].
inline double tandem(const std::vector<double>& w, std::int64_t K, std::int64_t M) {
  std::vector<double> T(K, 0.0);
  for (std::int64_t m = 0; m < M; ++m) {
    for (std::int64_t k = 0; k < K; ++k) T[k] = std::max(k ? T[k - 1] : 0.0, T[k]) + w[m * K + k];
  }
  return T[K - 1];
}

}  // namespace heteropipe::testing
