// The command line's run: arguments to the core, the core's results to text.
// It does no arithmetic of its own.
#include <memory>
#include <sstream>

#include "csv.hpp"
#include "heteropipe/cli/cli.hpp"
#include "heteropipe/heteropipe.hpp"
#include "heteropipe/text/error_text.hpp"
#include "heteropipe/text/input_text.hpp"
#include "heteropipe/text/numbers.hpp"
#include "options.hpp"
#include "report.hpp"
#include "usage.hpp"

namespace heteropipe::cli {
namespace {

const char* const kDescription =
    "Exact makespans, GPipe homogeneity bias, phase transition and async-blocking sandwich\n"
    "for heterogeneous micro-batch pipelines.";

int print_errors(const std::vector<Error>& errors, std::ostream& err) {
  for (const Error& e : errors) err << "error: " << text::describe(e) << '\n';
  return kExitBadInput;
}

int finish(std::ostream& out, std::ostream& err) {
  out.flush();
  if (out) return kExitOk;
  err << "error: " << text::kCannotWriteOutput << '\n';
  return kExitOutputFailed;
}

int compute(const Choices& c, std::ostream& out, std::ostream& err) {
  const ReadRequest read = read_request(c.typed);
  if (!read.errors.empty()) return print_errors(read.errors, err);
  const AnalysisRequest& request = read.request;
  const auto shared_pipeline = std::make_shared<const Pipeline>(Pipeline::create(request.tau, request.d).value());
  const Pipeline& pipeline = *shared_pipeline;

  if (c.timeline) {
    const Regime regime = regime_from_name(*c.timeline).value_or(Regime::async);
    const auto schedule = timeline(pipeline, request.M, regime);
    if (!schedule) return print_errors({schedule.error()}, err);
    write_timeline_csv(out, schedule.value());
    return finish(out, err);
  }
  if (c.curve_points) {
    const auto points = parse_count(*c.curve_points, Field::points, static_cast<double>(limits::kMinCurvePoints),
                                    static_cast<double>(limits::kMaxCurvePoints));
    if (!points) return print_errors({points.error()}, err);
    const auto max_points = static_cast<std::int64_t>(points.value());
    write_curve_csv(out, makespan_curve(pipeline, curve_batches(pipeline, request.M, max_points)));
    return finish(out, err);
  }

  std::optional<RecurrenceMakespans> recurrence;
  if (c.recurrence) {
    const auto async_run = recurrence_makespan(pipeline, request.M, Regime::async);
    if (!async_run) return print_errors({async_run.error()}, err);
    const auto blocking_run = recurrence_makespan(pipeline, request.M, Regime::blocking);
    if (!blocking_run) return print_errors({blocking_run.error()}, err);
    recurrence = RecurrenceMakespans{async_run.value(), blocking_run.value()};
  }
  const Analysis analysis = analyze(shared_pipeline, request.M, request.rho, request.T_real);
  std::ostringstream text;
  if (c.json) write_json(text, analysis, recurrence);
  else write_table(text, analysis, recurrence);
  out << text.str();
  return finish(out, err);
}

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{kDescription, "heteropipe"};
  Choices choices;
  define_options(app, choices);
  // CLI11 reads an argv, program name first.
  std::vector<const char*> argv{"heteropipe"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  if (auto line = empty_after_equals(app, args)) {
    err << "error: " << *line << '\n';
    return kExitBadInput;
  }
  if (auto line = option_as_value(app, args)) {
    err << "error: " << *line << '\n';
    return kExitBadInput;
  }
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help, --version: fail when they cannot be written
      app.exit(e, out, err);
      return finish(out, err);
    }
    err << "error: " << usage_error(app, e, args) << '\n';
    return kExitBadInput;
  }
  note_parsed(app, choices);
  if (choices.planning) return run_plan(choices.plan, out, err);
  if (choices.modeling) return run_model(choices.model, out, err);
  if (choices.simulating) return run_simulate(choices.simulate, out, err);
  if (choices.tracing) return run_trace(choices.trace, out, err);
  if (!choices.tau_given) {
    err << "error: " << text::kTauRequired << '\n';
    return kExitBadInput;
  }
  if (choices.timeline && !regime_from_name(*choices.timeline)) {
    err << "error: " << text::timeline_choice(*choices.timeline) << '\n';
    return kExitBadInput;
  }
  if (auto problem = clash(choices)) {
    err << "error: " << *problem << '\n';
    return kExitBadInput;
  }
  return compute(choices, out, err);
}

}  // namespace heteropipe::cli
