// The estimator: a roofline per layer on each device, from the catalog's
// facts (docs/planner.md#the-estimator).
#include "heteropipe/plan/estimate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "estimate_check.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "heteropipe/plan/calibration.hpp"

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
  bool cuda_graphs = true;  // GpuSpec::cuda_graphs; a custom device has them
};

Result<Device> device_of(const DeviceChoice& choice, std::int64_t index, Phase phase, double tokens,
                         std::int64_t layers) {
  Device device;
  if (!choice.id.empty()) {
    auto spec = find_gpu(choice.id, index);
    if (!spec) return spec.error();
    device = {spec.value().memory, spec.value().memory_bandwidth, spec.value().fp16_flops,
              spec.value().device_class, std::nullopt, spec.value().cuda_graphs};
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
  // Measured speeds are checked as typed too, as a record's avg_ts is.
  if (choice.layer_time) {
    if (auto e = plan_detail::check_number(*choice.layer_time, Field::layer_time, index, true)) return *e;
    if (*choice.layer_time > limits::kMaxValue) {
      return Error{ErrorCode::too_large, Field::layer_time, index, *choice.layer_time, {}, limits::kMaxValue};
    }
    device.layer_time = *choice.layer_time;
  } else if (choice.avg_ts) {
    if (auto e = plan_detail::check_number(*choice.avg_ts, Field::avg_ts, index, false)) return *e;
    if (*choice.avg_ts > limits::kMaxValue) {
      return Error{ErrorCode::too_large, Field::avg_ts, index, *choice.avg_ts, {}, limits::kMaxValue};
    }
    device.layer_time = (phase == Phase::decode ? 1.0 : tokens) / (*choice.avg_ts * L);
  }
  return device;
}

// A device's layer times add up past kMaxValue (or to infinity): the error
// names what the user gave that makes the device that slow, with the least
// value that would do, figured from the work itself (never from an
// overflowed time): its avg_ts, the record that calibrates it, or the
// memory_bandwidth or fp16_flops whose roofline term is the larger.
struct SlowDevice {
  std::int64_t index = 0;
  const DeviceChoice* choice = nullptr;
  double work = 0;                   // avg_ts: the tokens one micro-batch's layers take together
  const Calibrated* record = nullptr;  // the record that calibrates it, if any
  double estimated_sum = 0;          // its estimated layer times summed, before calibration
  double estimated_largest = 0;      // and the largest of them
  double bytes_time = 0, flops_time = 0;  // each roofline term summed over its layers
  double bytes = 0, flops = 0;             // and the work behind each, over its efficiency
};

// nullopt where the device's own facts are not to blame (a layer_time as
// typed, or catalog facts: then the model's work is; check_plan_input says so).
std::optional<Error> too_slow(const SlowDevice& d, const EstimateInput& input, std::int64_t layers) {
  const double most = limits::kMaxValue;
  if (d.choice->layer_time) return std::nullopt;
  if (d.choice->avg_ts) {
    return Error{ErrorCode::too_small, Field::avg_ts, d.index, *d.choice->avg_ts, {}, d.work / most};
  }
  if (d.record && std::isfinite(d.estimated_sum)) {
    const BenchRecord& r = input.calibration[static_cast<std::size_t>(d.record->record)];
    // Calibrated times are the estimated ones times the estimated speed over avg_ts.
    auto speed = plan_detail::record_tokens_per_second(input, static_cast<std::size_t>(d.index), r, layers);
    if (!speed) return speed.error();
    return Error{ErrorCode::too_small, Field::calibration, d.record->record, r.avg_ts, r.avg_ts_typed,
                 d.estimated_sum / most * speed.value()};
  }
  const bool bytes = d.bytes_time >= d.flops_time;
  const std::optional<double>& given = bytes ? d.choice->memory_bandwidth : d.choice->fp16_flops;
  if (!given) return std::nullopt;
  return Error{ErrorCode::too_small, bytes ? Field::memory_bandwidth : Field::fp16_flops, d.index, *given, {},
               (bytes ? d.bytes : d.flops) / most};
}

// The largest number of four significant digits at or below x > 0. The
// power of ten is found by multiplying and dividing, not by the library's
// log10 and pow, so native and wasm give the same bits.
double four_digits_down(double x) {
  if (!(x > 0) || !std::isfinite(x)) return x;
  double power = 1;
  while (x >= power * 10) power *= 10;
  while (x < power) power /= 10;
  const double step = power / 1000;
  double down = std::floor(x / step) * step;
  while (down > x) down -= step;
  return down > 0 ? down : x;
}

// The largest value of a speed x for which time(x), decreasing in x, is still
// at least the least stage time: `most` figured by the caller, stepped down
// past any rounding of time() so that the value named is one that plans,
// then down to four significant digits, which a person reads and types
// (3.124e13, not 3.1249999999999996e13): a smaller speed plans too.
template <class Time>
double fastest_allowed(double most, Time time) {
  for (int k = 0; k < 64 && most > 0 && !(time(most) >= limits::kMinStageTime); ++k) {
    most = std::nextafter(most, 0.0);
  }
  return four_digits_down(most);
}

// A device so fast, as given, that every layer takes under
// limits::kMinStageTime: no plan's tau_max could reach it, and check_plan_input
// would name layer_times, a key of the explicit form, with a time never typed.
// The error names what the user gave instead: the device's layer_time, its
// avg_ts, or the record that calibrates it, with the bound that would do.
// nullopt where its own facts are not to blame.
std::optional<Error> too_fast(const SlowDevice& d, const EstimateInput& input, std::int64_t layers,
                              double largest) {
  if (!(largest < limits::kMinStageTime)) return std::nullopt;
  const auto L = static_cast<double>(layers);
  if (d.choice->layer_time) {
    return Error{ErrorCode::too_small, Field::layer_time, d.index, *d.choice->layer_time, {}, limits::kMinStageTime};
  }
  if (d.choice->avg_ts) {
    // As device_of figures the layer time from it.
    const double most = fastest_allowed(d.work / (L * limits::kMinStageTime),
                                        [&](double avg_ts) { return d.work / (avg_ts * L); });
    return Error{ErrorCode::too_large, Field::avg_ts, d.index, *d.choice->avg_ts, {}, most};
  }
  if (d.record && d.estimated_largest > 0) {
    const BenchRecord& r = input.calibration[static_cast<std::size_t>(d.record->record)];
    auto speed = plan_detail::record_tokens_per_second(input, static_cast<std::size_t>(d.index), r, layers);
    if (!speed) return speed.error();
    // Calibrated times are the estimated ones over the factor avg_ts / speed.
    const double most = fastest_allowed(d.estimated_largest / limits::kMinStageTime * speed.value(),
                                        [&](double avg_ts) { return d.estimated_largest / (avg_ts / speed.value()); });
    return Error{ErrorCode::too_large, Field::calibration, d.record->record, r.avg_ts, r.avg_ts_typed, most};
  }
  return std::nullopt;
}

// The links as chosen, or the catalog's default between each two devices.
Result<std::vector<LinkChoice>> link_choices(const EstimateInput& input) {
  const auto S = static_cast<std::int64_t>(input.devices.size());
  std::vector<LinkChoice> choices = input.links;
  if (choices.empty() && S > 1) choices.assign(static_cast<std::size_t>(S - 1), LinkChoice{"pcie4-x16", {}, {}});
  if (static_cast<std::int64_t>(choices.size()) != S - 1) {
    return Error{ErrorCode::wrong_length, Field::links, kWholeField, static_cast<double>(choices.size()), {},
                 static_cast<double>(S - 1)};
  }
  return choices;
}

Result<PlanLink> link_of(const LinkChoice& choice, std::int64_t index) {
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
  return link;
}

Result<std::vector<PlanLink>> links_of(const EstimateInput& input) {
  auto choices = link_choices(input);
  if (!choices) return choices.error();
  std::vector<PlanLink> links;
  for (std::size_t k = 0; k < choices.value().size(); ++k) {
    auto link = link_of(choices.value()[k], static_cast<std::int64_t>(k));
    if (!link) return link.error();
    links.push_back(link.value());
  }
  return links;
}

// Bytes read and arithmetic done by one piece of work on one micro-batch,
// and the weights among them stored in fewer than 2 bytes, which the
// kernels unpack before they multiply (dequant_weights).
struct Work {
  double bytes = 0, flops = 0, dequant_weights = 0;
};

// The bytes the planner may fill on a device: the usable share of its
// memory less the runtime's compute buffer (none below zero).
double capacity_of(const Device& d) {
  return std::max(0.0, d.memory * class_efficiency(d.device_class).usable_memory - kComputeBufferBytes);
}

// The roofline, plus the unpacking of the quantized weights read
// (kDequantFlops each, at the device's fp16 rate), which the kernels do
// beside their reads rather than under them.
double work_seconds(const Work& work, const Device& device) {
  const ClassEfficiency e = class_efficiency(device.device_class);
  return std::max(work.bytes / (e.bandwidth * device.memory_bandwidth),
                  work.flops / (e.compute * device.fp16_flops)) +
         work.dequant_weights * kDequantFlops / device.fp16_flops;
}

// Weights stored in fewer than 2 bytes each (every format but F16, BF16 and F32) are unpacked.
bool quantized(double bytes_per_weight) { return bytes_per_weight < 2; }

}  // namespace

