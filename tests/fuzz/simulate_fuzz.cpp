// The simulator's options as typed (`heteropipe simulate`), cut at "\n--\n"
// lines: tau, d, M, links, shared, buffers, service, link-service, reps,
// seed, a service matrix and a link matrix; read as the CLI reads them, then
// simulated when the run is small enough for a fuzzer's pace.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_support.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "heteropipe/request_text.hpp"
#include "heteropipe/sim/simulate.hpp"
#include "heteropipe/sim/text_input.hpp"

namespace {

using namespace heteropipe;

template <class T, class Target>
void keep(std::vector<Error>& errors, Result<T> parsed, Target& target) {
  if (parsed) target = std::move(parsed).value();
  else errors.push_back(parsed.error());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto f = fuzz::parts(fuzz::bytes(data, size), 12);
  f.resize(12);
  RequestText typed;
  typed.tau = std::string(f[0]);
  typed.d = std::string(f[1]);
  typed.M = f[2].empty() ? "8" : std::string(f[2]);
  const ReadRequest request = read_request(typed);
  std::vector<Error> errors = request.errors;
  sim::Options o;
  o.M = request.request.M;
  keep(errors, sim::link_mode_from_name(f[3].empty() ? "async" : f[3]), o.links);
  keep(errors, sim::parse_shared(f[4]), o.shared);
  if (!f[5].empty()) keep(errors, sim::parse_buffers(f[5]), o.buffers);
  sim::Distribution service, link_service;
  keep(errors, sim::parse_distribution(f[6].empty() ? "deterministic" : f[6], Field::service), service);
  keep(errors, sim::parse_distribution(f[7].empty() ? "deterministic" : f[7], Field::link_service), link_service);
  o.service = {service};
  o.link_service = {link_service};
  keep(errors, parse_count(f[8].empty() ? "1" : f[8], Field::reps, 1, limits::kMaxReps), o.reps);
  keep(errors, parse_count(f[9].empty() ? "0" : f[9], Field::seed, 0, limits::kMaxBatches), o.seed);
  const std::size_t S = request.request.tau.size();
  if (request.errors.empty() && S > 0) {
    if (!f[10].empty()) {
      std::optional<std::vector<double>> m;
      keep(errors, sim::parse_table(f[10], Field::service_matrix, S, limits::kMaxSimCells), m);
      o.service_matrix = std::move(m);
    }
    if (!f[11].empty() && S > 1) {
      std::optional<std::vector<double>> m;
      keep(errors, sim::parse_table(f[11], Field::link_matrix, S - 1, limits::kMaxSimCells), m);
      o.link_matrix = std::move(m);
    }
  }
  if (!errors.empty()) {
    fuzz::check_errors(errors);
    return 0;
  }
  const auto pipeline = Pipeline::create(request.request.tau, request.request.d);
  if (!pipeline) {
    fuzz::check_error(pipeline.error());
    return 0;
  }
  // The option checks run at any size; the run itself only when it is small
  // (limits.hpp bounds a large one in seconds, too slow for a fuzzer).
  const auto problems = sim::option_errors(pipeline.value(), o);
  if (!problems.empty()) {
    fuzz::check_errors(problems);
    return 0;
  }
  if (o.M * static_cast<double>(S) * o.reps > 20000) return 0;
  o.timeline = o.M * static_cast<double>(S) <= 2000;
  const auto simulation = sim::simulate(pipeline.value(), o);
  if (simulation) fuzz::check_result(simulation.value());
  else fuzz::check_error(simulation.error());
  return 0;
}
