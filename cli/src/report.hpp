#pragma once

#include <optional>
#include <ostream>

#include "heteropipe/analysis.hpp"

// The two views of one analysis: a table for people and JSON for programs.
namespace heteropipe::cli {

// Exact-recurrence makespans, shown next to the closed forms (--recurrence).
struct RecurrenceMakespans {
  double asynchronous = 0, blocking = 0;
};

void write_table(std::ostream& out, const Analysis& a, const std::optional<RecurrenceMakespans>& recurrence);
void write_json(std::ostream& out, const Analysis& a, const std::optional<RecurrenceMakespans>& recurrence);

}  // namespace heteropipe::cli
