#include "heteropipe/sim/random.hpp"

#include <cmath>

namespace heteropipe::sim {
namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

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

std::uint64_t Stream::next_bits() {
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

double Stream::uniform() {
  constexpr double kUnit = 1.0 / 9007199254740992.0;  // 2^-53
  return (static_cast<double>(next_bits() >> 11) + 0.5) * kUnit;
}

double Stream::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  double u = 0, v = 0, r = 0;
  do {
    u = 2 * uniform() - 1;
    v = 2 * uniform() - 1;
    r = u * u + v * v;
  } while (r >= 1 || r == 0);
  const double factor = std::sqrt(-2 * std::log(r) / r);
  spare_ = v * factor;
  has_spare_ = true;
  return u * factor;
}

}  // namespace heteropipe::sim
