#pragma once

#include <cstdint>
#include <vector>

#include "heteropipe/analysis.hpp"
#include "heteropipe/error.hpp"
#include "heteropipe/pipeline.hpp"
#include "heteropipe/plan/input.hpp"
#include "heteropipe/visit.hpp"

// The exact layer partition: which device runs which contiguous layers, and
// the pipeline that results (see docs/planner.md).
namespace heteropipe {

// One stage of the plan: device `device` (its index in PlanInput::devices)
// runs layers first_layer..last_layer (0-based, inclusive).
struct PlanStage {
  std::int64_t device = 0, first_layer = 0, last_layer = 0, layers = 0;
  double tau = 0;          // its layer times, added in layer order
  double memory_used = 0;  // its layer memories, added in layer order
  double memory_capacity = 0;
};

struct Plan {
  Objective objective = Objective::async;
  // The stages in chain order; idle devices have none.
  std::vector<PlanStage> stages;
  // T_async or T_block at M, or tau_max for throughput: the analysis's own
  // number, so bit for bit what analyze reports for these tau and d.
  double objective_value = 0;
  // The stages' pipeline at M (rho = 1): its tau are the stages' and its d
  // the delays of the cuts they send.
  Analysis analysis;

  const std::vector<double>& tau() const { return analysis.tau(); }
  const std::vector<double>& d() const { return analysis.d(); }
};

// The split that minimizes the objective over every split into contiguous
// stages that fits each device's memory (and, with DeviceOrder::search, over
// every order of the devices); among values that tie (objective_ties), the
// one with the smaller bottleneck, and among equal bottlenecks the one of
// least spread, sum over stages of (tau + d)^2: the evenest (see
// docs/planner.md). Errors: those of check_plan_input, then
// why no split fits (fewer_layers_than_devices, device_too_small,
// memory_short, no_feasible_split).
Result<Plan> make_plan(const PlanInput& input);

// Whether two objective values of splits over S devices tie: they differ by
// at most S x Pipeline::kTieUlps units in the last place of the larger.
// Splits equal in exact arithmetic (every split at M = 1 on identical
// devices) report values a few units apart, each rounded its own way; a tie
// goes to the smaller bottleneck, and a baseline's loss within it is 0.
bool objective_ties(double a, double b, std::int64_t S);

// The objective's number in an analysis: T_async, T_block, or tau_max.
double objective_value(const Analysis& analysis, Objective objective);

template <class Visitor>
void visit_fields(const PlanStage& stage, Visitor&& visit) {
  visit("device", stage.device);
  visit("first_layer", stage.first_layer);
  visit("last_layer", stage.last_layer);
  visit("layers", stage.layers);
  visit("tau", stage.tau);
  visit("memory_used", stage.memory_used);
  visit("memory_capacity", stage.memory_capacity);
}

template <class Visitor>
void visit_fields(const Plan& plan, Visitor&& visit) {
  visit("objective", objective_name(plan.objective));
  visit("objective_value", plan.objective_value);
  visit("stages", objects(plan.stages));
  visit("tau", plan.tau());
  visit("d", plan.d());
  visit("analysis", object([&plan](auto&& fields) { visit_fields(plan.analysis, fields); }));
}

}  // namespace heteropipe
