// The simulator's names, apart from its checks: the error sentences list the
// link modes, and a program that links those sentences (the pages' calculator
// module) need not carry the simulator.
#include <string>

#include "heteropipe/parse.hpp"
#include "heteropipe/sim/input.hpp"

namespace heteropipe::sim {
namespace {

constexpr LinkMode kModes[] = {LinkMode::async, LinkMode::blocking, LinkMode::serial};

}  // namespace

std::string_view link_mode_name(LinkMode mode) {
  switch (mode) {
    case LinkMode::async: return "async";
    case LinkMode::blocking: return "blocking";
    case LinkMode::serial: return "serial";
  }
  return "unknown";
}

std::string_view distribution_name(DistributionKind kind) {
  switch (kind) {
    case DistributionKind::deterministic: return "deterministic";
    case DistributionKind::exponential: return "exponential";
    case DistributionKind::lognormal: return "lognormal";
    case DistributionKind::gamma: return "gamma";
    case DistributionKind::uniform: return "uniform";
  }
  return "unknown";
}

Result<LinkMode> link_mode_from_name(std::string_view typed) {
  const std::string_view name = typed_value(typed);
  for (LinkMode mode : kModes) {
    if (link_mode_name(mode) == name) return mode;
  }
  if (name == "delay") return LinkMode::async;
  if (name == "block") return LinkMode::blocking;
  return Error{ErrorCode::unknown_name, Field::link_mode, kWholeField, 0.0, std::string(name)};
}

}  // namespace heteropipe::sim
