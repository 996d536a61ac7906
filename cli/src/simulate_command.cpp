#include "simulate_command.hpp"

#include <algorithm>
#include <sstream>

#include "heteropipe/cli/cli.hpp"
#include "heteropipe/heteropipe.hpp"
#include "heteropipe/text/error_text.hpp"
#include "heteropipe/text/input_text.hpp"
#include "heteropipe/text/numbers.hpp"
#include "json.hpp"
#include "read_file.hpp"
#include "simulate_report.hpp"

namespace heteropipe::cli {
namespace {

// What the typed options become, and every field's first error.
struct Read {
  AnalysisRequest request;
  sim::Options options;
  std::vector<Error> errors;
  std::vector<std::string> file_errors;  // "FILE: cannot be read"
};

template <class T, class Target>
void keep(Read& r, Result<T> parsed, Target& target) {
  if (parsed) target = std::move(parsed).value();
  else r.errors.push_back(parsed.error());
}

// A table file's values, `width` per row, flattened, or nothing (the reason recorded).
std::optional<std::vector<double>> table_of(Read& r, const std::string& file, Field field, std::size_t width,
                                            double max_values) {
  std::string content;
  if (auto problem = read_file(file, content, limits::kMaxTextBytes)) {
    r.file_errors.push_back(std::move(*problem));
    return std::nullopt;
  }
  auto table = sim::parse_table(content, field, width, max_values);
  if (!table) {
    r.errors.push_back(table.error());
    return std::nullopt;
  }
  return std::move(table).value();
}

// A matrix (service: S columns; links: S-1) row by row; a row of the wrong
// length is its own error. Given, even empty (the core refuses an empty one
// by its count).
void read_matrix(Read& r, const std::string& file, std::size_t width, Field field,
                 std::optional<std::vector<double>>& target) {
  auto matrix = table_of(r, file, field, width, limits::kMaxSimCells);
  if (matrix) target = std::move(*matrix);
}

// A column per stage, each sample used as measured.
void read_samples(Read& r, const std::string& file, std::size_t S) {
  auto table = table_of(r, file, Field::service_samples, S, limits::kMaxServiceSamples);
  if (!table) return;
  std::vector<sim::Empirical> stages(S);
  for (std::size_t k = 0; k < table->size(); ++k) stages[k % S].values.push_back((*table)[k]);
  r.options.service_samples = std::move(stages);
}

Read read(const SimulateChoices& c) {
  Read r;
  RequestText typed;
  typed.tau = c.tau;
  typed.d = c.d;
  typed.M = c.M;
  const ReadRequest request = read_request(typed);
  r.request = request.request;
  r.errors = request.errors;
  r.options.M = r.request.M;
  keep(r, sim::link_mode_from_name(c.links), r.options.links);
  keep(r, sim::parse_shared(c.shared), r.options.shared);
  if (c.buffers) keep(r, sim::parse_buffers(*c.buffers), r.options.buffers);
  sim::Distribution service, link_service;
  keep(r, sim::parse_distribution(c.service, Field::service), service);
  keep(r, sim::parse_distribution(c.link_service, Field::link_service), link_service);
  r.options.service = {service};
  r.options.link_service = {link_service};
  keep(r, parse_count(c.reps, Field::reps, 1, limits::kMaxReps), r.options.reps);
  keep(r, parse_count(c.seed, Field::seed, 0, limits::kMaxBatches), r.options.seed);
  const bool tau_ok = std::none_of(r.errors.begin(), r.errors.end(), [](const Error& e) { return e.field == Field::tau; });
  if (tau_ok) {
    const std::size_t S = r.request.tau.size();
    if (c.service_matrix) read_matrix(r, *c.service_matrix, S, Field::service_matrix, r.options.service_matrix);
    if (c.link_matrix) read_matrix(r, *c.link_matrix, S - 1, Field::link_matrix, r.options.link_matrix);
    if (c.service_samples) read_samples(r, *c.service_samples, S);
  }
  r.options.timeline = c.timeline;
  return r;
}

int refuse(const std::vector<Error>& errors, const std::vector<std::string>& file_errors, std::ostream& err) {
  for (const std::string& line : file_errors) err << "error: " << line << '\n';
  for (const Error& e : errors) err << "error: " << text::describe(e) << '\n';
  return kExitBadInput;
}

}  // namespace

int run_simulate(const SimulateChoices& c, std::ostream& out, std::ostream& err) {
  if (!c.tau_given) {
    err << "error: " << text::kTauRequired << '\n';
    return kExitBadInput;
  }
  if (c.service_matrix && c.service_samples) {
    err << "error: " << text::kServiceGivenTwice << '\n';
    return kExitBadInput;
  }
  Read r = read(c);
  if (!r.errors.empty() || !r.file_errors.empty()) return refuse(r.errors, r.file_errors, err);
  const auto pipeline = Pipeline::create(r.request.tau, r.request.d);
  if (!pipeline) return refuse({pipeline.error()}, {}, err);
  const auto simulation = sim::simulate(pipeline.value(), r.options);
  if (!simulation) return refuse({simulation.error()}, {}, err);

  std::ostringstream text;
  if (c.json) text << to_json(simulation.value()).dump(2) << '\n';
  else if (c.timeline) write_run_csv(text, simulation.value().run);
  else write_simulation_table(text, simulation.value());
  out << text.str();
  out.flush();
  if (out) return kExitOk;
  err << "error: " << text::kCannotWriteOutput << '\n';
  return kExitOutputFailed;
}

}  // namespace heteropipe::cli