std::string_view phase_name(Phase phase) { return phase == Phase::decode ? "decode" : "prefill"; }

Result<Phase> phase_from_name(std::string_view typed) {
  const std::string_view name = typed_value(typed);
  for (Phase p : {Phase::decode, Phase::prefill}) {
    if (phase_name(p) == name) return p;
  }
  return Error{ErrorCode::unknown_name, Field::phase, kWholeField, 0.0, std::string(name)};
}

// Fitted once, per class, with kHopSync and kDequantFlops, to the llama.cpp
// decode rows of docs/planner.md's fit set (six sources, August 2023 to
// 2026), as current builds run them: CUDA builds since llama.cpp pull
// request #6766 (April 2024) launch each token's kernels as one CUDA graph,
// and the fit charges the rows that ran before it kPreGraphLayerCost more per
// layer (plan/estimate.hpp), so layer_overhead is the launch cost of the
// builds users run now. The same for every device of the
// class. The AMD and Intel classes have no rows in the fit set: each borrows
// the constants of the NVIDIA class with its kind of memory (GDDR cards, HBM
// accelerators), so that a plan mixing them with NVIDIA cards ranks them by
// their spec facts alone.
ClassEfficiency class_efficiency(DeviceClass c) {
  switch (c) {
    case DeviceClass::nvidia_gddr:
    case DeviceClass::amd_gddr:
    case DeviceClass::intel_gddr: return {0.91, 0.5, 30e-6, 0.96};
    case DeviceClass::nvidia_hbm:
    case DeviceClass::amd_hbm: return {0.63, 0.5, 57e-6, 0.96};
    case DeviceClass::apple: return {0.86, 0.5, 130e-6, 0.75};
  }
  return {0.91, 0.5, 30e-6, 0.96};
}

