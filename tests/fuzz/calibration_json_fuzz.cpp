// llama-bench's JSON records (`heteropipe plan --calibrate FILE`), read and
// then calibrating a fixed estimate, as the command appends them to its input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <variant>

#include "fuzz_support.hpp"
#include "heteropipe/plan/read_json.hpp"
#include "heteropipe/plan/report.hpp"
#include "heteropipe/text/plan_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace heteropipe;
  CalibrationJson records = read_calibration_json(fuzz::bytes(data, size), 0);
  if (!records.errors.empty()) {
    fuzz::check_errors(records.errors);
    return 0;
  }
  PlanJson read = read_plan_json(
      R"({"model": "llama-3.1-8b", "quant": "Q4_K_M", "devices": ["rtx-4080", "rtx-3090"], "M": 4})");
  if (!read.errors.empty()) std::abort();
  auto& estimate = std::get<EstimateInput>(read.request);
  for (BenchRecord& r : records.records) estimate.calibration.push_back(std::move(r));
  const auto report = make_plan_report(read.request);
  if (report) fuzz::check_result(report.value());
  else fuzz::check_error(report.error());
  return 0;
}
