// The planner's operations (tool_bindings.cpp): the whole report for an
// input given as JSON text, read by the one reader every front end shares,
// and the catalog the estimator draws on.
#include <utility>

#include "heteropipe/limits.hpp"
#include "heteropipe/plan/catalog.hpp"
#include "heteropipe/plan/gguf.hpp"
#include "heteropipe/plan/report.hpp"
#include "heteropipe/plan/read_json.hpp"
#include "operations.hpp"

namespace heteropipe::wasm {

double plan(double staging) {
  Request in(staging);
  auto text = in.text("input", Field::input);
  if (!text) return refuse(text.error());
  const PlanJson read = read_plan_json(text.value());
  if (!read.errors.empty()) return refuse(read.errors);
  auto report = make_plan_report(read.request);
  return report ? answer(std::move(report).value()) : refuse(report.error());
}

double model_info(double staging) {
  Request in(staging);
  auto bytes = in.text("bytes", Field::gguf, limits::kMaxGgufHeaderBytes);
  if (!bytes) return refuse(bytes.error());
  const double size = in.number("size", Field::gguf, 0);
  auto step = read_gguf(bytes.value(), size);
  return step ? answer(std::move(step).value()) : refuse(step.error());
}

double catalog(double staging) {
  { Request nothing(staging); }
  return answer(Catalog{});
}

}  // namespace heteropipe::wasm
