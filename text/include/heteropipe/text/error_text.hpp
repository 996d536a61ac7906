#pragma once

#include <string>

#include "heteropipe/error.hpp"

// The one English wording of the core's errors. The CLI, the Python package
// and the JS module all print this sentence; the Chinese page words the same
// codes in its own table.
namespace heteropipe::text {

// "<field>, item <n>: <what>" (n 1-based) or "<field>: <what>", e.g.
// "tau, item 2: must be >= 0 (got -1)"; a matrix's cell names its row and
// column: "service_matrix, row 2, column 3: must be >= 0 (got -1)".
std::string describe(const Error& error);

// The same sentence without the field's name, for a front end that names the
// field in its own words before it: "item 2: must be >= 0 (got -1)", or
// "must be >= 0 (got -1)" about the whole field. A sentence that names its
// own place (a trace file's byte, a misspelt key) is whole, as describe's.
std::string describe_detail(const Error& error);

}  // namespace heteropipe::text

namespace heteropipe {

// An error as every front end serializes it: the core's fields and the
// English sentence.
template <class Visitor>
void visit_fields(const Error& e, Visitor&& visit) {
  visit_error_fields(e, visit);
  const std::string message = text::describe(e);
  visit("message", std::string_view(message));
  const std::string detail = text::describe_detail(e);
  visit("detail", std::string_view(detail));
}

}  // namespace heteropipe
