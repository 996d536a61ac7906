#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

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
  // x[b mod 256] with the sign bit 8 of b gives, at b mod 512: the sign
  // comes with the layer's edge in one load, without a branch (which would
  // fail half the time) or bit work.
  double signed_x[512];
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
  std::uint64_t next_bits() { return step(s_); }
  // Uniform in the open interval (0, 1): (k + 0.5) / 2^53, k in [0, 2^53).
  double uniform() { return unit(next_bits()); }
  // Standard normal by a ziggurat of 256 layers (docs/simulation.md): bits
  // 0-7 of one draw pick the layer, bit 8 the sign, bits 11-63 the position;
  // about 99% of the time that is all it takes.
  double normal() {
    const std::uint64_t b = next_bits();
    const double x = normal_core(detail::ziggurat(), b);
    return x == x ? x : normal_edge(b, unit(b) * detail::ziggurat().x[b & 0xFF]);
  }
  // n normals into out, the same as n calls of normal(): the generator's state
  // in locals (registers) and the table found once, outside the loop.
  void normals(double* out, std::int64_t n) {
    const detail::Ziggurat& z = detail::ziggurat();
    std::uint64_t s[4] = {s_[0], s_[1], s_[2], s_[3]};
    for (std::int64_t i = 0; i < n; ++i) {
      const std::uint64_t b = step(s);
      out[i] = normal_core(z, b);
      if (out[i] == out[i]) continue;
      for (int w = 0; w < 4; ++w) s_[w] = s[w];
      out[i] = normal_edge(b, unit(b) * z.x[b & 0xFF]);
      for (int w = 0; w < 4; ++w) s[w] = s_[w];
    }
    for (int w = 0; w < 4; ++w) s_[w] = s[w];
  }

 private:
  Stream() = default;
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  // xoshiro256**: the next output of state s, and s advanced.
  static std::uint64_t step(std::uint64_t (&s)[4]) {
    const std::uint64_t result = rotl(s[1] * 5, 7) * 9;
    const std::uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }
  // The normal for bits b when b's point lies in its layer's core, where
  // every point is under the curve; NaN when it lies outside (normal_edge's
  // case). The signed edge gives the product its sign exactly.
  static double normal_core(const detail::Ziggurat& z, std::uint64_t b) {
    const double x = unit(b) * z.signed_x[b & 0x1FF];
    return std::fabs(x) < z.x[(b & 0xFF) + 1] ? x : std::numeric_limits<double>::quiet_NaN();
  }
  static double unit(std::uint64_t b) {
    constexpr double kUnit = 1.0 / 9007199254740992.0;  // 2^-53
    return (static_cast<double>(b >> 11) + 0.5) * kUnit;
  }
  // The rest of a normal draw whose bits b fell outside the layer's core.
  double normal_edge(std::uint64_t b, double x);
  double normal_tail(double r);
  std::uint64_t s_[4] = {0, 0, 0, 0};
};

// The splitmix64 output function of x (its state advanced by the golden gamma).
std::uint64_t splitmix64(std::uint64_t x);

}  // namespace heteropipe::sim
