#include "memory.hpp"

#include <cstdlib>

namespace heteropipe::wasm {
namespace {

// Below this, a request is served from memory every call gives back.
constexpr double kAlwaysThere = 64 * 1024;
// Left over after a large block, for the small allocations that follow it.
constexpr double kHeadroom = 1024 * 1024;
// wasm32 cannot address more.
constexpr double kAddressable = 4294967296.0;

// Where the trial block's address goes: a malloc whose block nothing uses is
// assumed to succeed, and optimized away, by the compiler.
void* volatile trial;

}  // namespace

bool room_for(double bytes) {
  if (bytes < kAlwaysThere) return true;
  const double asked = bytes + kHeadroom;
  if (!(asked < kAddressable)) return false;
  trial = std::malloc(static_cast<std::size_t>(asked));
  if (trial == nullptr) return false;
  std::free(trial);
  trial = nullptr;
  return true;
}

Error out_of_memory(Field field, double bytes) {
  return Error{ErrorCode::out_of_memory, field, kWholeField, bytes, {}};
}

}  // namespace heteropipe::wasm
