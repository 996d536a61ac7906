// heteropipe: the command-line front end. It wires arguments to the core and
// formats what the core computes; it does no arithmetic of its own.
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "csv.hpp"
#include "heteropipe/heteropipe.hpp"
#include "messages.hpp"
#include "report.hpp"

namespace {

using namespace heteropipe;

constexpr int kExitOk = 0;
constexpr int kExitOutputFailed = 1;
constexpr int kExitBadInput = 2;

struct Choices {
  RequestText typed;
  bool json = false;
  bool recurrence = false;
  std::optional<std::string> timeline;
  std::optional<std::int64_t> curve_points;
};

const char* const kFooter = R"(Lists accept commas, blanks, semicolons and the Chinese commas (U+FF0C, U+3001):
  --tau 1.13,2.90,2.62   --tau "0.5 1 1 5"   --tau "0.5，1，1，5"
Values: tau and d in [0, 1e15], all in one time unit; the largest tau at least
1e-15; at most 10,000,000 stages; M a whole number in [1, 2^53]; rho in [0, 1];
T_real in (0, 1e15].
--timeline holds at most 2,000,000 cells (M x S); --recurrence visits at most
10,000,000,000.

Exit status: 0 success; 2 bad input or usage (one "error:" line per bad field on
stderr, nothing on stdout); 1 the output could not be written.

Examples:
  heteropipe --tau 1.13,2.90,2.62 --M 100
  heteropipe --tau 0.5,1,1,5 --d 0.2,0.1,0.3 --M 32 --rho 0.8 --json
  heteropipe --tau 0.5,1,1,5 --d 0.2,0.1,0.3 --M 16 --T-real 42
  heteropipe --tau 0.5,1,1,5 --M 3 --timeline blocking
)";

void define_options(CLI::App& app, Choices& c) {
  app.set_version_flag("--version", std::string("heteropipe ") + kVersion, "Print the version and exit");
  app.add_option("--tau", c.typed.tau, "Service time of each stage per micro-batch (S values)")
      ->required()
      ->type_name("LIST");
  app.add_option("--d", c.typed.d, "Latency of each link s -> s+1 (S-1 values; all 0 when omitted)")
      ->type_name("LIST");
  app.add_option("--M", c.typed.M, "Number of micro-batches (default 8)")->type_name("INT");
  app.add_option("--rho", c.typed.rho, "Overlap ratio for the effective slope: 1 async, 0 blocking (default 1)")
      ->type_name("X");
  app.add_option("--T-real,--T_real", c.typed.T_real,
                 "Measured makespan: report the overlap ratio and where it sits in the sandwich")
      ->type_name("X");
  app.add_flag("--json", c.json, "Print every field as one JSON object instead of the table");
  app.add_flag("--recurrence", c.recurrence,
                                  "Also compute both makespans by the exact recurrence (O(M x S) time)");
  app.add_option("--timeline", c.timeline,
                                  "Print the exact schedule of every (micro-batch, stage) cell as CSV")
                       ->check(CLI::IsMember({"async", "blocking"}))
                       ->type_name("REGIME");
  app.add_option("--curve", c.curve_points,
                 "Print the closed-form makespans as CSV at up to N values of M from 1 to\n"
                 "max(M, 2 ceil(M*)), always including 1, M and ceil(M*)")
                    ->check(CLI::Range(std::int64_t{2}, kMaxCurvePoints))
                    ->type_name("N");
  app.footer(kFooter);
}

// --timeline and --curve replace the report with CSV, so the options that
// shape the report make no sense beside them. Returns the clash, if any.
std::optional<std::string> clash(const Choices& c) {
  const char* csv = c.timeline ? "--timeline" : c.curve_points ? "--curve" : nullptr;
  if (!csv) return std::nullopt;
  const char* other = c.timeline && c.curve_points ? "--curve"
                      : c.json                     ? "--json"
                      : c.recurrence               ? "--recurrence"
                      : c.typed.T_real             ? "--T-real"
                                                   : nullptr;
  if (!other) return std::nullopt;
  return std::string(csv) + " prints CSV and cannot be combined with " + other;
}

int print_errors(const std::vector<Error>& errors, const cli::MessageContext& context) {
  for (const Error& e : errors) std::cerr << "error: " << cli::message(e, context) << '\n';
  return kExitBadInput;
}

int finish(std::ostream& out) {
  out.flush();
  if (out) return kExitOk;
  std::cerr << "error: could not write the output\n";
  return kExitOutputFailed;
}

int run(const Choices& c) {
  const ReadRequest read = read_request(c.typed);
  const auto S = static_cast<std::int64_t>(read.request.tau.size());
  if (!read.errors.empty()) return print_errors(read.errors, {S, 0});
  const AnalysisRequest& request = read.request;
  const auto shared_pipeline = std::make_shared<const Pipeline>(Pipeline::create(request.tau, request.d).value());
  const Pipeline& pipeline = *shared_pipeline;

  if (c.timeline) {
    const Regime regime = *c.timeline == "blocking" ? Regime::blocking : Regime::asynchronous;
    const auto schedule = timeline(pipeline, request.M, regime);
    if (!schedule) return print_errors({schedule.error()}, {S, limits::kMaxTimelineCells});
    cli::write_timeline_csv(std::cout, schedule.value());
    return finish(std::cout);
  }
  if (c.curve_points) {
    const Curve curve = makespan_curve(pipeline, curve_batches(pipeline, request.M, *c.curve_points));
    cli::write_curve_csv(std::cout, curve);
    return finish(std::cout);
  }

  std::optional<cli::RecurrenceMakespans> recurrence;
  if (c.recurrence) {
    const auto async_run = recurrence_makespan(pipeline, request.M, Regime::asynchronous);
    if (!async_run) return print_errors({async_run.error()}, {S, limits::kMaxStreamCells});
    const auto blocking_run = recurrence_makespan(pipeline, request.M, Regime::blocking);
    if (!blocking_run) return print_errors({blocking_run.error()}, {S, limits::kMaxStreamCells});
    recurrence = cli::RecurrenceMakespans{async_run.value(), blocking_run.value()};
  }
  const Analysis analysis = analyze(shared_pipeline, request.M, request.rho, request.T_real);
  std::ostringstream text;
  if (c.json) cli::write_json(text, analysis, recurrence);
  else cli::write_table(text, analysis, recurrence);
  std::cout << text.str();
  return finish(std::cout);
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  CLI::App app{"Exact makespans, GPipe homogeneity bias, phase transition and async-blocking sandwich\n"
               "for heterogeneous micro-batch pipelines.",
               "heteropipe"};
  Choices choices;
  define_options(app, choices);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << "error: " << e.what() << '\n';
    return kExitBadInput;
  }
  if (auto problem = clash(choices)) {
    std::cerr << "error: " << *problem << '\n';
    return kExitBadInput;
  }
  return run(choices);
}