namespace {

// The positions the KV cache holds per sequence: in decode, `context` (the
// cache a runtime allocates, as llama.cpp's n_ctx, which the new token's
// entry fits in); in prefill, the context and the prompt's `tokens`.
double cached_positions(const EstimateInput& input) {
  return input.phase == Phase::decode ? input.context : input.context + input.tokens;
}

// One layer's attention over the positions it sees, the last `window` only
// where it slides (as llama.cpp's sliding-window cache keeps them): its KV
// cache read, and each query scored against those positions. Both forms of
// the model (the catalog's and the facts') add it so.
void add_attention(Work& layer, const EstimateInput& input, double kv_per_token, double q_dim, double window) {
  if (input.phase == Phase::decode) {
    const double seen = std::min(input.context, window);
    layer.bytes += kv_per_token * seen * input.tokens;
    layer.flops += 4 * q_dim * seen * input.tokens;
  } else {
    layer.bytes += kv_per_token * std::min(input.context + input.tokens, window);
    layer.flops += 4 * q_dim * input.tokens * std::min(input.context + input.tokens / 2, window);
  }
}

// The shared tail of both forms: the links (each hop also paying kHopSync),
// the cuts and the options.
Result<PlanInput> finish(const EstimateInput& input, PlanInput out, double hidden) {
  const std::size_t L = out.layer_memory.size();
  auto links = links_of(input);
  if (!links) return links.error();
  out.links = std::move(links).value();
  for (PlanLink& link : out.links) link.latency += kHopSync;
  out.cut_bytes.assign(L - 1, input.tokens * hidden * kActivationBytes);
  out.M = input.M;
  out.objective = input.objective;
  out.allow_idle_devices = input.allow_idle_devices;
  out.order = input.order;
  return out;
}

// Each device's capacity and layer times, for both forms: its own measured
// layer time, or the roofline of each layer's work (layer_work(j)) plus its
// class's overhead, the last layer also computing the logits, divided by
// the device's calibration factor (heteropipe/plan/calibration.hpp).
template <class LayerWork>
Result<std::vector<PlanDevice>> devices_of(const EstimateInput& input, std::int64_t layers, LayerWork layer_work,
                                           const Work& lm_head) {
  auto calibration = calibration_of(input);
  if (!calibration) return calibration.error();
  std::vector<PlanDevice> out;
  for (std::size_t k = 0; k < input.devices.size(); ++k) {
    auto device = device_of(input.devices[k], static_cast<std::int64_t>(k), input.phase, input.tokens, layers);
    if (!device) return device.error();
    const Device& d = device.value();
    PlanDevice plan_device;
    plan_device.memory_capacity = capacity_of(d);
    const auto L = static_cast<std::size_t>(layers);
    SlowDevice slow{static_cast<std::int64_t>(k), &input.devices[k]};
    slow.work = input.phase == Phase::decode ? 1.0 : input.tokens;
    if (d.layer_time) {
      plan_device.layer_times.assign(L, *d.layer_time);
    } else {
      const ClassEfficiency e = class_efficiency(d.device_class);
      // A card without CUDA graphs launches each layer's kernels one by one.
      const double overhead = e.layer_overhead + (d.cuda_graphs ? 0.0 : kPreGraphLayerCost);
      for (std::size_t j = 0; j <= L; ++j) {
        const Work w = j < L ? layer_work(j) : lm_head;
        // The fp16 rate's share: the arithmetic and the unpacking of quantized weights.
        const double unpack = w.dequant_weights * kDequantFlops;
        slow.bytes += w.bytes / e.bandwidth;
        slow.flops += w.flops / e.compute + unpack;
        slow.bytes_time += w.bytes / (e.bandwidth * d.memory_bandwidth);
        slow.flops_time += w.flops / (e.compute * d.fp16_flops) + unpack / d.fp16_flops;
        if (j < L) plan_device.layer_times.push_back(work_seconds(w, d) + overhead);
      }
      plan_device.layer_times.back() += work_seconds(lm_head, d);
      for (double t : plan_device.layer_times) {
        slow.estimated_sum += t;
        slow.estimated_largest = std::max(slow.estimated_largest, t);
      }
      const double factor = calibration.value().factors[k];
      if (factor != 1) {
        for (double& t : plan_device.layer_times) t /= factor;
        for (const Calibrated& c : calibration.value().calibrated) {
          if (c.device == slow.index) slow.record = &c;
        }
      }
    }
    // As check_plan_input adds them: past the limit, say which input is to blame.
    double sum = 0;
    for (double t : plan_device.layer_times) sum += t;
    if (!(sum <= limits::kMaxValue)) {
      if (auto e = too_slow(slow, input, layers)) return *e;
    }
    // Every layer under the least stage time on this device makes it the
    // fastest for each, and no plan's tau_max could reach that time.
    double largest = 0;
    for (double t : plan_device.layer_times) largest = std::max(largest, t);
    if (auto e = too_fast(slow, input, layers, largest)) return *e;
    out.push_back(std::move(plan_device));
  }
  return out;
}

// A model given by its facts (a GGUF file's, or "model": {...}): each layer
// its own bytes, from each tensor's own type. A layer that sliding_layers
// marks attends to the last sliding_window positions only, as the catalog's
// estimate has it; every other layer to every position.
Result<PlanInput> estimate_facts(const EstimateInput& input, const ModelInfo& m) {
  if (auto e = check_model_info(m)) return *e;
  if (auto e = plan_detail::check_estimate_scalars(input)) return *e;
  const bool decode = input.phase == Phase::decode;
  const auto h = static_cast<double>(m.n_embd);
  // The chain is the layers decode runs: llama.cpp loads no tensor of the
  // multi-token-prediction layers after them (TENSOR_SKIP) and never runs them.
  const auto L = static_cast<std::size_t>(m.layers - m.nextn_predict_layers);
  // The KV cache spread evenly over the layers that keep one (a file's
  // attending layers differ in their weights, rarely in their heads), the
  // recurrent state over the recurrent layers: each step reads and writes
  // the state of every sequence it carries. An empty list marks every layer.
  // A layer that attends without a cache of its own (Gemma 3n's last layers)
  // reads an earlier layer's cache: one layer's share, as much as its own would be.
  const auto marked = [](const std::vector<double>& flags, std::size_t l) { return flags.empty() || flags[l] != 0; };
  const std::vector<double>& caching = m.kv_layers.empty() ? m.attention_layers : m.kv_layers;
  double cache_layers = 0, recurrent = 0;
  for (std::size_t l = 0; l < L; ++l) {
    cache_layers += marked(caching, l) ? 1 : 0;
    recurrent += marked(m.recurrent_layers, l) ? 1 : 0;
  }
  const double kv_share = cache_layers > 0 ? m.kv_bytes_per_token / cache_layers : 0;
  const double state_share = recurrent > 0 ? m.recurrent_bytes_per_sequence / recurrent : 0;
  auto kv_of = [&](std::size_t l) { return marked(caching, l) ? kv_share : 0.0; };
  auto state_of = [&](std::size_t l) { return marked(m.recurrent_layers, l) ? state_share : 0.0; };
  const double sequences = decode ? input.tokens : 1;
  const double cached = cached_positions(input);
  // A model that keeps no KV cache (a pure SSM or recurrent one) attends to no earlier position.
  const double q_dim = m.kv_bytes_per_token <= 0 ? 0
                       : m.n_head > 0 && m.key_length > 0 ? static_cast<double>(m.n_head) * static_cast<double>(m.key_length)
                                                           : h;
  // A mixture's micro-batch reads the experts its t tokens pick: of the
  // expert bytes E (layer_bytes - active_layer_bytes = E (1 - u/n)), the
  // expected distinct share 1 - (1 - u/n)^t, as the catalog's estimate does.
  const bool moe = m.expert_count > 0 && m.expert_used_count < m.expert_count;
  const double unused = moe ? 1 - static_cast<double>(m.expert_used_count) / static_cast<double>(m.expert_count) : 0;
  const double unread = moe ? std::pow(unused, input.tokens - 1) : 0;

  const double everything = std::numeric_limits<double>::infinity();
  auto window_of = [&](std::size_t l) {
    const bool slides = m.sliding_window > 0 && !m.sliding_layers.empty() && m.sliding_layers[l] != 0;
    return slides ? static_cast<double>(m.sliding_window) : everything;
  };
  std::vector<Work> layers(L);
  for (std::size_t l = 0; l < L; ++l) {
    const double read = m.layer_bytes[l] - (m.layer_bytes[l] - m.active_layer_bytes[l]) * unread;
    Work& layer = layers[l];
    layer = {moe ? read : m.active_layer_bytes[l], 2 * m.active_layer_params[l] * input.tokens};
    // The weights read, at the layer's own bytes per weight (a layer said to read no bytes unpacks none).
    const double params = m.active_layer_params[l], bytes = m.active_layer_bytes[l];
    if (params > 0 && bytes > 0 && quantized(bytes / params)) layer.dequant_weights = moe ? params * (read / bytes) : params;
    const double window = window_of(l);
    layer.bytes += 2 * state_of(l) * sequences;
    // A layer that does not attend has no cache to read and no earlier position to attend to.
    if (marked(m.attention_layers, l)) add_attention(layer, input, kv_share, q_dim, window);
  }
  // Logits for every sequence in decode, for the prompt's last token in prefill.
  const double head_params = static_cast<double>(m.vocab_size) * h;
  const Work lm_head{m.output_bytes, 2 * head_params * (decode ? input.tokens : 1),
                     head_params > 0 && quantized(m.output_bytes / head_params) ? head_params : 0};

  PlanInput out;
  auto devices = devices_of(input, static_cast<std::int64_t>(L), [&layers](std::size_t j) { return layers[j]; }, lm_head);
  if (!devices) return devices.error();
  out.devices = std::move(devices).value();
  out.unrun_layers = m.nextn_predict_layers;
  // Memory holds every weight (all experts), the KV cache (`cached`
  // positions of every sequence in flight, sequences x M; a sliding layer's at
  // most the window's) and the recurrent state of each of those sequences.
  for (std::size_t l = 0; l < L; ++l) {
    out.layer_memory.push_back(m.layer_bytes[l] + kv_of(l) * std::min(cached, window_of(l)) * sequences * input.M +
                               state_of(l) * sequences * input.M);
  }
  out.layer_memory.front() += m.embedding_bytes;  // the token embedding
  out.layer_memory.back() += m.output_bytes;      // the LM head
  return finish(input, std::move(out), h);
}

}  // namespace

