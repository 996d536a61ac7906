// check, and reading typed text.
#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "heteropipe/analysis.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "heteropipe/request_text.hpp"
#include "heteropipe/text/error_text.hpp"
#include "memory.hpp"
#include "operations.hpp"

namespace heteropipe::wasm {
namespace {

constexpr auto kMaxStages = static_cast<double>(limits::kMaxStages);

// At most one error per field, in field order (as check_request and
// read_request give them): `first` wins over `rest` for its field.
std::vector<Error> one_per_field(std::vector<Error> first, std::vector<Error> rest) {
  std::vector<Error> out;
  for (Field field : kFields) {
    auto of = [field](const Error& e) { return e.field == field; };
    if (auto e = std::find_if(first.begin(), first.end(), of); e != first.end()) {
      out.push_back(std::move(*e));
    } else if (auto r = std::find_if(rest.begin(), rest.end(), of); r != rest.end()) {
      out.push_back(std::move(*r));
    }
  }
  return out;
}

double errors_reply(std::vector<Error> errors) {
  return answer(std::move(errors), [](const std::vector<Error>& e, Writer& w) { w("errors", objects(e)); });
}

// Items a text of `bytes` can hold: one per two bytes (a digit and a
// separator), and the parser stops one past the limit.
double items_in(double bytes) { return std::min(bytes / 2 + 1, kMaxStages + 1); }

}  // namespace

// Every error at once, never a failed reply. A list that cannot be read is
// reported as such, and the rest of the request is checked without it.
double check(double staging) {
  Request in(staging);
  AnalysisRequest request;
  std::vector<Error> unread;
  auto tau = in.list("tau", Field::tau, kMaxStages);
  auto d = in.list("d", Field::d, kMaxStages);
  if (tau) request.tau = std::move(tau).value(); else unread.push_back(tau.error());
  if (d) request.d = std::move(d).value(); else unread.push_back(d.error());
  request.M = in.number("M", Field::M, request.M);
  request.rho = in.number("rho", Field::rho, request.rho);
  request.T_real = in.number("T_real", Field::T_real);
  // check_request copies both lists, and may fill in links and a stand-in tau.
  const double work = 4.0 * static_cast<double>(request.tau.size() + request.d.size() + 1) * sizeof(double);
  std::vector<Error> found;
  if (room_for(work)) {
    for (const Error& e : check_request(request)) found.push_back(in.annotated(e));
  } else {
    unread.push_back(out_of_memory(Field::tau, work));
  }
  return errors_reply(one_per_field(std::move(unread), std::move(found)));
}

// Typed fields read as the core reads them: the request and every error, at
// most one per field. A text too long (or too large for memory) is that
// field's error, and the field keeps its default.
double read_request(double staging) {
  Request in(staging);
  std::array<std::optional<std::string_view>, kFields.size()> typed;
  std::vector<Error> unread;
  double bytes = 0, items = 0;
  Field largest = Field::tau;
  for (std::size_t k = 0; k < kFields.size(); ++k) {
    const std::string_view name = field_name(kFields[k]);
    if (!in.has(name)) continue;
    auto text = in.text(name, kFields[k]);
    if (!text) {
      unread.push_back(text.error());
      continue;
    }
    typed[k] = text.value();
    if (typed[k]->size() > typed[static_cast<std::size_t>(largest)].value_or("").size()) largest = kFields[k];
    bytes += static_cast<double>(text.value().size());
    if (is_list(kFields[k])) items += items_in(static_cast<double>(text.value().size()));
  }
  // The texts are copied, then each list is parsed (a vector that doubles as
  // it grows), copied to be judged, and copied again by the judge.
  const double work = bytes + 7.0 * items * sizeof(double);
  if (!room_for(work)) {
    ReadRequest refused;
    refused.errors.push_back(out_of_memory(largest, work));
    return answer(std::move(refused));
  }
  RequestText text;
  if (typed[0]) text.tau = *typed[0];
  if (typed[1]) text.d = *typed[1];
  if (typed[2]) text.M = *typed[2];
  if (typed[3]) text.rho = *typed[3];
  if (typed[4]) text.T_real = std::string(*typed[4]);
  ReadRequest read = heteropipe::read_request(text);
  read.errors = one_per_field(std::move(unread), std::move(read.errors));
  return answer(std::move(read));
}

double parse_list(double staging) {
  Request in(staging);
  const Field field = field_named(in.word("field"));
  auto text = in.text("text", field);
  if (!text) return refuse(text.error());
  const double work = 3.0 * items_in(static_cast<double>(text.value().size())) * sizeof(double);
  if (!room_for(work)) return refuse(out_of_memory(field, work));
  auto values = parse_number_list(text.value(), field);
  if (!values) return refuse(values.error());
  return answer(std::move(values).value(), [](const std::vector<double>& v, Writer& w) { w("values", v); });
}

double parse_number(double staging) {
  Request in(staging);
  const Field field = field_named(in.word("field"));
  auto text = in.text("text", field);
  if (!text) return refuse(text.error());
  auto number = heteropipe::parse_number(text.value(), field);
  return number ? value(number.value()) : refuse(number.error());
}

}  // namespace heteropipe::wasm
