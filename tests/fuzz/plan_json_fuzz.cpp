// The planner's input JSON (explicit and estimate forms, "model" objects,
// "calibration" records), read and planned as `heteropipe plan` does.
#include <cstddef>
#include <cstdint>
#include <variant>

#include "fuzz_support.hpp"
#include "heteropipe/plan/read_json.hpp"
#include "heteropipe/plan/report.hpp"
#include "heteropipe/text/plan_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace heteropipe;
  PlanJson read = read_plan_json(fuzz::bytes(data, size));
  if (!read.errors.empty()) {
    fuzz::check_errors(read.errors);
    return 0;
  }
  // A GGUF path is the front end's to read; the gguf target plans GGUF facts.
  if (const auto* in = std::get_if<EstimateInput>(&read.request); in && !in->gguf.empty() && !in->model_info) return 0;
  const auto report = make_plan_report(read.request);
  if (report) fuzz::check_result(report.value());
  else fuzz::check_error(report.error());
  return 0;
}