Result<double> plan_detail::record_tokens_per_second(const EstimateInput& input, std::size_t k,
                                                     const BenchRecord& record, std::int64_t layers) {
  const bool decode = record.n_prompt == 0;
  auto device = device_of(input.devices[k], static_cast<std::int64_t>(k), input.phase, input.tokens, layers);
  if (!device) return device.error();
  const auto L = static_cast<double>(layers);
  const double tokens = decode ? 1 : record.n_prompt;
  const double params = record.model_n_params / L;
  const Work layer{record.model_size / L, 2 * params * tokens,
                   quantized(record.model_size / record.model_n_params) ? params : 0};
  const double seconds =
      L * (work_seconds(layer, device.value()) + class_efficiency(device.value().device_class).layer_overhead);
  return tokens / seconds;
}

namespace {

// One part of a catalog model's weights, by how llama.cpp's quantizer stores
// them: `in_format` weights at the format's `rate` bytes each, and the
// matrices whose rows are no whole number of the format's blocks at their
// fallback types' rates (`fallback_weights`, their bytes and how many of
// them are unpacked). With no fallback, the bytes are in_format x rate.
struct Part {
  double rate = 0;
  double in_format = 0;
  double fallback_weights = 0, fallback_bytes = 0, fallback_unpacked = 0;

