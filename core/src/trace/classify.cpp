#include "classify.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "heteropipe/limits.hpp"
#include "pattern_check.hpp"

namespace heteropipe::trace_detail {
namespace {

bool starts_with_nccl(const std::string& name) {
  if (name.size() < 4) return false;
  for (std::size_t i = 0; i < 4; ++i) {
    if (std::tolower(static_cast<unsigned char>(name[i])) != "nccl"[i]) return false;
  }
  return true;
}

bool names_transfer(const std::string& name) {
  return name.find("SendRecv") != std::string::npos || name.find("Send") != std::string::npos ||
         name.find("Recv") != std::string::npos;
}

// A regex search over the head of a name (see limits::kTraceNameMatchBytes).
bool found_in(const std::string& name, const std::regex& pattern) {
  const auto end = name.begin() + static_cast<std::ptrdiff_t>(std::min(name.size(), limits::kTraceNameMatchBytes));
  return std::regex_search(name.begin(), end, pattern);
}

Result<std::optional<std::regex>> compile(const std::string& pattern, Field field) {
  if (pattern.empty()) return std::optional<std::regex>();
  if (!pattern_is_safe(pattern)) return Error{ErrorCode::bad_pattern, field, kWholeField, 0, pattern};
  try {
    return std::optional<std::regex>(std::regex(pattern, std::regex::ECMAScript));
  } catch (const std::regex_error&) {
    return Error{ErrorCode::bad_pattern, field, kWholeField, 0, pattern};
  }
}

}  // namespace

Result<Classifier> Classifier::create(const TraceOptions& options) {
  Classifier c;
  auto compute = compile(options.compute_regex, Field::compute_regex);
  if (!compute) return compute.error();
  auto transfer = compile(options.transfer_regex, Field::transfer_regex);
  if (!transfer) return transfer.error();
  auto microbatch = compile(options.microbatch_regex, Field::microbatch_regex);
  if (!microbatch) return microbatch.error();
  c.compute_ = std::move(compute).value();
  c.transfer_ = std::move(transfer).value();
  c.microbatch_ = std::move(microbatch).value();
  return c;
}

Role Classifier::role(const TraceEvents& events, const TraceEvent& e) {
  const std::uint64_t key = (static_cast<std::uint64_t>(e.name) << 32) | e.category;
  const auto found = roles_.find(key);
  if (found != roles_.end()) return found->second;
  const std::string& name = events.names[e.name];
  const bool kernel = is_kernel(events, e);
  Role role = Role::other;
  if (transfer_ ? found_in(name, *transfer_) : kernel && names_transfer(name)) {
    role = Role::transfer;
  } else if (compute_ ? found_in(name, *compute_) : kernel && !starts_with_nccl(name)) {
    role = Role::compute;
  } else if (kernel && starts_with_nccl(name)) {
    role = Role::collective;
  } else if (microbatch_ && !kernel && found_in(name, *microbatch_)) {
    role = Role::annotation;
  }
  roles_.emplace(key, role);
  return role;
}

Direction Classifier::direction(const TraceEvents& events, const TraceEvent& e) const {
  if (e.direction != Direction::unknown) return e.direction;
  const std::string& name = events.names[e.name];
  const bool send = name.find("Send") != std::string::npos, recv = name.find("Recv") != std::string::npos;
  if (send && !recv) return Direction::send;
  if (recv && !send) return Direction::recv;
  return Direction::unknown;
}

std::optional<std::int64_t> Classifier::microbatch_number(const std::string& name) const {
  std::smatch match;
  const auto end = name.begin() + static_cast<std::ptrdiff_t>(std::min(name.size(), limits::kTraceNameMatchBytes));
  if (!microbatch_ || !std::regex_search(name.begin(), end, match, *microbatch_) || match.size() < 2 ||
      !match[1].matched) {
    return std::nullopt;
  }
  const std::string digits = match[1].str();
  if (digits.empty() || digits.size() > 15 || digits.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::strtoll(digits.c_str(), nullptr, 10);
}

}  // namespace heteropipe::trace_detail
