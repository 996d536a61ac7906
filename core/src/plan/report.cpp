// The plan report: the optimum, its baselines, runtime flags and what-if.
#include "heteropipe/plan/report.hpp"

#include "heteropipe/formulas.hpp"
#include "heteropipe/limits.hpp"
#include "estimate_check.hpp"

namespace heteropipe {
namespace {

std::string joined(const std::vector<std::int64_t>& counts) {
  std::string out;
  for (std::size_t s = 0; s < counts.size(); ++s) out += (s ? "," : "") + std::to_string(counts[s]);
  return out;
}

Baseline baseline_of(const PlanInput& input, const std::vector<std::int64_t>& counts, const Plan& best,
                     double tokens) {
  Baseline b;
  b.plan = plan_of_counts(input, counts);
  for (const PlanStage& stage : b.plan.stages) {
    if (stage.memory_used > stage.memory_capacity) b.fits_memory = false;
  }
  // The plan's own rules: every stage fits, and no device idles unless allowed.
  const bool idles = b.plan.stages.size() < input.devices.size();
  if (!b.fits_memory) {
    b.feasible = false;
    b.reason = "memory";
  } else if (idles && !input.allow_idle_devices) {
    b.feasible = false;
    b.reason = "idle_device";
  }
  b.tokens_per_second = tokens_per_second(b.plan, tokens);
  b.throughput = throughput(b.plan);
  // A tie is no loss: the plan may report a few units above a baseline it
  // ties (objective_ties), having the smaller bottleneck.
  const auto S = static_cast<std::int64_t>(input.devices.size());
  const bool tie = objective_ties(b.plan.objective_value, best.objective_value, S);
  b.loss_percent = tie ? 0 : (b.plan.objective_value - best.objective_value) / best.objective_value * 100;
  return b;
}

WhatIf what_if_of(std::string_view change, std::int64_t device, PlanInput changed, double current, double tokens) {
  changed.order = DeviceOrder::given;  // a what-if keeps the chain as it stands
  WhatIf w;
  w.change = change;
  w.device = device;
  const auto plan = make_plan(changed);
  if (!plan) {
    w.feasible = false;
    w.reason = error_code_name(plan.error().code);
    w.tokens_per_second_change = -current;
    return w;
  }
  w.tokens_per_second = tokens_per_second(plan.value(), tokens);
  w.tokens_per_second_change = w.tokens_per_second - current;
  return w;
}

bool same_device(const PlanDevice& a, const PlanDevice& b) {
  return a.memory_capacity == b.memory_capacity && a.layer_times == b.layer_times;
}

std::vector<WhatIf> what_ifs(const PlanInput& input, const std::optional<PlanLink>& added_link, double current,
                             double tokens) {
  std::vector<WhatIf> out;
  const auto S = static_cast<std::int64_t>(input.devices.size());
  if (S > limits::kMaxWhatIfDevices) return out;
  for (std::int64_t k = 0; S > 1 && k < S; ++k) {
    PlanInput fewer = input;
    fewer.devices.erase(fewer.devices.begin() + k);
    // Its neighbours join over the link that left it (the one before it, for the last).
    fewer.links.erase(fewer.links.begin() + (k < S - 1 ? k : S - 2));
    out.push_back(what_if_of("remove", k, std::move(fewer), current, tokens));
  }
  for (std::int64_t k = 0; added_link && k < S; ++k) {
    bool seen = false;
    for (std::int64_t j = 0; j < k; ++j) seen = seen || same_device(input.devices[j], input.devices[k]);
    if (seen) continue;  // one more of a kind already tried
    PlanInput more = input;
    more.devices.push_back(input.devices[k]);
    more.links.push_back(*added_link);
    out.push_back(what_if_of("add", k, std::move(more), current, tokens));
  }
  return out;
}

}  // namespace

// vLLM and SGLang read the partition from the environment
// (vllm/distributed/utils.py and python/sglang/srt/distributed/utils.py,
// get_pp_indices) and need the stage count to match it; llama.cpp offloads
// every layer (-ngl 999) and splits them by layer (-sm layer) in the
// proportions of -ts, whose last count includes the output layer. llama.cpp
// splits every layer of the file, the multi-token-prediction layers too
// (unrun_layers, after the last it runs; it loads none of their tensors),
// so the last count includes them; vLLM's and SGLang's layer counts
// (num_hidden_layers) leave them out.
RuntimeFlags runtime_flags(const std::vector<std::int64_t>& counts, std::int64_t unrun_layers) {
  RuntimeFlags r;
  r.vllm_pp_layer_partition = r.sglang_pp_layer_partition = joined(counts);
  std::vector<std::int64_t> llama_cpp = counts;
  if (!llama_cpp.empty()) llama_cpp.back() += unrun_layers;
  r.llama_cpp_tensor_split = llama_cpp_tensor_split(llama_cpp);
  const std::string stages = std::to_string(counts.size());
  r.llama_cpp_command = "llama-server -m MODEL.gguf -ngl 999 -sm layer -ts " + r.llama_cpp_tensor_split;
  r.vllm_command =
      "VLLM_PP_LAYER_PARTITION=" + r.vllm_pp_layer_partition + " vllm serve MODEL --pipeline-parallel-size " + stages;
  r.sglang_command = "SGLANG_PP_LAYER_PARTITION=" + r.sglang_pp_layer_partition +
                     " python -m sglang.launch_server --model-path MODEL --pp-size " + stages;
  return r;
}

std::vector<MemoryWarning> memory_warnings(const Plan& plan) {
  std::vector<MemoryWarning> out;
  for (std::size_t k = 0; k < plan.stages.size(); ++k) {
    const PlanStage& s = plan.stages[k];
    // A device of no capacity holds no stage (the plan would not fit), so the fraction is finite.
    if (!(s.memory_capacity > 0)) continue;
    const double fraction = s.memory_used / s.memory_capacity;
    if (fraction > limits::kMemoryWarningFraction) {
      MemoryWarning w;
      w.stage = static_cast<std::int64_t>(k);
      w.device = s.device;
      w.memory_used = s.memory_used;
      w.memory_capacity = s.memory_capacity;
      w.fraction = fraction;
      out.push_back(w);
    }
  }
  return out;
}

double throughput(const Plan& plan) {
  switch (plan.objective) {
    case Objective::blocking: return plan.analysis.M / plan.analysis.T_block;
    // The figure the search optimizes: at a small M a split of more tau_max but less fill finishes
    // its M micro-batches sooner, and M / T_async would show it beating the plan.
    case Objective::throughput: return 1 / plan.analysis.tau_max;
    case Objective::async: break;
  }
  return plan.analysis.M / plan.analysis.T_async;
}

// tokens x throughput, written once for the plan, the baselines and the what-if.
double tokens_per_second(const Plan& plan, double tokens) { return tokens * throughput(plan); }

std::vector<double> tokens_per_second_band(double tokens_per_second) {
  return {tokens_per_second * kEstimateBandLow, tokens_per_second * kEstimateBandHigh};
}

Result<PlanReport> make_plan_report(const PlanInput& input, std::optional<PlanLink> added_link, double tokens) {
  auto plan = make_plan(input);
  if (!plan) return plan.error();
  PlanReport report;
  report.plan = std::move(plan).value();
  report.tokens_per_second = tokens_per_second(report.plan, tokens);
  report.throughput = throughput(report.plan);
  const auto L = static_cast<std::int64_t>(input.layer_memory.size());
  const auto S = static_cast<std::int64_t>(input.devices.size());
  report.even = baseline_of(input, even_layer_counts(L, S), report.plan, tokens);
  std::vector<double> capacities;
  for (const PlanDevice& device : input.devices) capacities.push_back(device.memory_capacity);
  report.memory_proportional =
      baseline_of(input, memory_proportional_layer_counts(capacities, L, input.unrun_layers), report.plan, tokens);
  std::vector<std::int64_t> counts;
  for (const PlanStage& stage : report.plan.stages) counts.push_back(stage.layers);
  report.runtime = runtime_flags(counts, input.unrun_layers);
  report.what_if = what_ifs(input, added_link, report.tokens_per_second, tokens);
  report.warnings = memory_warnings(report.plan);
  return report;
}

namespace {

bool memory_error(ErrorCode code) {
  return code == ErrorCode::memory_short || code == ErrorCode::no_feasible_split ||
         code == ErrorCode::device_too_small;
}

bool fits(const EstimateInput& input) {
  auto estimated = estimate(input);
  return estimated && make_plan(estimated.value()).ok();
}

// Every speed of an estimate's report gets its band, the infeasible
// what-if's 0 included ([0, 0]): an estimate's bands are never null.
void with_bands(PlanReport& r) {
  r.tokens_per_second_band = tokens_per_second_band(r.tokens_per_second);
  r.even.tokens_per_second_band = tokens_per_second_band(r.even.tokens_per_second);
  r.memory_proportional.tokens_per_second_band = tokens_per_second_band(r.memory_proportional.tokens_per_second);
  for (WhatIf& w : r.what_if) w.tokens_per_second_band = tokens_per_second_band(w.tokens_per_second);
}

}  // namespace

Error with_memory_advice(const EstimateInput& input, Error error) {
  error.field = Field::memory;
  if (!input.model_info) {
    const auto quant = find_quant(input.quant);
    double chosen = 0;  // the bytes per weight of the quantization found so far
    for (const QuantSpec& q : catalog_quants()) {
      if (!quant || q.bytes_per_weight >= quant.value().bytes_per_weight || q.bytes_per_weight <= chosen) continue;
      EstimateInput smaller = input;
      smaller.quant = std::string(q.id);
      if (fits(smaller)) {
        chosen = q.bytes_per_weight;
        error.fits_quant = std::string(q.id);
      }
    }
  }
  auto estimated = estimate(input);
  if (!estimated || input.devices.empty()) return error;
  const auto& devices = estimated.value().devices;
  std::size_t largest = 0;
  for (std::size_t k = 1; k < devices.size(); ++k) {
    if (devices[k].memory_capacity > devices[largest].memory_capacity) largest = k;
  }
  EstimateInput more = input;
  more.devices.push_back(input.devices[largest]);
  if (!more.links.empty()) more.links.push_back(more.links.back());
  // The chain as given, plus the device at its end: what the what-if adds too.
  more.order = DeviceOrder::given;
  if (static_cast<std::int64_t>(more.devices.size()) <= limits::kMaxPlanDevices && fits(more)) {
    error.fits_with_device = static_cast<std::int64_t>(largest);
  }
  return error;
}

Result<PlanReport> make_plan_report(const PlanRequest& request) {
  auto input = plan_input_of(request);
  if (!input) return input.error();
  const PlanInput& in = input.value();
  std::optional<PlanLink> added;
  const auto* estimated = std::get_if<EstimateInput>(&request);
  if (!in.links.empty()) {
    added = in.links.back();
  } else if (std::holds_alternative<EstimateInput>(request)) {
    const LinkSpec pcie = find_link("pcie4-x16", kWholeField).value();
    added = PlanLink{pcie.latency + kHopSync, pcie.bandwidth};  // as the estimate plans every link
  }
  // An estimate whose layers need more than any device's memory can be is
  // short of memory, with the same advice as the solver's memory errors.
  if (estimated) {
    if (auto e = plan_detail::memory_past_every_device(in)) return with_memory_advice(*estimated, *e);
  }
  auto report = make_plan_report(in, added, estimated ? estimated->tokens : 1);
  if (!report && estimated && memory_error(report.error().code)) return with_memory_advice(*estimated, report.error());
  if (!report || !estimated) return report;
  // The estimate succeeded, so its calibration did too.
  Calibration calibration = calibration_of(*estimated).value();
  PlanReport out = std::move(report).value();
  with_bands(out);
  out.calibrated = std::move(calibration.calibrated);
  out.calibration_unused = std::move(calibration.unused);
  return out;
}

}  // namespace heteropipe
