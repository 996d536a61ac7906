#include "options.hpp"

#include "usage.hpp"

#include "heteropipe/curve.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/text/numbers.hpp"
#include "heteropipe/version.hpp"

namespace heteropipe::cli {
namespace {

using text::bound;

const char* const kExitStatus =
    "Exit status: 0 success; 2 bad input or usage (one \"error:\" line per bad field on\n"
    "stderr, nothing on stdout); 1 the output could not be written.\n";

std::string footer() {
  return "Lists accept commas, blanks, semicolons and the Chinese keyboard's comma, semicolon\n"
         "and ideographic comma (U+FF0C, U+FF1B, U+3001); numbers may use full-width digits\n"
         "(U+FF10-U+FF19):\n"
         "  --tau 1.13,2.90,2.62   --tau \"0.5 1 1 5\"   --tau \"0.5，1，1，5\"\n"
         "Values: tau and d in [0, " + bound(limits::kMaxValue) + "], all in one time unit; the largest tau at least\n" +
         bound(limits::kMinStageTime) + "; at most " + bound(static_cast<double>(limits::kMaxStages)) +
         " stages; M a whole number in [" + bound(limits::kMinBatches) + ", " + bound(limits::kMaxBatches) +
         "]; rho in [" + bound(limits::kMinRho) + ", " + bound(limits::kMaxRho) + "];\nT_real in (0, " +
         bound(limits::kMaxValue) + "].\n--timeline holds at most " + bound(limits::kMaxTimelineCells) +
          " cells (M x S); --recurrence does at most\n" + bound(limits::kMaxStreamWork) + " steps of M x S + " +
         bound(limits::kStreamDiagonalCost) + " (M + S - 1).\n\n" + kExitStatus +
         R"(
Examples:
  heteropipe --tau 1.13,2.90,2.62 --M 100
  heteropipe --tau 0.5,1,1,5 --d 0.2,0.1,0.3 --M 32 --rho 0.8 --json
  heteropipe --tau 0.5,1,1,5 --d 0.2,0.1,0.3 --M 16 --T-real 42
  heteropipe --tau 0.5,1,1,5 --M 3 --timeline blocking
)";
}

void define_simulate_options(CLI::App& app, SimulateChoices& c) {
  CLI::App* sim = app.add_subcommand(
      "simulate", "Simulate the pipeline beyond the closed forms: bounded buffers, link servers,\n"
                  "shared links, random service times, Monte Carlo (see docs/simulation.md)");
  sim->add_option("--tau", c.tau, "Mean service time of each stage per micro-batch (S values); required")
      ->type_name("LIST");
  sim->add_option("--d", c.d, "Mean transfer time of each link s -> s+1 (S-1 values; all 0 when omitted)")
      ->type_name("LIST");
  sim->add_option("--M", c.M, "Number of micro-batches (default 8)")->type_name("INT");
  sim->add_option("--links", c.links,
                  "async: a transfer overlaps anything; blocking: the sender is held for it;\n"
                  "serial: one transfer at a time per link (default async; the former names\n"
                  "delay and block still read)")
      ->type_name("MODE");
  sim->add_option("--shared", c.shared, "Links that share one medium, groups separated by ';', e.g. \"0,1;2,3\"")
      ->type_name("GROUPS");
  sim->add_option("--buffers", c.buffers,
                  "Micro-batches that may wait between stage s and s+1, in transit included:\n"
                  "one value for all links or S-1 values, each a whole number or inf (default inf)")
      ->type_name("LIST");
  const std::string choices = "deterministic|exponential|lognormal:cv=X|gamma:cv=X|uniform:spread=X";
  sim->add_option("--service", c.service, "Stage service times of mean tau, one of\n" + choices + "\n(default deterministic; CV up to " +
                                              bound(limits::kMaxCv) + ", spread up to " + bound(limits::kMaxSpread) + ")")
      ->type_name("DIST");
  sim->add_option("--link-service", c.link_service, "Transfer times of mean d, the same choices (default deterministic)")
      ->type_name("DIST");
  sim->add_option("--service-matrix", c.service_matrix,
                  "A replay of measured times: M rows of S values (CSV), replacing --service")
      ->type_name("FILE.csv");
  sim->add_option("--link-matrix", c.link_matrix,
                  "A replay of measured transfer times: M rows of S-1 values (CSV), replacing\n--link-service")
      ->type_name("FILE.csv");
  sim->add_option("--service-samples", c.service_samples,
                  "Measured times, a column of samples per stage (CSV), drawn with equal chance\n"
                  "and used as measured, replacing --service")
      ->type_name("FILE.csv");
  sim->add_option("--reps", c.reps, "Replications, 1 to " + bound(limits::kMaxReps) + " (default 1)")->type_name("R");
  sim->add_option("--seed", c.seed, "Seed of the random draws, 0 to 2^53 (default 0)")->type_name("K");
  sim->add_flag("--json", c.json, "Print every field as one JSON object instead of the table");
  sim->add_flag("--timeline", c.timeline,
                "Print replication 0's schedule as CSV (with --json: add it, and each\n"
                "micro-batch's completion and latency, to the object); M x S at most " +
                    bound(limits::kMaxTimelineCells));
  sim->footer("Lists are read as for the analysis (commas, blanks, Chinese commas, full-width digits).\n"
              "Work: M x S x reps at most " + bound(limits::kMaxSimCells) + " cells, and with random times those\n"
              "cells plus " + bound(limits::kSimDrawSteps) + " steps per draw and " + bound(limits::kSimStreamSteps) +
              " per stream (2S-1 each replication) at most as many steps;\n"
              "buffers up to " + bound(limits::kMaxBuffer) + " (or inf),\n"
              "and S x (the largest finite buffer + 1) at most " + bound(limits::kMaxBufferHistory) + ";\n"
              "with --shared, M x (S-1) at most " + bound(limits::kMaxQueuedTransfers) + " transfers and M x S x reps at most " +
                  bound(limits::kMaxSharedSimCells) + " cells.\n"
              "A CV or spread below " + bound(limits::kMinCv) + " draws exactly the mean.\n"
              "The model, exactly as simulated: docs/simulation.md.\n\n"
              "Examples:\n"
              "  heteropipe simulate --tau 1.13,2.90,2.62 --M 16 --service lognormal:cv=0.5 --reps 10000 --seed 1\n"
              "  heteropipe simulate --tau 0.5,1,1,5 --d 0.2,0.1,0.3 --links serial --shared \"0,1\" --buffers 1 --json\n");
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
      ->type_name("REGIME:{async,blocking}");
  app.add_option("--curve", c.curve_points,
                 "Print the closed-form makespans as CSV at up to max(N, 4) values of M from 1 to\n"
                 "max(M, 2 ceil(M*)), always including 1, M and ceil(M*); N from " +
                     bound(static_cast<double>(limits::kMinCurvePoints)) + " to " +
                     bound(static_cast<double>(limits::kMaxCurvePoints)))
      ->type_name("N");
  app.footer(footer());
  CLI::App* plan = app.add_subcommand("plan", "Plan the layer split of a model over devices that minimizes the makespan\n"
                                               "(JSON input, explicit or estimated; see docs/planner.md)");
  plan->footer(std::string("The input is one JSON object in either form (docs/planner.md):\n"
                           "  explicit: devices (layer_times, memory_capacity), layer_memory, links, cut_bytes\n"
                           "  estimate: model (a catalog id with quant, or the model's facts), devices (catalog\n"
                           "            ids or GPU objects), links, phase, tokens, context; \"gguf\": \"PATH\" in\n"
                           "            place of model and quant reads a GGUF file (a relative path from the\n"
                           "            JSON file's folder)\n"
                           "            calibration: llama-bench records (see --calibrate)\n"
                           "  both: M, objective, order, allow_idle_devices\n\n") +
               kExitStatus +
               "\nExamples:\n"
               "  heteropipe plan tests/cli/plans/plan_two_devices.json\n"
               "  heteropipe plan --json - < tests/cli/plans/estimate_70b_mixed.json\n"
               "  heteropipe plan tests/cli/plans/calibrate_4080.json --calibrate tests/cli/plans/bench_4080.json\n");
  plan->add_option("FILE", c.plan.file, "The planner's input as JSON; - for standard input")->required();
  plan->add_option("--calibrate", c.plan.calibrate,
                   "What `llama-bench -o json` printed (its records follow the input's \"calibration\"):\n"
                   "each sets its GPU's efficiency in the estimate (docs/planner.md#calibration)")
      ->type_name("BENCH.json");
  plan->add_flag("--json", c.plan.json, "Print the plan as one JSON object instead of the table");
  CLI::App* model = app.add_subcommand("model", "A GGUF file's facts for the planner, read from its header and tensor\n"
                                                 "table alone, never its weights (docs/planner.md#gguf-files)");
  model->add_option("FILE", c.model.file, "The model as a .gguf file")->required();
  model->add_flag("--json", c.model.json, "Print the facts as one JSON object (the planner's \"model\" form)");
  model->footer(std::string(kExitStatus) +
                "\nExamples:\n"
                "  heteropipe model tests/data/gguf/dense.gguf\n"
                "  heteropipe model --json Llama-3.1-8B-Instruct-Q4_K_M.gguf\n");
  define_simulate_options(app, c.simulate);
  CLI::App* trace = app.add_subcommand("trace", "Recover tau, d, M and T_real from profiler traces (Chrome trace-event\n"
                                                 "JSON, .json.gz, one file per rank) or a schedule CSV (docs/traces.md)");
  trace->add_option("FILE", c.trace.files, "Trace files, or directories of them; - for standard input")->required();
  trace->footer(std::string(kExitStatus) +
                "\nExamples:\n"
                "  heteropipe trace rank-0.json.gz rank-1.json.gz rank-2.json.gz\n"
                "  heteropipe trace --unit us --json schedule.csv\n");
  trace->add_flag("--json", c.trace.json, "Print the result as one JSON object instead of the table");
  trace->add_option("--stat", c.trace.stat, "Statistic of the samples that becomes tau and d: min, p50 (default), mean")
      ->type_name("NAME");
  trace->add_option("--unit", c.trace.unit, "Unit of every time in the result: s, ms (default), us")->type_name("NAME");
  trace->add_option("--stage-order", c.trace.stage_order, "Ranks in stage order (default: ascending rank)")
      ->type_name("LIST")
      ->each([&c](const std::string&) { c.trace.stage_order_given = true; });
  trace->add_option("--clock-offsets", c.trace.clock_offsets,
                    "Per stage, in --unit: added to each stage's clock (default: found from the pairs)")
      ->type_name("LIST")
      ->each([&c](const std::string&) { c.trace.clock_offsets_given = true; });
  trace->add_option("--profiler-step", c.trace.profiler_step,
                    "The N of the profiler step (ProfilerStep#N) to import when the files hold several\n"
                    "(default: the first)")
      ->type_name("N")
      ->each([&c](const std::string&) { c.trace.profiler_step_given = true; });
  // The dialect: docs/traces.md#patterns.
  trace->add_option("--compute", c.trace.compute, "Pattern: events whose name matches are compute")
      ->type_name("PATTERN");
  trace->add_option("--transfer", c.trace.transfer, "Pattern: events whose name matches are transfers")
      ->type_name("PATTERN");
  trace->add_option("--microbatch", c.trace.microbatch,
                    "Pattern: annotation ranges that are micro-batches (first group: its number)")
      ->type_name("PATTERN");
  refuse_repeated_flags(app);
}

void note_parsed(const CLI::App& app, Choices& c) {
  c.tau_given = app.count("--tau") > 0;
  c.planning = app.got_subcommand("plan");
  c.modeling = app.got_subcommand("model");
  c.simulating = app.got_subcommand("simulate");
  if (c.simulating) c.simulate.tau_given = app.get_subcommand("simulate")->count("--tau") > 0;
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
