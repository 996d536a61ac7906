#pragma once

#include <optional>
#include <string>
#include <vector>

#include "heteropipe/analysis.hpp"
#include "heteropipe/error.hpp"

// A request as a person types it (the CLI's arguments, the pages' fields),
// read through the shared parser and judged field by field, so that every
// interface reports the same errors for the same text.
namespace heteropipe {

struct RequestText {
  std::string tau, d;
  std::string M = "8", rho = "1";
  std::optional<std::string> T_real;  // absent: no measured makespan
};

struct ReadRequest {
  AnalysisRequest request;  // fields that failed keep their defaults
  std::vector<Error> errors;  // at most one per field, in field order; empty when valid
};

ReadRequest read_request(const RequestText& text);

// The request and its errors (see visit.hpp; an Error's visitor, with its
// English sentence, is in heteropipe/text/error_text.hpp).
template <class Visitor>
void visit_fields(const ReadRequest& read, Visitor&& visit) {
  const AnalysisRequest& r = read.request;
  visit("request", object([&r](auto&& fields) {
          fields("tau", r.tau);
          fields("d", r.d);
          fields("M", r.M);
          fields("rho", r.rho);
          if (r.T_real) fields("T_real", *r.T_real);
        }));
  visit("errors", objects(read.errors));
}

}  // namespace heteropipe
