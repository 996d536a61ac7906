// The estimator: a roofline per layer on each device, from the catalog's
// facts (docs/planner.md#the-estimator).
#include "heteropipe/plan/estimate.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "estimate_check.hpp"
#include "heteropipe/limits.hpp"

namespace heteropipe {
namespace {

// llama.cpp keeps the KV cache in F16 and hands the residual stream from
// one device to the next in F32.
constexpr double kKvCacheBytes = 2;
constexpr double kActivationBytes = 4;

// A device with every fact settled, and its measured per-layer time if given.
struct Device {
  double memory = 0, memory_bandwidth = 0, fp16_flops = 0;
  DeviceClass device_class = DeviceClass::nvidia_gddr;
  std::optional<double> layer_time;
};

Result<Device> device_of(const DeviceChoice& choice, std::int64_t index, Phase phase, double tokens,
                         std::int64_t layers) {
  Device device;
  if (!choice.id.empty()) {
    auto spec = find_gpu(choice.id, index);
    if (!spec) return spec.error();
    device = {spec.value().memory, spec.value().memory_bandwidth, spec.value().fp16_flops,
              spec.value().device_class, std::nullopt};
  }
  const bool custom = choice.id.empty();
  for (auto [given, field, target] : {std::tuple{&choice.memory, Field::memory, &device.memory},
                                      std::tuple{&choice.memory_bandwidth, Field::memory_bandwidth,
                                                 &device.memory_bandwidth},
                                      std::tuple{&choice.fp16_flops, Field::fp16_flops, &device.fp16_flops}}) {
    if (!*given) {
      if (custom) return Error{ErrorCode::empty, field, index, 0.0, {}};
      continue;
    }
    const bool may_be_zero = field == Field::memory;
    if (auto e = plan_detail::check_number(**given, field, index, may_be_zero)) return *e;
    // Checked as typed, not as the usable memory_capacity it becomes, so
    // that the error quotes the value the user wrote.
    if (field == Field::memory && **given > limits::kMaxValue) {
      return Error{ErrorCode::too_large, field, index, **given, {}, limits::kMaxValue};
    }
    *target = **given;
  }
  if (choice.device_class) device.device_class = *choice.device_class;
  const auto L = static_cast<double>(layers);
  if (choice.layer_time) {
    if (auto e = plan_detail::check_number(*choice.layer_time, Field::layer_time, index, true)) return *e;
    device.layer_time = *choice.layer_time;
  } else if (choice.avg_ts) {
    if (auto e = plan_detail::check_number(*choice.avg_ts, Field::avg_ts, index, false)) return *e;
    device.layer_time = (phase == Phase::decode ? 1.0 : tokens) / (*choice.avg_ts * L);
  }
  return device;
}

Result<std::vector<PlanLink>> links_of(const EstimateInput& input) {
  const auto S = static_cast<std::int64_t>(input.devices.size());
  std::vector<LinkChoice> choices = input.links;
  if (choices.empty() && S > 1) choices.assign(static_cast<std::size_t>(S - 1), LinkChoice{"pcie4-x16", {}, {}});
  if (static_cast<std::int64_t>(choices.size()) != S - 1) {
    return Error{ErrorCode::wrong_length, Field::links, kWholeField, static_cast<double>(choices.size()), {},
                 static_cast<double>(S - 1)};
  }
  std::vector<PlanLink> links;
  for (std::size_t k = 0; k < choices.size(); ++k) {
    const LinkChoice& choice = choices[k];
    const auto index = static_cast<std::int64_t>(k);
    PlanLink link;
    if (!choice.id.empty()) {
      auto spec = find_link(choice.id, index);
      if (!spec) return spec.error();
      link = {spec.value().latency, spec.value().bandwidth};
    } else if (!choice.latency || !choice.bandwidth) {
      return Error{ErrorCode::empty, choice.latency ? Field::bandwidth : Field::latency, index, 0.0, {}};
    }
    if (choice.latency) {
      if (auto e = plan_detail::check_number(*choice.latency, Field::latency, index, true)) return *e;
      link.latency = *choice.latency;
    }
    if (choice.bandwidth) {
      if (auto e = plan_detail::check_number(*choice.bandwidth, Field::bandwidth, index, false)) return *e;
      link.bandwidth = *choice.bandwidth;
    }
    links.push_back(link);
  }
  return links;
}

// Bytes read and arithmetic done by one piece of work on one micro-batch.
struct Work {
  double bytes = 0, flops = 0;
};

double roofline(const Work& work, const Device& device) {
  const ClassEfficiency e = class_efficiency(device.device_class);
  return std::max(work.bytes / (e.bandwidth * device.memory_bandwidth),
                  work.flops / (e.compute * device.fp16_flops));
}

}  // namespace

std::string_view phase_name(Phase phase) { return phase == Phase::decode ? "decode" : "prefill"; }

Result<Phase> phase_from_name(std::string_view name) {
  for (Phase p : {Phase::decode, Phase::prefill}) {
    if (phase_name(p) == name) return p;
  }
  return Error{ErrorCode::unknown_name, Field::phase, kWholeField, 0.0, std::string(name)};
}

// Fitted once, per class, to the llama.cpp decode rows of docs/planner.md's
// validation table; the same for every device of the class.
ClassEfficiency class_efficiency(DeviceClass c) {
  switch (c) {
    case DeviceClass::nvidia_gddr: return {0.9, 0.5, 90e-6, 0.95};
    case DeviceClass::nvidia_hbm: return {0.6, 0.5, 90e-6, 0.95};
    case DeviceClass::apple: return {0.75, 0.5, 200e-6, 0.75};
  }
  return {0.9, 0.5, 90e-6, 0.95};
}

Result<PlanInput> estimate(const EstimateInput& input) {
  auto model = find_model(input.model);
  if (!model) return model.error();
  auto quant = find_quant(input.quant);
  if (!quant) return quant.error();
  if (auto e = plan_detail::check_estimate_scalars(input)) return *e;
  const ModelSpec& m = model.value();
  const double bpw = quant.value().bytes_per_weight;
  const bool decode = input.phase == Phase::decode;
  const auto h = static_cast<double>(m.hidden);
  const double kv_dim = static_cast<double>(m.kv_heads) * h / static_cast<double>(m.heads);
  const double params = 2 * h * h + 2 * h * kv_dim + 3 * h * static_cast<double>(m.intermediate) + 2 * h;
  const double kv_per_token = 2 * kv_dim * kKvCacheBytes;
  const double sequences = decode ? input.tokens : 1;
  const double positions = input.context + (decode ? 1 : input.tokens);
  const double head_weights = static_cast<double>(m.vocab) * h * bpw;

  Work layer{params * bpw, 2 * params * input.tokens};
  if (decode) {
    layer.bytes += kv_per_token * input.context * input.tokens;
    layer.flops += 4 * h * input.context * input.tokens;
  } else {
    layer.bytes += kv_per_token * positions;
    layer.flops += 4 * h * input.tokens * (input.context + input.tokens / 2);
  }
  // Logits for every sequence in decode, for the prompt's last token in prefill.
  const Work head{head_weights, 2 * static_cast<double>(m.vocab) * h * (decode ? input.tokens : 1)};

  PlanInput out;
  const auto L = static_cast<std::size_t>(m.layers);
  for (std::size_t k = 0; k < input.devices.size(); ++k) {
    auto device = device_of(input.devices[k], static_cast<std::int64_t>(k), input.phase, input.tokens, m.layers);
    if (!device) return device.error();
    const Device& d = device.value();
    PlanDevice plan_device;
    plan_device.memory_capacity = d.memory * class_efficiency(d.device_class).usable_memory;
    if (d.layer_time) {
      plan_device.layer_times.assign(L, *d.layer_time);
    } else {
      const double t = roofline(layer, d) + class_efficiency(d.device_class).layer_overhead;
      plan_device.layer_times.assign(L, t);
      plan_device.layer_times.back() += roofline(head, d);
    }
    out.devices.push_back(std::move(plan_device));
  }
  // The KV cache holds every position of every sequence of all M micro-batches.
  out.layer_memory.assign(L, params * bpw + kv_per_token * positions * sequences * input.M);
  out.layer_memory.front() += head_weights;  // the token embedding
  out.layer_memory.back() += head_weights;   // the LM head (its own copy even when tied, as llama.cpp duplicates it)
  auto links = links_of(input);
  if (!links) return links.error();
  out.links = std::move(links).value();
  out.cut_bytes.assign(L - 1, input.tokens * h * kActivationBytes);
  out.M = input.M;
  out.objective = input.objective;
  out.allow_idle_devices = input.allow_idle_devices;
  out.order = input.order;
  return out;
}

Result<PlanInput> plan_input_of(const PlanRequest& request) {
  if (const auto* explicit_input = std::get_if<PlanInput>(&request)) return *explicit_input;
  return estimate(std::get<EstimateInput>(request));
}

}  // namespace heteropipe
