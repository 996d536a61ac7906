#pragma once

// Test-only helpers: the plain row-by-row recurrence of docs/model.md, written as
// directly as possible, to hold the engine's optimized sweep to it.
#include <heteropipe/heteropipe.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace heteropipe::testing {

inline double naive_recurrence(const std::vector<double>& work, const std::vector<double>& link, std::int64_t M) {
  const std::size_t S = work.size();
  std::vector<double> T(S, 0.0);  // T[m-1][s], then T[m][s]
  for (std::int64_t m = 0; m < M; ++m) {
    T[0] = T[0] + work[0];
    for (std::size_t s = 1; s < S; ++s) T[s] = std::max(T[s - 1] + link[s - 1], T[s]) + work[s];
  }
  return T[S - 1];
}

inline double naive_async(const Pipeline& p, std::int64_t M) { return naive_recurrence(p.tau(), p.d(), M); }

inline double naive_blocking(const Pipeline& p, std::int64_t M) {
  return naive_recurrence(p.sigma(), std::vector<double>(p.d().size(), 0.0), M);
}

inline Pipeline make(std::vector<double> tau, std::vector<double> d = {}) {
  return Pipeline::create(std::move(tau), std::move(d)).value();
}

}  // namespace heteropipe::testing
