#pragma once

#include <optional>
#include <ostream>
#include <string>

// `heteropipe simulate`: the exact simulation beyond the closed forms, with
// Monte Carlo (docs/cli.md#simulate, the model in docs/simulation.md).
namespace heteropipe::cli {

// Every option as typed; the core reads each.
struct SimulateChoices {
  std::string tau, d, M = "8";
  std::string links = "async";
  std::string shared;
  std::optional<std::string> buffers;  // none given: every buffer infinite
  std::string service = "deterministic", link_service = "deterministic";
  std::optional<std::string> service_matrix, link_matrix, service_samples;  // file names
  std::string reps = "1", seed = "0";
  bool json = false, timeline = false;
  bool tau_given = false;
};

int run_simulate(const SimulateChoices& choices, std::ostream& out, std::ostream& err);

}  // namespace heteropipe::cli