  // A matrix of `weights` stored at `stored_rate` bytes each: the format's rate or a fallback's.
  void add(double weights, double stored_rate) {
    if (stored_rate == rate) {
      in_format += weights;
      return;
    }
    fallback_weights += weights;
    fallback_bytes += weights * stored_rate;
    if (quantized(stored_rate)) fallback_unpacked += weights;
  }
  // Of `copies` of the part (a mixture's experts, held or read):
  double weights(double copies = 1) const { return copies * in_format + copies * fallback_weights; }
  double bytes(double copies = 1) const { return copies * in_format * rate + copies * fallback_bytes; }
  // the weights stored in fewer than 2 bytes each, which the kernels unpack.
  double unpacked(double copies = 1) const {
    return (quantized(rate) ? copies * in_format : 0) + copies * fallback_unpacked;
  }
};

// A catalog model's weights in a quantization: per layer, those outside the
// experts (attention, a mixture's router, two norms) and one expert's gated
// MLP (a dense model is one expert that every token uses); and the token
// embedding and the LM head. Each matrix is stored as llama.cpp's quantizer
// stores it: in the format, unless its rows (its input dimension: the hidden
// size, q_dim for the attention output, intermediate for the MLP's down
// projection) are no whole number of the format's blocks (plan/catalog.hpp).
// The one place both the facts (model_info_of) and the catalog's estimate
// count a catalog model's bytes.
struct CatalogWeights {
  Part shared, expert, embedding, lm_head;
};

// Whether layer j of a catalog model slides (plan/catalog.hpp): the one place
// both its estimate and its facts (model_info_of) read the pattern.
bool catalog_slides(const ModelSpec& m, std::size_t j) {
  return m.sliding_window > 0 && (m.sliding_period == 0 || (j + 1) % static_cast<std::size_t>(m.sliding_period) != 0);
}

CatalogWeights catalog_weights(const ModelSpec& m, const QuantSpec& quant) {
  const double ffn = quant.bytes_per_weight;         // the feed-forward (expert) matrices
  const double other = non_ffn_bytes_per_weight(quant);  // attention, router, norms, embeddings
  const std::int64_t q_dim = m.heads * head_size_of(m), kv_dim = m.kv_heads * head_size_of(m);
  const auto h = static_cast<double>(m.hidden);
  auto stored = [&](double rate, std::int64_t row) { return stored_bytes_per_weight(quant, rate, row); };
  CatalogWeights w;
  w.shared.rate = other;
  w.shared.add(h * static_cast<double>(q_dim), stored(other, m.hidden));       // Q
  w.shared.add(2 * h * static_cast<double>(kv_dim), stored(other, m.hidden));  // K and V
  w.shared.add(static_cast<double>(q_dim) * h, stored(other, q_dim));          // the output projection
  if (m.experts > 0) w.shared.add(h * static_cast<double>(m.experts), stored(other, m.hidden));  // the router
  w.shared.add(2 * h, stored(other, m.hidden));                                // two norms
  w.expert.rate = ffn;
  w.expert.add(2 * h * static_cast<double>(m.intermediate), stored(ffn, m.hidden));  // gate and up
  w.expert.add(static_cast<double>(m.intermediate) * h, stored(ffn, m.intermediate));  // down
  const double vocab = static_cast<double>(m.vocab) * h;
  w.embedding.rate = other;
  w.embedding.add(vocab, stored(other, m.hidden));
  // The LM head has its own copy even when tied, as llama.cpp duplicates it.
  w.lm_head.rate = other;
  w.lm_head.add(vocab, lm_head_bytes_per_weight(quant, m.hidden));
  return w;
}

}  // namespace

ModelInfo model_info_of(const ModelSpec& m, const QuantSpec& quant) {
  const CatalogWeights w = catalog_weights(m, quant);
  const bool moe = m.experts > 0;
  const double all = moe ? static_cast<double>(m.experts) : 1;
  const double used = moe ? static_cast<double>(m.experts_used) : 1;
  const auto head = static_cast<double>(head_size_of(m));
  const double kv_dim = static_cast<double>(m.kv_heads) * head;
  ModelInfo info;
  info.architecture = "catalog";
  info.name = std::string(m.name);
  info.layers = m.layers;
  info.n_embd = m.hidden;
  info.n_head = m.heads;
  info.n_head_kv = m.kv_heads;
  info.expert_count = m.experts;
  info.expert_used_count = m.experts_used;
  info.key_length = info.value_length = head_size_of(m);
  info.feed_forward_length = m.intermediate;
  info.vocab_size = m.vocab;
  info.sliding_window = m.sliding_window;
  const auto L = static_cast<std::size_t>(m.layers);
  info.sliding_layers.assign(L, 0.0);
  for (std::size_t j = 0; j < L; ++j) info.sliding_layers[j] = catalog_slides(m, j) ? 1.0 : 0.0;
  info.attention_layers.assign(L, 1.0);  // every catalog layer attends and keeps its cache; none is recurrent
  info.kv_layers.assign(L, 1.0);
  info.recurrent_layers.assign(L, 0.0);
  info.layer_bytes.assign(L, w.shared.bytes() + w.expert.bytes(all));
  info.active_layer_bytes.assign(L, w.shared.bytes() + w.expert.bytes(used));
  info.active_layer_params.assign(L, w.shared.weights() + w.expert.weights(used));
  info.embedding_bytes = w.embedding.bytes();
  info.output_bytes = w.lm_head.bytes();
  info.kv_bytes_per_token = static_cast<double>(m.layers) * 2 * kv_dim * kKvCacheBytes;
  return info;
}

