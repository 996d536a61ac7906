#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "heteropipe/request_text.hpp"
#include "model_command.hpp"
#include "plan_command.hpp"
#include "simulate_command.hpp"
#include "trace_command.hpp"

// The command line's options: what a user may choose, and the help text.
namespace heteropipe::cli {

struct Choices {
  RequestText typed;
  bool json = false;
  bool recurrence = false;
  std::optional<std::string> timeline;
  std::optional<std::string> curve_points;  // read by the core's count rules
  bool tau_given = false;
  PlanChoices plan;
  bool planning = false;  // the plan subcommand was given
  ModelChoices model;
  bool modeling = false;  // the model subcommand was given
  SimulateChoices simulate;
  bool simulating = false;  // the simulate subcommand was given
  TraceChoices trace;
  bool tracing = false;  // the trace subcommand was given
};

void define_options(CLI::App& app, Choices& choices);

// After parsing: what define_options could not ask CLI11 for (--tau is
// required unless a subcommand runs).
void note_parsed(const CLI::App& app, Choices& choices);

// --timeline and --curve replace the report with CSV, so the options that
// shape the report make no sense beside them. Returns the clash, if any.
std::optional<std::string> clash(const Choices& choices);

}  // namespace heteropipe::cli
