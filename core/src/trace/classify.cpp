#include "classify.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>
#include <tuple>

#include "heteropipe/limits.hpp"

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

std::string lowered(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool starts_with(const std::string& name, std::string_view prefix) { return name.rfind(prefix, 0) == 0; }

// torch.distributed's host ops: gloo's transport (gloo:send, gloo:recv), the
// c10d:: wrappers around it and record_param_comms.
bool names_host_comm(const std::string& name) {
  return starts_with(name, "gloo:") || starts_with(name, "c10d::") || name == "record_param_comms";
}

bool names_send_or_recv(const std::string& name) {
  const std::string low = lowered(name);
  return low.find("send") != std::string::npos || low.find("recv") != std::string::npos;
}

// The head of a name that patterns see (see limits::kTraceNameMatchBytes).
std::string_view head(const std::string& name) {
  return std::string_view(name).substr(0, std::min(name.size(), limits::kTraceNameMatchBytes));
}

bool found_in(const std::string& name, const Pattern& pattern) { return pattern.found_in(head(name)); }

Result<std::optional<Pattern>> compile(const std::string& pattern, Field field) {
  if (pattern.empty()) return std::optional<Pattern>();
  auto compiled = Pattern::compile(pattern, field);
  if (!compiled) return compiled.error();
  return std::optional<Pattern>(std::move(compiled).value());
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
  c.compute_text_ = options.compute_regex;
  c.transfer_text_ = options.transfer_regex;
  c.microbatch_text_ = options.microbatch_regex;
  return c;
}

std::optional<Error> Classifier::too_slow() const {
  const std::tuple<const std::optional<Pattern>&, Field, const std::string&> patterns[] = {
      {compute_, Field::compute_regex, compute_text_},
      {transfer_, Field::transfer_regex, transfer_text_},
      {microbatch_, Field::microbatch_regex, microbatch_text_}};
  for (const auto& [pattern, field, text] : patterns) {
    if (pattern && pattern->work() > limits::kMaxPatternWork) {
      return Error{ErrorCode::bad_pattern, field, kWholeField, kPatternTooSlow, text, limits::kMaxPatternWork};
    }
  }
  return std::nullopt;
}

Role Classifier::role(const TraceEvents& events, const TraceEvent& e) {
  const std::uint64_t key = (static_cast<std::uint64_t>(e.name) << 32) | e.category;
  const auto found = roles_.find(key);
  if (found != roles_.end()) return found->second;
  if (too_slow()) return Role::other;  // the import returns too_slow()'s error
  const std::string& name = events.names[e.name];
  const bool kernel = is_kernel(events, e);
  const bool host_comm = !kernel && names_host_comm(name);
  // record_param_comms says what it is in its args only, so its role is not
  // the name's alone and is not cached.
  const bool by_args = host_comm && name == "record_param_comms";
  const bool host_transfer =
      host_comm && (by_args ? e.direction != Direction::unknown : names_send_or_recv(name));
  Role role = Role::other;
  if (transfer_ ? found_in(name, *transfer_) : kernel ? names_transfer(name) : host_transfer) {
    role = Role::transfer;
  } else if (compute_ && found_in(name, *compute_)) {
    role = Role::compute;
  } else if ((kernel && starts_with_nccl(name)) || (host_comm && cpu_run_)) {
    role = Role::collective;
  } else if (microbatch_ && !kernel && found_in(name, *microbatch_)) {
    role = Role::annotation;
  } else if (!compute_ && (kernel || cpu_run_)) {
    role = Role::compute;
  }
  if (!by_args) roles_.emplace(key, role);
  return role;
}

bool Classifier::is_nccl(const TraceEvents& events, const TraceEvent& e) const {
  return starts_with_nccl(events.names[e.name]);
}

bool Classifier::is_wrapper(const TraceEvents& events, const TraceEvent& e) const {
  const std::string& name = events.names[e.name];
  return !is_kernel(events, e) && (starts_with(name, "c10d::") || name == "record_param_comms");
}

Direction Classifier::direction(const TraceEvents& events, const TraceEvent& e) const {
  if (e.direction != Direction::unknown) return e.direction;
  const std::string name = lowered(events.names[e.name]);
  const bool send = name.find("send") != std::string::npos, recv = name.find("recv") != std::string::npos;
  if (send && !recv) return Direction::send;
  if (recv && !send) return Direction::recv;
  return Direction::unknown;
}

std::optional<std::int64_t> Classifier::microbatch_number(const TraceEvents& events, const TraceEvent& e) {
  const auto [it, added] = numbers_.try_emplace(e.name);
  if (!added || too_slow()) return it->second;
  const auto group = microbatch_ ? microbatch_->first_group(head(events.names[e.name])) : std::nullopt;
  if (!group) return std::nullopt;
  const std::string digits(*group);
  if (digits.empty() || digits.size() > 15 || digits.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  it->second = std::strtoll(digits.c_str(), nullptr, 10);
  return it->second;
}

}  // namespace heteropipe::trace_detail