namespace {

// The heads and experts of a model's facts, which must agree with each other.
// Each count is a whole number a double holds exactly; 0 says the file does
// not give it, and is refused only where another fact needs it.
std::optional<Error> check_heads_and_experts(const ModelInfo& m) {
  constexpr double kMaxCount = limits::kMaxModelCount;
  for (auto [n, field] : {std::pair{m.n_embd, Field::n_embd}, std::pair{m.n_head, Field::n_head},
                          std::pair{m.n_head_kv, Field::n_head_kv}, std::pair{m.context_length, Field::context_length},
                          std::pair{m.expert_count, Field::expert_count},
                          std::pair{m.expert_used_count, Field::expert_used_count},
                          std::pair{m.key_length, Field::key_length}, std::pair{m.value_length, Field::value_length},
                          std::pair{m.feed_forward_length, Field::feed_forward_length},
                          std::pair{m.vocab_size, Field::vocab_size}, std::pair{m.sliding_window, Field::sliding_window},
                          std::pair{m.nextn_predict_layers, Field::nextn_predict_layers}}) {
    if (n < 0) return Error{ErrorCode::negative, field, kWholeField, static_cast<double>(n), {}};
    // Compared as whole numbers: 2^53 + 1 converts to the double 2^53, and passed.
    if (n > static_cast<std::int64_t>(kMaxCount)) {
      // Quoted as held, exactly: past 2^53 the double rounds it (2^53 + 1 showed as 2^53).
      return Error{ErrorCode::too_large, field, kWholeField, static_cast<double>(n), std::to_string(n), kMaxCount};
    }
  }
  if (m.n_embd < 1) return Error{ErrorCode::not_positive, Field::n_embd, kWholeField, static_cast<double>(m.n_embd), {}};
  // A model with no heads has no attention, so nothing of it may say otherwise.
  const bool attends = m.n_head_kv > 0 || m.key_length > 0 || m.value_length > 0 || m.kv_bytes_per_token > 0;
  if (m.n_head == 0 && attends) return Error{ErrorCode::not_positive, Field::n_head, kWholeField, 0.0, {}};
  if (m.n_head_kv > m.n_head) {
    return Error{ErrorCode::above_fact, Field::n_head_kv, kWholeField, static_cast<double>(m.n_head_kv), "n_head",
                 static_cast<double>(m.n_head)};
  }
  if (m.n_head_kv > 0 && m.n_head % m.n_head_kv != 0) {
    return Error{ErrorCode::not_a_divisor, Field::n_head_kv, kWholeField, static_cast<double>(m.n_head_kv), "n_head",
                 static_cast<double>(m.n_head)};
  }
  if (m.expert_used_count > m.expert_count) {
    return Error{ErrorCode::above_fact, Field::expert_used_count, kWholeField,
                 static_cast<double>(m.expert_used_count), "expert_count", static_cast<double>(m.expert_count)};
  }
  // A mixture whose tokens use no expert reads none of them.
  if (m.expert_count > 0 && m.expert_used_count == 0) {
    return Error{ErrorCode::not_positive, Field::expert_used_count, kWholeField, 0.0, {}};
  }
  return std::nullopt;
}

}  // namespace

