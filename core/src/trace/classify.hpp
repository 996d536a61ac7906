#pragma once

#include <cstdint>
#include <optional>
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
  bool is_kernel(const TraceEvents& events, const TraceEvent& e) const {
    return events.names[e.category] == "kernel";
  }
  // A transfer's direction: the trace's own word, else its name's.
  Direction direction(const TraceEvents& events, const TraceEvent& e) const;
  // The micro-batch number an annotation's name gives (its pattern's first
  // group, when that is a whole number).
  std::optional<std::int64_t> microbatch_number(const std::string& name) const;

 private:
  std::optional<Pattern> compute_, transfer_, microbatch_;
  std::unordered_map<std::uint64_t, Role> roles_;
};

}  // namespace heteropipe::trace_detail
