#pragma once

#include <cstdint>
#include <cstring>

// The simulator's randomness, written out in full so that the native build,
// the WebAssembly module and the Python extension draw the same bits for the
// same seed: xoshiro256** seeded through splitmix64, and transforms that use
// only +, -, x, /, sqrt (exact in IEEE 754) and the core's own exp and log
// (elementary.hpp; no std::*_distribution, whose algorithms differ between
// standard libraries, and no C library exp or log, whose last bits do).
namespace heteropipe::sim {

namespace detail {
// The ziggurat's layer edges x[0..256] and f(x) = e^(-x^2/2) at each
// (random.cpp builds them once).
struct Ziggurat {
  double x[257];
  double f[257];
};
Ziggurat build_ziggurat();
inline const Ziggurat& ziggurat() {
  static const Ziggurat table = build_ziggurat();
  return table;
}
}  // namespace detail

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

  // Defined here, not in random.cpp, so that an engine's loop inlines them.
  std::uint64_t next_bits() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in the open interval (0, 1): (k + 0.5) / 2^53, k in [0, 2^53).
  double uniform() { return unit(next_bits()); }
  // Standard normal by a ziggurat of 256 layers (docs/simulation.md): bits
  // 0-7 of one draw pick the layer, bit 8 the sign, bits 11-63 the position;
  // about 99% of the time that is all it takes.
  double normal() {
    const std::uint64_t b = next_bits();
    const detail::Ziggurat& z = detail::ziggurat();
    const auto i = static_cast<unsigned>(b & 0xFF);
    const double x = unit(b) * z.x[i];
    // Inside the part of the layer that lies wholly under the curve: the sign
    // bit set from bit 8 without a branch, which would fail half the time.
    if (x < z.x[i + 1]) return with_sign_of_bit_8(x, b);
    return normal_edge(b, x);
  }

 private:
  Stream() = default;
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static double unit(std::uint64_t b) {
    constexpr double kUnit = 1.0 / 9007199254740992.0;  // 2^-53
    return (static_cast<double>(b >> 11) + 0.5) * kUnit;
  }
  static double with_sign_of_bit_8(double x, std::uint64_t b) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    bits ^= (b & 0x100) << 55;
    std::memcpy(&x, &bits, sizeof x);
    return x;
  }
  // The rest of a normal draw whose bits b fell outside the layer's core.
  double normal_edge(std::uint64_t b, double x);
  double normal_tail(double r);
  std::uint64_t s_[4] = {0, 0, 0, 0};
};

// The splitmix64 output function of x (its state advanced by the golden gamma).
std::uint64_t splitmix64(std::uint64_t x);

}  // namespace heteropipe::sim