std::optional<Error> check_model_info(const ModelInfo& m) {
  if (m.layers < 1 || m.layers > limits::kMaxPlanLayers) {
    return Error{ErrorCode::out_of_range, Field::layers, kWholeField, static_cast<double>(m.layers), {},
                 static_cast<double>(m.layers < 1 ? 1 : limits::kMaxPlanLayers)};
  }
  if (auto e = check_heads_and_experts(m)) return e;
  // Some layer must run (llama.cpp asserts nextn_predict_layers < n_layer too).
  if (m.nextn_predict_layers > m.layers - 1) {
    return Error{ErrorCode::above_fact, Field::nextn_predict_layers, kWholeField,
                 static_cast<double>(m.nextn_predict_layers), "layers - 1", static_cast<double>(m.layers - 1)};
  }
  const auto L = static_cast<std::size_t>(m.layers);
  for (auto [list, field] : {std::pair{&m.layer_bytes, Field::layer_bytes},
                             std::pair{&m.active_layer_bytes, Field::active_layer_bytes},
                             std::pair{&m.active_layer_params, Field::active_layer_params}}) {
    if (list->size() != L) {
      return Error{ErrorCode::wrong_length, field, kWholeField, static_cast<double>(list->size()), {},
                   static_cast<double>(L)};
    }
    for (std::size_t l = 0; l < L; ++l) {
      if (auto e = plan_detail::check_number((*list)[l], field, static_cast<std::int64_t>(l), true)) return e;
      if ((*list)[l] > limits::kMaxValue) {
        return Error{ErrorCode::too_large, field, static_cast<std::int64_t>(l), (*list)[l], {}, limits::kMaxValue};
      }
    }
  }
  for (std::size_t l = 0; l < L; ++l) {
    const auto layer = static_cast<std::int64_t>(l);
    // A layer of no bytes has no tensors: block_count says more layers than the file holds.
    if (m.layer_bytes[l] == 0) return Error{ErrorCode::not_positive, Field::layer_bytes, layer, 0.0, {}};
    if (m.active_layer_bytes[l] > m.layer_bytes[l]) {
      return Error{ErrorCode::above_fact, Field::active_layer_bytes, layer, m.active_layer_bytes[l], "layer_bytes",
                   m.layer_bytes[l]};
    }
  }
  // Empty (no layer slides; every layer attends; the attending layers keep the cache; the state is spread
  // over all), or a flag per layer.
  for (auto [list, field] : {std::pair{&m.sliding_layers, Field::sliding_layers},
                             std::pair{&m.attention_layers, Field::attention_layers},
                             std::pair{&m.kv_layers, Field::kv_layers},
                             std::pair{&m.recurrent_layers, Field::recurrent_layers}}) {
    if (!list->empty() && list->size() != L) {
      return Error{ErrorCode::wrong_length, field, kWholeField, static_cast<double>(list->size()), {},
                   static_cast<double>(L)};
    }
    for (std::size_t l = 0; l < list->size(); ++l) {
      const double flag = (*list)[l];
      if (auto e = plan_detail::check_number(flag, field, static_cast<std::int64_t>(l), true)) return e;
      if (flag != 0 && flag != 1) {
        return Error{ErrorCode::out_of_range, field, static_cast<std::int64_t>(l), flag, {}, 1.0};
      }
    }
  }
  // A layer keeps a cache only to attend against it (the reverse need not hold: Gemma 3n's last layers).
  for (std::size_t l = 0; l < m.kv_layers.size() && !m.attention_layers.empty(); ++l) {
    if (m.kv_layers[l] > m.attention_layers[l]) {
      return Error{ErrorCode::above_fact, Field::kv_layers, static_cast<std::int64_t>(l), m.kv_layers[l],
                   "attention_layers", m.attention_layers[l]};
    }
  }
  for (auto [x, field] : {std::pair{m.embedding_bytes, Field::embedding_bytes},
                          std::pair{m.output_bytes, Field::output_bytes},
                          std::pair{m.kv_bytes_per_token, Field::kv_bytes_per_token},
                          std::pair{m.recurrent_bytes_per_sequence, Field::recurrent_bytes_per_sequence}}) {
    if (auto e = plan_detail::check_number(x, field, kWholeField, true)) return e;
    if (x > limits::kMaxValue) return Error{ErrorCode::too_large, field, kWholeField, x, {}, limits::kMaxValue};
  }
  // Bytes said to be held on no layer would vanish from the plan; so would bytes held only on the
  // multi-token-prediction layers, which the plan neither holds nor times.
  const auto run = static_cast<std::ptrdiff_t>(m.layers - m.nextn_predict_layers);
  const auto none = [run](const std::vector<double>& flags) {
    return !flags.empty() && std::all_of(flags.begin(), flags.begin() + run, [](double f) { return f == 0; });
  };
  if (m.kv_bytes_per_token > 0 && m.kv_layers.empty() && none(m.attention_layers)) {
    return Error{ErrorCode::not_positive, Field::attention_layers, kWholeField, 0.0, "kv_bytes_per_token"};
  }
  if (m.kv_bytes_per_token > 0 && none(m.kv_layers)) {
    return Error{ErrorCode::not_positive, Field::kv_layers, kWholeField, 0.0, "kv_bytes_per_token"};
  }
  if (m.recurrent_bytes_per_sequence > 0 && none(m.recurrent_layers)) {
    return Error{ErrorCode::not_positive, Field::recurrent_layers, kWholeField, 0.0, "recurrent_bytes_per_sequence"};
  }
  return std::nullopt;
}

