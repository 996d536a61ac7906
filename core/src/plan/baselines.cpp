// The splits runtimes choose by default, and the flags that give a runtime
// the planner's split.
#include <memory>
#include <string>

#include "heteropipe/plan/report.hpp"

namespace heteropipe {

std::vector<std::int64_t> even_layer_counts(std::int64_t L, std::int64_t S) {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(S), L / S);
  // The last stage also holds the final norm and the LM head, so vLLM gives
  // the extra layers to the stages before it, going back.
  for (std::int64_t k = 0; k < L % S; ++k) ++counts[S - 2 - k];
  return counts;
}

std::vector<std::int64_t> memory_proportional_layer_counts(const std::vector<double>& capacities, std::int64_t L,
                                                           std::int64_t unrun_layers) {
  double total = 0;
  for (double c : capacities) total += c;
  const auto S = static_cast<std::int64_t>(capacities.size());
  std::vector<double> running;  // each device's share and those before it
  double sum = 0;
  for (double c : capacities) running.push_back((sum += total > 0 ? c : 1) / (total > 0 ? total : static_cast<double>(S)));
  std::vector<std::int64_t> counts(static_cast<std::size_t>(S), 0);
  std::int64_t device = 0;
  for (std::int64_t layer = 0; layer < L; ++layer) {
    const double position = static_cast<double>(layer) / static_cast<double>(L + unrun_layers + 1);
    while (device + 1 < S && running[device] <= position) ++device;
    ++counts[device];
  }
  return counts;
}

Plan plan_of_counts(const PlanInput& input, const std::vector<std::int64_t>& counts) {
  Plan plan;
  plan.objective = input.objective;
  std::vector<double> tau, d;
  const auto L = static_cast<std::int64_t>(input.layer_memory.size());
  std::int64_t begin = 0;
  for (std::size_t s = 0; s < counts.size(); ++s) {
    if (counts[s] == 0) continue;
    const std::int64_t end = begin + counts[s];
    PlanStage stage;
    stage.device = static_cast<std::int64_t>(s);
    stage.first_layer = begin;
    stage.last_layer = end - 1;
    stage.layers = counts[s];
    for (std::int64_t b = begin; b < end; ++b) {
      stage.tau += input.devices[s].layer_times[b];
      stage.memory_used += input.layer_memory[b];
    }
    stage.memory_capacity = input.devices[s].memory_capacity;
    plan.stages.push_back(stage);
    tau.push_back(stage.tau);
    // The sender's own link, as in every plan (docs/planner.md).
    if (end < L) d.push_back(input.links[s].latency + input.cut_bytes[end - 1] / input.links[s].bandwidth);
    begin = end;
  }
  // Valid: check_plan_input bounds every tau and d, and some stage runs the
  // layer whose fastest time is at least kMinStageTime.
  auto pipeline = std::make_shared<const Pipeline>(Pipeline::of_computed_times(std::move(tau), std::move(d)).value());
  plan.analysis = analyze(std::move(pipeline), input.M, 1, std::nullopt);
  plan.objective_value = objective_value(plan.analysis, input.objective);
  return plan;
}

std::string llama_cpp_tensor_split(const std::vector<std::int64_t>& counts) {
  // llama.cpp places L + 1 slots, the last being the output layer, by the
  // running shares; shares equal to the counts, with the output slot on the
  // last device, put each boundary exactly on a stage's end.
  std::string out;
  for (std::size_t s = 0; s < counts.size(); ++s) {
    out += (s ? "," : "") + std::to_string(counts[s] + (s + 1 == counts.size() ? 1 : 0));
  }
  return out;
}

}  // namespace heteropipe
