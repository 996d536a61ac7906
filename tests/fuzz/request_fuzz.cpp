// The calculator's request as typed (tau, d, M, rho, T_real cut at "\n--\n"
// lines), read by read_request and analyzed, with both regimes' timelines
// when small, as the CLI and the pages do.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "heteropipe/analysis.hpp"
#include "heteropipe/request_text.hpp"
#include "heteropipe/schedule.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace heteropipe;
  const auto fields = fuzz::parts(fuzz::bytes(data, size), 5);
  RequestText typed;
  typed.tau = std::string(fields[0]);
  if (fields.size() > 1) typed.d = std::string(fields[1]);
  if (fields.size() > 2) typed.M = std::string(fields[2]);
  if (fields.size() > 3) typed.rho = std::string(fields[3]);
  if (fields.size() > 4) typed.T_real = std::string(fields[4]);
  const ReadRequest read = read_request(typed);
  if (!read.errors.empty()) {
    fuzz::check_errors(read.errors);
    return 0;
  }
  const auto analysis = analyze(read.request);
  if (!analysis) {
    fuzz::check_error(analysis.error());
    return 0;
  }
  fuzz::check_result(analysis.value());
  const auto pipeline = Pipeline::create(read.request.tau, read.request.d);
  if (!pipeline) fuzz::fail("an analyzed request whose pipeline is refused", "Pipeline::create");
  if (read.request.M * static_cast<double>(read.request.tau.size()) <= 20000) {
    for (Regime regime : {Regime::async, Regime::blocking}) {
      const auto t = timeline(pipeline.value(), read.request.M, regime);
      if (t) fuzz::check_result(t.value());
      else fuzz::check_error(t.error());
      const auto T = recurrence_makespan(pipeline.value(), read.request.M, regime);
      if (T) fuzz::finite(T.value(), "recurrence_makespan");
      else fuzz::check_error(T.error());
    }
  }
  return 0;
}