Result<PlanInput> estimate(const EstimateInput& input) {
  if (input.model_info) return estimate_facts(input, *input.model_info);
  // Only the CLI and Python read files; elsewhere the facts come as "model": {...}.
  if (!input.gguf.empty()) return Error{ErrorCode::wrong_form, Field::gguf, kWholeField, 0.0, input.gguf};
  auto model = find_model(input.model);
  if (!model) return model.error();
  auto quant = find_quant(input.quant);
  if (!quant) return quant.error();
  if (auto e = plan_detail::check_estimate_scalars(input)) return *e;
  const ModelSpec& m = model.value();
  const bool decode = input.phase == Phase::decode;
  const auto h = static_cast<double>(m.hidden);
  const auto head = static_cast<double>(head_size_of(m));
  const double q_dim = static_cast<double>(m.heads) * head;
  const double kv_dim = static_cast<double>(m.kv_heads) * head;
  const CatalogWeights w = catalog_weights(m, quant.value());
  const bool moe = m.experts > 0;
  const double experts = moe ? static_cast<double>(m.experts) : 1;
  const double used = moe ? static_cast<double>(m.experts_used) : 1;
  const double held_bytes = w.shared.bytes() + w.expert.bytes(experts);  // what memory holds
  // The experts a micro-batch reads: each of its t tokens picks `used` of
  // them, so on average experts x (1 - (1 - used / experts)^t) distinct ones
  // (exactly `used` for one token; all of them, nearly, for a long prompt).
  const double experts_read = moe ? experts * (1 - std::pow(1 - used / experts, input.tokens)) : 1;
  const double bytes_read = w.shared.bytes() + w.expert.bytes(experts_read);
  // The weights read that the kernels unpack (those stored in fewer than 2 bytes).
  const double unpacked = w.shared.unpacked() + w.expert.unpacked(experts_read);
  const double params_per_token = w.shared.weights() + w.expert.weights(used);  // the arithmetic of one token
  const double kv_per_token = 2 * kv_dim * kKvCacheBytes;
  const double sequences = decode ? input.tokens : 1;
  const double cached = cached_positions(input);

  // A layer that attends to every position, and (with a window) one that
  // attends to the last sliding_window positions only, as llama.cpp's
  // sliding-window cache keeps them.
  auto layer_of = [&](double window) {
    Work layer{bytes_read, 2 * params_per_token * input.tokens, unpacked};
    add_attention(layer, input, kv_per_token, q_dim, window);
    return layer;
  };
  const double everything = std::numeric_limits<double>::infinity();
  const double window = m.sliding_window > 0 ? static_cast<double>(m.sliding_window) : everything;
  const Work global_layer = layer_of(everything);
  const Work sliding_layer = layer_of(window);
  auto slides = [&m](std::size_t j) { return catalog_slides(m, j); };
  // Logits for every sequence in decode, for the prompt's last token in prefill.
  const double head_params = static_cast<double>(m.vocab) * h;
  const Work lm_head{w.lm_head.bytes(), 2 * head_params * (decode ? input.tokens : 1), w.lm_head.unpacked()};

  PlanInput out;
  const auto L = static_cast<std::size_t>(m.layers);
  auto devices = devices_of(
      input, m.layers, [&](std::size_t j) { return slides(j) ? sliding_layer : global_layer; }, lm_head);
  if (!devices) return devices.error();
  out.devices = std::move(devices).value();
  // The KV cache holds `cached` positions of every sequence in flight,
  // sequences x M (a sliding layer, at most the window's).
  for (std::size_t j = 0; j < L; ++j) {
    const double held = slides(j) ? std::min(cached, window) : cached;
    out.layer_memory.push_back(held_bytes + kv_per_token * held * sequences * input.M);
  }
  out.layer_memory.front() += w.embedding.bytes();  // the token embedding
  out.layer_memory.back() += w.lm_head.bytes();     // the LM head (its own copy even when tied)
  return finish(input, std::move(out), h);
}

std::vector<Error> estimate_input_errors(const EstimateInput& input) {
  // A GGUF path not read yet: the caller (the CLI, Python) reads the file after the JSON, and then
  // estimate() judges the input with the file's facts.
  if (!input.model_info && !input.gguf.empty()) return {};
  // A model given by its facts: estimate()'s first error, as before.
  if (input.model_info) {
    auto estimated = estimate(input);
    if (!estimated) return {estimated.error()};
    if (auto e = plan_detail::memory_past_every_device(estimated.value())) return {*e};
    return plan_input_errors(estimated.value());
  }
  std::vector<Error> errors;
  auto model = find_model(input.model);
  if (!model) errors.push_back(model.error());
  if (auto quant = find_quant(input.quant); !quant) errors.push_back(quant.error());
  if (auto e = plan_detail::check_estimate_scalars(input)) errors.push_back(*e);
  const std::int64_t layers = model ? model.value().layers : 1;
  for (std::size_t k = 0; k < input.devices.size(); ++k) {
    auto device = device_of(input.devices[k], static_cast<std::int64_t>(k), input.phase, input.tokens, layers);
    if (!device) errors.push_back(device.error());
  }
  for (std::size_t j = 0; j < input.calibration.size(); ++j) {
    if (auto e = check_record(input.calibration[j], static_cast<std::int64_t>(j))) errors.push_back(*e);
  }
  if (auto choices = link_choices(input); !choices) {
    errors.push_back(choices.error());
  } else {
    for (std::size_t k = 0; k < choices.value().size(); ++k) {
      if (auto link = link_of(choices.value()[k], static_cast<std::int64_t>(k)); !link) errors.push_back(link.error());
    }
  }
  if (!errors.empty()) return errors;
  // Every fact is good: what the estimate becomes is checked as a plan's input.
  auto estimated = estimate(input);
  if (!estimated) return {estimated.error()};
  if (auto e = plan_detail::memory_past_every_device(estimated.value())) return {*e};
  return plan_input_errors(estimated.value());
}

std::optional<Error> plan_detail::memory_past_every_device(const PlanInput& estimated) {
  double need = 0, have = 0;
  bool past = false;
  for (double bytes : estimated.layer_memory) {
    need += bytes;
    past = past || !(bytes <= limits::kMaxValue);
  }
  double most = 0;  // the largest device's capacity
  for (const PlanDevice& device : estimated.devices) {
    have += device.memory_capacity;
    most = std::max(most, device.memory_capacity);
  }
  if (!past || !std::isfinite(need) || estimated.devices.empty()) return std::nullopt;
  // As the solver words a device that holds no layer: the first device and the smallest layer, both
  // exact (need - have would lose the devices' bytes beside a need of 1e32).
  const double smallest = *std::min_element(estimated.layer_memory.begin(), estimated.layer_memory.end());
  if (smallest > most) {
    return Error{ErrorCode::device_too_small, Field::memory, 0, estimated.devices[0].memory_capacity, {}, smallest};
  }
  return Error{ErrorCode::memory_short, Field::memory, kWholeField, need - have, {}, need};
}

Result<PlanInput> plan_input_of(const PlanRequest& request) {
  if (const auto* explicit_input = std::get_if<PlanInput>(&request)) return *explicit_input;
  return estimate(std::get<EstimateInput>(request));
}

}  // namespace heteropipe
