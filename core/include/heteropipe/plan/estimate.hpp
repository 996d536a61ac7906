#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "heteropipe/error.hpp"
#include "heteropipe/plan/catalog.hpp"
#include "heteropipe/plan/gguf.hpp"
#include "heteropipe/plan/input.hpp"

// From a model, a quantization and devices named in the catalog to the
// planner's explicit costs (docs/planner.md#the-estimator).
namespace heteropipe {

enum class Phase { decode, prefill };

std::string_view phase_name(Phase phase);
Result<Phase> phase_from_name(std::string_view name);  // unknown_name on phase

// One device: a catalog id, any of whose facts may be overridden, or (with
// no id) a device described by all of memory, memory_bandwidth and
// fp16_flops (device_class defaults to nvidia-gddr). A measured speed
// replaces the roofline: layer_time (seconds per layer, every layer), or
// avg_ts, llama-bench's tokens per second for the whole model on this one
// device (decode: per-layer time 1 / (avg_ts L); prefill: tokens / (avg_ts L)).
struct DeviceChoice {
  std::string id;
  std::optional<double> memory, memory_bandwidth, fp16_flops;
  std::optional<DeviceClass> device_class;
  std::optional<double> layer_time, avg_ts;
  std::string name;  // what llama-bench's gpu_info calls it (docs/planner.md#calibration)
};

// A link: a catalog id, or latency and bandwidth (either overrides the id's).
struct LinkChoice {
  std::string id;
  std::optional<double> latency, bandwidth;
};

// One record as `llama-bench -o json` writes it (its keys that calibration
// uses; docs/planner.md#calibration): the GPU it ran on (gpu_info, or a
// catalog id as device), its model's size in bytes and parameters, the test
// (n_prompt prompt tokens, or n_gen generated ones) and its tokens per second.
struct BenchRecord {
  std::string gpu_info, device;
  double model_size = 0, model_n_params = 0, n_prompt = 0, n_gen = 0, avg_ts = 0;
  // avg_ts as the JSON typed it, for the errors that judge it against the
  // model's work (too slow or too fast to plan) to quote: "" when not kept.
  std::string avg_ts_typed = {};
};

// The model: a catalog id with a quantization (model, quant), or its facts
// (model_info: the object model_info returns, given as "model": {...} or read
// from a GGUF file). `gguf` is a GGUF file's path as the input names it; the
// CLI and Python read it into model_info before estimating (the core reads
// no files, so a path left unread is an error).
struct EstimateInput {
  std::string model, quant;
  std::optional<ModelInfo> model_info;
  std::string gguf;
  std::vector<DeviceChoice> devices;  // S, in chain order
  std::vector<LinkChoice> links;      // S - 1; none: every link pcie4-x16
  Phase phase = Phase::decode;
  double tokens = 1;      // per micro-batch: decode sequences, or prefill prompt tokens
  double context = 512;   // tokens each sequence already holds
  double M = 1;
  Objective objective = Objective::async;
  bool allow_idle_devices = false;
  DeviceOrder order = DeviceOrder::given;
  std::vector<BenchRecord> calibration;  // llama-bench records (heteropipe/plan/calibration.hpp)
};

// The estimator's documented constants for one class of devices.
struct ClassEfficiency {
  double bandwidth;   // fraction of the memory bandwidth a layer's reads reach
  double compute;     // fraction of fp16_flops a layer's arithmetic reaches
  double layer_overhead;  // seconds every layer adds (kernel launches, synchronisation)
  double usable_memory;   // fraction of the memory the runtime can fill
};
ClassEfficiency class_efficiency(DeviceClass c);

// Seconds each boundary of a layer split adds per micro-batch beyond its
// link's latency and transfer: llama.cpp's hand-over of the residual stream
// (the sender's stream synchronises, the receiver waits on it, the graph
// splits there). One constant for every class and link, fitted with the
// class constants to the fit set, whose multi-GPU rows carry it
// (docs/planner.md#multi-device-cost); the estimate adds it to the latency
// of every link it plans over.
inline constexpr double kHopSync = 160e-6;

// The arithmetic, in fp16 operations, that unpacking one weight stored in
// fewer than 2 bytes costs beside its read: quantized kernels dequantize
// every weight they read, at the device's arithmetic rate, which on cards
// with little arithmetic per byte of bandwidth (Tesla P40, M1 Max) is not
// hidden under the read. Fitted with the class constants to the fit set
// and chosen by cross-validation over it (docs/planner.md#the-estimator).
inline constexpr double kDequantFlops = 6.4;

// What a layer costs beyond layer_overhead where llama.cpp launches its
// kernels one by one instead of as one CUDA graph: on CUDA builds before
// pull request #6766 (April 2024; https://github.com/ggml-org/llama.cpp/pull/6766),
// and today on Pascal cards (GpuSpec::cuda_graphs false: the Tesla P40 and
// P100), which the estimate charges it on every layer. Fitted jointly with
// the class constants, kHopSync and kDequantFlops (scripts/estimator_cv.py)
// from the fit set's rows before and after graphs: Xiongjie Dai's CUDA rows
// and the "master" columns of the pull request and of NVIDIA's issue #6763,
// against their graph columns and the 2025-26 CUDA scoreboard
// (docs/planner.md#the-estimator).
inline constexpr double kPreGraphLayerCost = 51e-6;

// The band every estimated speed carries: measured tokens per second
// typically lands between these factors times the estimate. They are the
// 10th and 90th percentiles of measured / estimated on the held-out rows,
// which the fit never saw (docs/planner.md#held-out-validation). The report
// gives [tokens_per_second x low, tokens_per_second x high].
inline constexpr double kEstimateBandLow = 0.694;
inline constexpr double kEstimateBandHigh = 1.139;

// A catalog model in a quantization as facts: every layer alike, its
// weights at the quantization's average bytes per weight.
ModelInfo model_info_of(const ModelSpec& model, const QuantSpec& quant);

// The first fact of a model that the estimator cannot use (a count out of
// range, a list not one value per layer, a byte count negative or not finite).
std::optional<Error> check_model_info(const ModelInfo& m);

// The explicit costs: per-layer times (roofline, or measured), per-layer
// memory with the KV cache for the context, the embedding on the first
// layer and the LM head on the last, the activation bytes at each cut, and
// memory capacities in bytes; times in seconds. Errors name the field (and
// the device or link): unknown ids, and values that are negative, not
// finite, or out of range. Decode reads each layer's active bytes (a mixture
// of experts reads only the experts a token uses); memory holds all of them.
Result<PlanInput> estimate(const EstimateInput& input);

// Every error of the input: an unknown model or quant, each device's and each
// link's first problem and the counts; once all of those are good, the
// plan_input_errors of what the estimate becomes. Empty when estimate() succeeds.
std::vector<Error> estimate_input_errors(const EstimateInput& input);

// What a plan is asked for: explicit costs, or an estimate of them.
using PlanRequest = std::variant<PlanInput, EstimateInput>;

// The explicit costs of a request (estimate() for the second form).
Result<PlanInput> plan_input_of(const PlanRequest& request);

}  // namespace heteropipe
