#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"
#include "heteropipe/plan/calibration.hpp"
#include "heteropipe/plan/estimate.hpp"
#include "heteropipe/plan/plan.hpp"
#include "heteropipe/visit.hpp"

// What `heteropipe plan` reports: the optimal plan, its speed, the splits
// runtimes would choose by default and what they cost, the flags that put
// the plan into a runtime, and what one device less or more would change
// (docs/planner.md#the-report).
namespace heteropipe {

// Micro-batches per time unit, for the figure each objective optimizes:
// M / T(M) at M (T_block for the blocking objective, T_async for async),
// and the steady state 1 / tau_max for throughput, whose plan has the least
// tau_max (so no other split shows more). Tokens per second is tokens x
// that: `tokens` per micro-batch (the estimate form's `tokens`; 1 for
// explicit costs), generated tokens in decode, prompt tokens in prefill.
double throughput(const Plan& plan);
double tokens_per_second(const Plan& plan, double tokens);

// An estimate's band, [tokens_per_second x kEstimateBandLow,
// tokens_per_second x kEstimateBandHigh] (plan/estimate.hpp): where the
// measured speed typically lands. A report from explicit costs has none
// (null); an infeasible what-if's 0 has [0, 0].
using SpeedBand = std::optional<std::vector<double>>;
std::vector<double> tokens_per_second_band(double tokens_per_second);

// A split chosen by a rule, not by the planner, priced the same way.
struct Baseline {
  Plan plan;  // its stages (devices in input order; a device with no layer has no stage)
  bool fits_memory = true;  // false: some stage holds more than its device (the numbers assume it fitted)
  // false: it breaks a rule the plan keeps (reason: "memory", some stage
  // holds more than its device; "idle_device", a device has no layer while
  // allow_idle_devices is false). Priced all the same; the headline compares
  // feasible baselines only.
  bool feasible = true;
  std::string_view reason;
  double tokens_per_second = 0, throughput = 0;
  SpeedBand tokens_per_second_band;  // null for explicit costs
  // How much longer its objective value is than the optimum's, in %.
  double loss_percent = 0;
};

// The flags that give each runtime the plan, and whole commands that use
// them (MODEL and MODEL.gguf stand for the user's model), one pipeline stage
// per device that runs layers, in chain order.
struct RuntimeFlags {
  std::string vllm_pp_layer_partition;   // VLLM_PP_LAYER_PARTITION: the stages' layer counts
  std::string sglang_pp_layer_partition;  // SGLANG_PP_LAYER_PARTITION: the same counts
  std::string llama_cpp_tensor_split;    // --tensor-split (with -sm layer): the counts, the last + 1
  // llama-server -m MODEL.gguf -ngl 999 -sm layer -ts <llama_cpp_tensor_split>
  std::string llama_cpp_command;
  // VLLM_PP_LAYER_PARTITION=<counts> vllm serve MODEL --pipeline-parallel-size <stages>
  std::string vllm_command;
  // SGLANG_PP_LAYER_PARTITION=<counts> python -m sglang.launch_server --model-path MODEL --pp-size <stages>
  std::string sglang_command;
};

// The flags and commands for a plan's layer counts per stage.
RuntimeFlags runtime_flags(const std::vector<std::int64_t>& counts, std::int64_t unrun_layers = 0);

// The plan re-solved with one device removed, or one more like it added at
// the end of the chain.
struct WhatIf {
  std::string_view change;  // "remove" or "add"
  std::int64_t device = 0;  // the device removed, or the one copied
  bool feasible = true;     // false: no split fits (reason: the error's code)
  std::string_view reason;
  double tokens_per_second = 0;         // 0 when not feasible
  SpeedBand tokens_per_second_band;     // null for explicit costs; [0, 0] when not feasible
  double tokens_per_second_change = 0;  // against the plan's
};

// A stage of the plan whose layers fill more than
// limits::kMemoryWarningFraction of its device's memory capacity.
struct MemoryWarning {
  std::string_view code = "memory_nearly_full";
  std::int64_t stage = 0, device = 0;
  double memory_used = 0, memory_capacity = 0;
  double fraction = 0;  // memory_used / memory_capacity
};

// The plan's stages above limits::kMemoryWarningFraction, in chain order.
std::vector<MemoryWarning> memory_warnings(const Plan& plan);

struct PlanReport {
  Plan plan;
  double tokens_per_second = 0, throughput = 0;
  SpeedBand tokens_per_second_band;  // null for explicit costs
  Baseline even, memory_proportional;
  RuntimeFlags runtime;
  std::vector<WhatIf> what_if;  // empty above limits::kMaxWhatIfDevices devices
  std::vector<MemoryWarning> warnings;
  // The estimate form's llama-bench records: each device a record
  // calibrated, and each record that calibrated none, with why.
  std::vector<Calibrated> calibrated;
  std::vector<UnusedRecord> calibration_unused;
};

// Equal layer counts; the remainder r goes as vLLM's get_pp_indices
// (vllm/distributed/utils.py) puts it: one more to each of the r stages
// before the last, going back from the second-to-last.
std::vector<std::int64_t> even_layer_counts(std::int64_t L, std::int64_t S);
// llama.cpp's default --tensor-split (and exo's ring rule): shares in
// proportion to each device's memory. Layer l of L + 1 slots (the last is
// the output layer) goes to the first device whose running share exceeds
// l / (L + 1). llama.cpp's slots count a model's unrun_layers too (its
// multi-token-prediction layers, after the L it runs), so with them layer l
// is compared with l / (L + unrun_layers + 1).
std::vector<std::int64_t> memory_proportional_layer_counts(const std::vector<double>& capacities, std::int64_t L,
                                                           std::int64_t unrun_layers = 0);
// The devices in input order running counts[s] layers each, as a plan of
// the input's objective (memory is not enforced: see Baseline::fits_memory).
Plan plan_of_counts(const PlanInput& input, const std::vector<std::int64_t>& counts);
// The tensor split that makes llama.cpp's layer rule land on these counts.
std::string llama_cpp_tensor_split(const std::vector<std::int64_t>& counts);

// The report for explicit costs (every band null); added_link joins a device added by the
// what-if (none: no device is added); tokens per micro-batch (see
// tokens_per_second).
Result<PlanReport> make_plan_report(const PlanInput& input, std::optional<PlanLink> added_link, double tokens = 1);
// The report for either form (an estimate's with its bands); an added device joins over the chain's last
// link, or for one device over the catalog's pcie4-x16 (estimate form only).
// An estimate that no split fits fails with its memory error on field
// `memory` (bytes), with fits_quant and fits_with_device (heteropipe/error.hpp).
Result<PlanReport> make_plan_report(const PlanRequest& request);

// An estimate's memory error (memory_short, no_feasible_split,
// device_too_small) on field memory, with what would fit, each found by
// estimating and planning again: the largest catalog quantization smaller
// than the input's that fits (a catalog model only), and whether one more
// of the device with the largest capacity (the first such) at the end of
// the chain fits.
Error with_memory_advice(const EstimateInput& input, Error error);

template <class Visitor>
void visit_fields(const Baseline& b, Visitor&& visit) {
  visit("fits_memory", b.fits_memory);
  visit("feasible", b.feasible);
  visit("reason", b.reason);
  visit("objective_value", b.plan.objective_value);
  visit("stages", objects(b.plan.stages));
  visit("tau", b.plan.tau());
  visit("d", b.plan.d());
  visit("analysis", object([&b](auto&& fields) { visit_fields(b.plan.analysis, fields); }));
  visit("tokens_per_second", b.tokens_per_second);
  visit("tokens_per_second_band", b.tokens_per_second_band);
  visit("throughput", b.throughput);
  visit("loss_percent", b.loss_percent);
}

template <class Visitor>
void visit_fields(const RuntimeFlags& r, Visitor&& visit) {
  visit("vllm_pp_layer_partition", std::string_view(r.vllm_pp_layer_partition));
  visit("sglang_pp_layer_partition", std::string_view(r.sglang_pp_layer_partition));
  visit("llama_cpp_tensor_split", std::string_view(r.llama_cpp_tensor_split));
  visit("llama_cpp_command", std::string_view(r.llama_cpp_command));
  visit("vllm_command", std::string_view(r.vllm_command));
  visit("sglang_command", std::string_view(r.sglang_command));
}

template <class Visitor>
void visit_fields(const WhatIf& w, Visitor&& visit) {
  visit("change", w.change);
  visit("device", w.device);
  visit("feasible", w.feasible);
  visit("reason", w.reason);
  visit("tokens_per_second", w.tokens_per_second);
  visit("tokens_per_second_band", w.tokens_per_second_band);
  visit("tokens_per_second_change", w.tokens_per_second_change);
}

template <class Visitor>
void visit_fields(const MemoryWarning& w, Visitor&& visit) {
  visit("code", w.code);
  visit("stage", w.stage);
  visit("device", w.device);
  visit("memory_used", w.memory_used);
  visit("memory_capacity", w.memory_capacity);
  visit("fraction", w.fraction);
}

template <class Visitor>
void visit_fields(const PlanReport& r, Visitor&& visit) {
  visit_fields(r.plan, visit);
  visit("tokens_per_second", r.tokens_per_second);
  visit("tokens_per_second_band", r.tokens_per_second_band);
  visit("throughput", r.throughput);
  visit("baselines", object([&r](auto&& fields) {
          fields("even", object([&r](auto&& f) { visit_fields(r.even, f); }));
          fields("memory_proportional", object([&r](auto&& f) { visit_fields(r.memory_proportional, f); }));
        }));
  visit("runtime", object([&r](auto&& fields) { visit_fields(r.runtime, fields); }));
  visit("what_if", objects(r.what_if));
  visit("warnings", objects(r.warnings));
  visit("calibrated", objects(r.calibrated));
  visit("calibration_unused", objects(r.calibration_unused));
}

}  // namespace heteropipe
