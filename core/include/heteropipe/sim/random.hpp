#pragma once

#include <cstdint>

// The simulator's randomness, written out in full so that the native build,
// the WebAssembly module and the Python extension draw the same bits for the
// same seed: xoshiro256** seeded through splitmix64, and transforms that use
// only +, -, x, /, sqrt (exact in IEEE 754), log and exp (no
// std::*_distribution, whose algorithms differ between standard libraries).
namespace heteropipe::sim {

// One independent stream of draws. Each stage and each link of each
// replication has its own, so the draws of a cell never depend on the order
// in which an engine visits cells.
class Stream {
 public:
  // Stream `index` (stages 0..S-1, then links S..2S-2) of replication `rep`.
  Stream(std::uint64_t seed, std::uint64_t rep, std::uint64_t index);
  // A stream from xoshiro256**'s raw state (for checking it against the
  // published reference outputs).
  static Stream from_state(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d);

  std::uint64_t next_bits();
  // Uniform in the open interval (0, 1): (k + 0.5) / 2^53, k in [0, 2^53).
  double uniform();
  // Standard normal by Marsaglia's polar method; the second value of each
  // pair is kept for the next call.
  double normal();

 private:
  Stream() = default;
  std::uint64_t s_[4] = {0, 0, 0, 0};
  double spare_ = 0;
  bool has_spare_ = false;
};

// The splitmix64 output function of x (its state advanced by the golden gamma).
std::uint64_t splitmix64(std::uint64_t x);

}  // namespace heteropipe::sim
