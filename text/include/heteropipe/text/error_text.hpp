#pragma once

#include <string>

#include "heteropipe/error.hpp"

// The one English wording of the core's errors. The CLI, the Python package
// and the JS module all print this sentence; the Chinese page words the same
// codes in its own table.
namespace heteropipe::text {

// "<field>, item <n>: <what>" (n 1-based) or "<field>: <what>", e.g.
// "tau, item 2: must be >= 0 (got -1)".
std::string describe(const Error& error);

}  // namespace heteropipe::text

namespace heteropipe {

// An error as every front end serializes it: the core's fields and the
// English sentence.
template <class Visitor>
void visit_fields(const Error& e, Visitor&& visit) {
  visit_error_fields(e, visit);
  const std::string message = text::describe(e);
  visit("message", std::string_view(message));
}

}  // namespace heteropipe
