#pragma once

#include <ostream>
#include <string>
#include <vector>

// `heteropipe trace FILE...`: tau, d, M and T_real recovered from profiler
// traces or a schedule CSV, with where the run sits in the sandwich
// (docs/traces.md).
namespace heteropipe::cli {

struct TraceChoices {
  std::vector<std::string> files;  // "-" for standard input
  bool json = false;
  std::string stat = "p50", unit = "ms", stage_order, clock_offsets, profiler_step;
  // Given on the command line, even as '': an empty value is refused, not taken for the default.
  bool stage_order_given = false, clock_offsets_given = false, profiler_step_given = false;
  std::string compute, transfer, microbatch;
};

int run_trace(const TraceChoices& choices, std::ostream& out, std::ostream& err);

}  // namespace heteropipe::cli
