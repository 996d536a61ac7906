#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "heteropipe/trace/model.hpp"
#include "pattern.hpp"

// What each event is to the model, decided once per (name, category).
namespace heteropipe::trace_detail {

enum class Role : std::uint8_t { other, compute, transfer, collective, annotation };

class Classifier {
 public:
  // bad_pattern when a pattern is not the dialect's (pattern.hpp).
  static Result<Classifier> create(const TraceOptions& options);

  Role role(const TraceEvents& events, const TraceEvent& e);
  // A run with no kernel events is a CPU pipeline: without a compute regex,
  // its host events are compute (see role()).
  void set_cpu_run(bool cpu_run) { cpu_run_ = cpu_run; }
  bool cpu_run() const { return cpu_run_; }
  // A host transfer that wraps the transport's own event (c10d::,
  // record_param_comms): one message shows as both, and the transport's
  // times are the message's.
  bool is_wrapper(const TraceEvents& events, const TraceEvent& e) const;
  bool is_kernel(const TraceEvents& events, const TraceEvent& e) const {
    return events.names[e.category] == "kernel";
  }
  bool is_nccl(const TraceEvents& events, const TraceEvent& e) const;
  // Kineto's copy of a record_function range on the device, around the
  // kernels launched inside it.
  bool is_device_range(const TraceEvents& events, const TraceEvent& e) const {
    return events.names[e.category] == "gpu_user_annotation";
  }
  // A transfer's direction: the trace's own word, else its name's.
  Direction direction(const TraceEvents& events, const TraceEvent& e) const;
  // The micro-batch number an annotation's name gives (its pattern's first
  // group, when that is a whole number).
  // Kept per name: a trace may repeat one long name in every range.
  std::optional<std::int64_t> microbatch_number(const TraceEvents& events, const TraceEvent& e);
  // bad_pattern (kPatternTooSlow) once a pattern has taken more than
  // limits::kMaxPatternWork steps; from then on no name is matched, so the
  // import stops soon after and returns this error.
  std::optional<Error> too_slow() const;

 private:
  std::optional<Pattern> compute_, transfer_, microbatch_;
  std::unordered_map<std::uint64_t, Role> roles_;
  std::unordered_map<std::uint32_t, std::optional<std::int64_t>> numbers_;
  std::string compute_text_, transfer_text_, microbatch_text_;
  bool cpu_run_ = false;
};

}  // namespace heteropipe::trace_detail
