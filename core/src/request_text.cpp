#include "heteropipe/request_text.hpp"

#include <algorithm>

#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"

namespace heteropipe {
namespace {

bool has_error(const std::vector<Error>& errors, Field field) {
  return std::any_of(errors.begin(), errors.end(), [&](const Error& e) { return e.field == field; });
}

}  // namespace

ReadRequest read_request(const RequestText& text) {
  ReadRequest out;
  AnalysisRequest& r = out.request;
  auto keep = [&](auto parsed, auto& target) {
    if (parsed) {
      target = std::move(parsed).value();
    } else {
      out.errors.push_back(parsed.error());
    }
    return parsed.ok();
  };
  const bool tau_parsed = keep(parse_number_list(text.tau, Field::tau), r.tau);
  keep(parse_number_list(text.d, Field::d), r.d);
  keep(parse_count(text.M, Field::M, limits::kMinBatches, limits::kMaxBatches), r.M);
  keep(parse_number(text.rho, Field::rho), r.rho);
  if (text.T_real) {
    double T_real = 1;
    keep(parse_number(*text.T_real, Field::T_real), T_real);
    r.T_real = T_real;
  }

  // A field that did not parse is judged no further; a stand-in tau of the
  // right length lets d be judged on its own.
  AnalysisRequest judged = r;
  if (!tau_parsed) judged.tau.assign(judged.d.size() + 1, 1.0);
  const std::vector<Error> parse_errors = out.errors;
  for (Error& e : check_request(judged)) {
    if (has_error(parse_errors, e.field)) continue;
    // A typed scalar is quoted as typed (1e-400, not the 0 it rounds to), and
    // so is a list's item (1e16, not 1e+16).
    if (e.field == Field::rho) e.token = std::string(trim_blanks(text.rho));
    if (e.field == Field::T_real && text.T_real) e.token = std::string(trim_blanks(*text.T_real));
    quote_list_item(e, Field::tau, text.tau);
    quote_list_item(e, Field::d, text.d);
    out.errors.push_back(std::move(e));
  }
  // At most one error per field, reported in field order (a plain pass, not
  // a sort, whose code would have made the wasm module larger).
  std::vector<Error> ordered;
  for (Field field : {Field::tau, Field::d, Field::M, Field::rho, Field::T_real}) {
    for (Error& e : out.errors) {
      if (e.field == field) ordered.push_back(std::move(e));
    }
  }
  out.errors = std::move(ordered);
  return out;
}

}  // namespace heteropipe
