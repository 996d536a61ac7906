#include "options.hpp"

#include "heteropipe/curve.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/text/numbers.hpp"
#include "heteropipe/version.hpp"

namespace heteropipe::cli {
namespace {

using text::bound;

std::string footer() {
  return "Lists accept commas, blanks, semicolons and the Chinese commas (U+FF0C, U+3001);\n"
         "numbers may use full-width digits (U+FF10-U+FF19):\n"
         "  --tau 1.13,2.90,2.62   --tau \"0.5 1 1 5\"   --tau \"0.5，1，1，5\"\n"
         "Values: tau and d in [0, " + bound(limits::kMaxValue) + "], all in one time unit; the largest tau at least\n" +
         bound(limits::kMinStageTime) + "; at most " + bound(static_cast<double>(limits::kMaxStages)) +
         " stages; M a whole number in [" + bound(limits::kMinBatches) + ", " + bound(limits::kMaxBatches) +
         "]; rho in [" + bound(limits::kMinRho) + ", " + bound(limits::kMaxRho) + "];\nT_real in (0, " +
         bound(limits::kMaxValue) + "].\n--timeline holds at most " + bound(limits::kMaxTimelineCells) +
          " cells (M x S); --recurrence does at most\n" + bound(limits::kMaxStreamWork) + " steps of M x S + " +
         bound(limits::kStreamDiagonalCost) + " (M + S - 1).\n" +
         R"(
Exit status: 0 success; 2 bad input or usage (one "error:" line per bad field on
stderr, nothing on stdout); 1 the output could not be written.

Examples:
  heteropipe --tau 1.13,2.90,2.62 --M 100
  heteropipe --tau 0.5,1,1,5 --d 0.2,0.1,0.3 --M 32 --rho 0.8 --json
  heteropipe --tau 0.5,1,1,5 --d 0.2,0.1,0.3 --M 16 --T-real 42
  heteropipe --tau 0.5,1,1,5 --M 3 --timeline blocking
)";
}

}  // namespace

void define_options(CLI::App& app, Choices& c) {
  app.set_version_flag("--version", std::string("heteropipe ") + kVersion, "Print the version and exit");
  app.add_option("--tau", c.typed.tau, "Service time of each stage per micro-batch (S values); required")
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
  app.add_flag("--recurrence", c.recurrence, "Also compute both makespans by the exact recurrence (O(M x S) time)");
  app.add_option("--timeline", c.timeline, "Print the exact schedule of every (micro-batch, stage) cell as CSV")
      ->check(CLI::IsMember({"async", "blocking"}))
      ->type_name("REGIME");
  app.add_option("--curve", c.curve_points,
                 "Print the closed-form makespans as CSV at up to N values of M from 1 to\n"
                 "max(M, 2 ceil(M*)), always including 1, M and ceil(M*); N from " +
                     bound(static_cast<double>(limits::kMinCurvePoints)) + " to " +
                     bound(static_cast<double>(limits::kMaxCurvePoints)))
      ->type_name("N");
  app.footer(footer());
  CLI::App* plan = app.add_subcommand("plan", "Plan the layer split of a model over devices that minimizes the makespan\n"
                                               "(explicit JSON input; see docs/cli.md)");
  plan->add_option("FILE", c.plan.file, "The planner's input as JSON; - for standard input")->required();
  plan->add_flag("--json", c.plan.json, "Print the plan as one JSON object instead of the table");
  CLI::App* trace = app.add_subcommand("trace", "Recover tau, d, M and T_real from profiler traces (Chrome trace-event\n"
                                                 "JSON, .json.gz, one file per rank) or a schedule CSV (docs/traces.md)");
  trace->add_option("FILE", c.trace.files, "Trace files; - for standard input")->required();
  trace->add_flag("--json", c.trace.json, "Print the result as one JSON object instead of the table");
  trace->add_option("--stat", c.trace.stat, "Statistic of the samples that becomes tau and d: min (default), p50, mean")
      ->type_name("NAME");
  trace->add_option("--unit", c.trace.unit, "Unit of every time in the result: s, ms (default), us")->type_name("NAME");
  trace->add_option("--stage-order", c.trace.stage_order, "Ranks in stage order (default: ascending rank)")
      ->type_name("LIST");
  trace->add_option("--compute", c.trace.compute, "Regex: events whose name matches are compute")->type_name("REGEX");
  trace->add_option("--transfer", c.trace.transfer, "Regex: events whose name matches are transfers")
      ->type_name("REGEX");
  trace->add_option("--microbatch", c.trace.microbatch,
                    "Regex: annotation ranges that are micro-batches (first group: its number)")
      ->type_name("REGEX");
}

void note_parsed(const CLI::App& app, Choices& c) {
  c.tau_given = app.count("--tau") > 0;
  c.planning = app.got_subcommand("plan");
  c.tracing = app.got_subcommand("trace");
}

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

}  // namespace heteropipe::cli
