#pragma once
// Random test inputs from the core's own generator (sim::Stream) and its own
// exp and log, never std::*_distribution or std::shuffle, whose algorithms
// differ between libstdc++ and libc++, nor the C library's pow, whose last
// bits differ between glibc and musl: the native and the wasm suites then
// test the same cases.

#include <cstdint>
#include <utility>
#include <vector>

#include "heteropipe/sim/elementary.hpp"
#include "heteropipe/sim/random.hpp"

namespace heteropipe::test {

class TestRandom {
 public:
  explicit TestRandom(std::uint64_t seed) : stream_(seed, 0, 0) {}

  // 64 random bits.
  std::uint64_t operator()() { return stream_.next_bits(); }
  // Uniform in (low, high).
  double uniform(double low, double high) { return low + (high - low) * stream_.uniform(); }
  // Uniform over the integers low..high (the modulo's bias is below 2^-50 here).
  std::int64_t integer(std::int64_t low, std::int64_t high) {
    return low + static_cast<std::int64_t>((*this)() % static_cast<std::uint64_t>(high - low + 1));
  }
  // e^u for u uniform in (log low, log high).
  double log_uniform(double low, double high) {
    return sim::portable_exp(uniform(sim::portable_log(low), sim::portable_log(high)));
  }
  // 10^u for u uniform in (low, high).
  double ten_to_uniform(double low, double high) {
    constexpr double kLn10 = 2.302585092994045684;
    return sim::portable_exp(kLn10 * uniform(low, high));
  }
  // Fisher-Yates.
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[static_cast<std::size_t>(integer(0, i - 1))]);
  }

 private:
  sim::Stream stream_;
};

}  // namespace heteropipe::test
