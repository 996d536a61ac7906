#include "heteropipe/sim/random.hpp"

#include <cmath>

#include "heteropipe/sim/elementary.hpp"

namespace heteropipe::sim {
namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;

}  // namespace

std::uint64_t splitmix64(std::uint64_t x) {
  std::uint64_t z = x + kGolden;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

Stream::Stream(std::uint64_t seed, std::uint64_t rep, std::uint64_t index) {
  // Each of seed, replication and stream goes through the mixer in turn, so
  // nearby triples give unrelated states; the state words are the next four
  // outputs of splitmix64 from there (never all zero in practice, and
  // xoshiro's authors seed it this way).
  std::uint64_t x = splitmix64(splitmix64(splitmix64(seed) ^ rep) ^ index);
  for (std::uint64_t& word : s_) {
    word = splitmix64(x);
    x += kGolden;
  }
}

Stream Stream::from_state(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
  Stream s;
  s.s_[0] = a;
  s.s_[1] = b;
  s.s_[2] = c;
  s.s_[3] = d;
  return s;
}

namespace {

// The ziggurat: 256 layers of equal area v under f(x) = e^(-x^2/2), x >= 0.
// Layer 0 is the rectangle [0, r] x [0, f(r)] with the tail beyond r (its
// pseudo-width x[0] = v / f(r)); layer i >= 1 is [0, x[i]] x [f(x[i]),
// f(x[i+1])], from x[1] = r by x[i+1] = f^-1(v / x[i] + f(x[i])) up to x[256]
// = 0. r is the root of x[256] = 0 and v = r f(r) + the tail's integral,
// sqrt(pi/2) erfc(r/sqrt(2)); with the digits below the top layer closes
// within 1e-14. The tables come from the core's own exp and log and IEEE
// sqrt, so every build computes the same bits.
constexpr double kR = 3.6541528853610088;
constexpr double kV = 4.928673233974655e-3;

}  // namespace

detail::Ziggurat detail::build_ziggurat() {
  detail::Ziggurat z;
  double* x = z.x;
  double* f = z.f;
  x[0] = kV / portable_exp(-0.5 * kR * kR);
  x[1] = kR;
  for (int i = 1; i < 255; ++i) x[i + 1] = std::sqrt(-2 * portable_log(kV / x[i] + portable_exp(-0.5 * x[i] * x[i])));
  x[256] = 0;
  for (int i = 0; i < 256; ++i) f[i] = portable_exp(-0.5 * x[i] * x[i]);
  for (int i = 0; i < 512; ++i) z.signed_x[i] = i < 256 ? x[i] : -x[i - 256];
  f[256] = 1;
  return z;
}

double Stream::normal_edge(std::uint64_t b, double x) {
  const detail::Ziggurat& z = detail::ziggurat();
  for (;;) {
    const auto i = static_cast<unsigned>(b & 0xFF);
    const double sign = (b >> 8) & 1 ? -1.0 : 1.0;
    if (x < z.x[i + 1]) return sign * x;
    if (i == 0) return sign * normal_tail(kR);
    // In the wedge between the layer's corner and the curve: accept under f.
    const double y = z.f[i] + uniform() * (z.f[i + 1] - z.f[i]);
    if (y < portable_exp(-0.5 * x * x)) return sign * x;
    b = next_bits();
    x = unit(b) * z.x[b & 0xFF];
  }
}

// Marsaglia's tail method: beyond r, r + a with a exponential of rate r,
// accepted with probability e^(-a^2/2).
double Stream::normal_tail(double r) {
  double a = 0, e = 0;
  do {
    a = -portable_log(uniform()) / r;
    e = -portable_log(uniform());
  } while (e + e < a * a);
  return r + a;
}

}  // namespace heteropipe::sim
