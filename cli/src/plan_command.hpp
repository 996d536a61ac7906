#pragma once

#include <ostream>
#include <string>

// `heteropipe plan FILE`: the optimal layer split of a model over devices in
// a chain, from the planner's explicit JSON input (docs/cli.md#plan).
namespace heteropipe::cli {

struct PlanChoices {
  std::string file;  // "-" for standard input
  bool json = false;
  std::string calibrate;  // a llama-bench JSON file; empty: none
};

int run_plan(const PlanChoices& choices, std::ostream& out, std::ostream& err);

}  // namespace heteropipe::cli
