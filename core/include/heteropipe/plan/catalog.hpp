#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"
#include "heteropipe/visit.hpp"

// Public spec facts the estimator starts from (docs/planner.md#the-catalog):
// devices, models, quantizations and links, each entry citing its source.
// Facts, not measured speeds: how fast llama.cpp runs on a device is the
// estimator's business (heteropipe/plan/estimate.hpp).
namespace heteropipe {

// Devices of one class share the estimator's efficiency constants.
enum class DeviceClass { nvidia_gddr, nvidia_hbm, apple, amd_gddr, amd_hbm, intel_gddr };

// Every class, in the order the error sentences list them.
inline constexpr DeviceClass kDeviceClasses[] = {DeviceClass::nvidia_gddr, DeviceClass::nvidia_hbm,
                                                 DeviceClass::apple,       DeviceClass::amd_gddr,
                                                 DeviceClass::amd_hbm,     DeviceClass::intel_gddr};

// "nvidia-gddr", "nvidia-hbm", "apple", "amd-gddr", "amd-hbm", "intel-gddr"
std::string_view device_class_name(DeviceClass c);
Result<DeviceClass> device_class_from_name(std::string_view name);  // unknown_name on device_class

struct GpuSpec {
  std::string_view id, name;
  DeviceClass device_class;
  double memory;            // bytes
  double memory_bandwidth;  // bytes per second
  double fp16_flops;        // dense FP16 FLOP per second (see the entry's source)
  std::string_view source;
  // Whether llama.cpp's CUDA backend launches a token's kernels on this card
  // as one CUDA graph: every NVIDIA card from Volta on (llama.cpp pull
  // requests #6766, Ampere and newer, and #25749, Volta and Turing); not
  // Pascal, whose gate stays closed (pull request #27721, open). A card
  // without graphs pays kPreGraphLayerCost on every layer (plan/estimate.hpp).
  bool cuda_graphs = true;
};

// A decoder-only transformer as its config.json describes it. The facts
// after `source` are given where the simple rule fails, and are 0 otherwise.
struct ModelSpec {
  std::string_view id, name;
  std::int64_t layers, hidden, intermediate, heads, kv_heads, vocab;
  bool tied_embeddings;
  std::string_view source;
  std::int64_t head_size = 0;  // 0: hidden / heads
  // A mixture of experts: experts per layer and those each token uses;
  // `intermediate` is then one expert's (moe_intermediate_size). 0: dense.
  std::int64_t experts = 0, experts_used = 0;
  // Sliding-window attention: the positions a sliding layer attends to, and
  // the period of its pattern: layer j (from 0) slides unless (j + 1) is a
  // multiple of sliding_period (0: every layer slides). 0: no window.
  std::int64_t sliding_window = 0, sliding_period = 0;
};

// The attention head size: head_size, or hidden / heads when it is 0.
inline std::int64_t head_size_of(const ModelSpec& m) { return m.head_size ? m.head_size : m.hidden / m.heads; }

// Memory every device keeps free for the runtime's compute buffer (the
// graph's intermediate tensors), beside the weights and the KV cache:
// llama.cpp logs "compute buffer size = 258.50 MiB" for Llama 3 8B at its
// default micro-batch (-ub 512), most of it the logits of 512 tokens over a
// 128k vocabulary, and in a layer split every device reserves a buffer of
// that order (docs/planner.md#memory).
inline constexpr double kComputeBufferBytes = 268'435'456;  // 256 MiB

struct QuantSpec {
  std::string_view id;
  // The ggml type llama.cpp's quantizer asks for the format's matrices
  // (llama_ftype_get_default_type, src/llama-quant.cpp), whose blocks decide
  // which matrices it can store in the format (quant_block).
  std::string_view type;
  double bytes_per_weight;  // the format's average, over the weights it stores in the format
  std::string_view source;
  // Where the format stores only the feed-forward (expert) weights in it,
  // as llama.cpp's MXFP4 files do: the bytes per weight of every other
  // matrix (attention, the router, the token embedding, the LM head).
  // 0: every weight at bytes_per_weight.
  double other_bytes_per_weight = 0;
};

// The bytes per weight of the matrices outside the feed-forward blocks.
inline double non_ffn_bytes_per_weight(const QuantSpec& q) {
  return q.other_bytes_per_weight > 0 ? q.other_bytes_per_weight : q.bytes_per_weight;
}

// The weights per block of the format's matrices (256 for the K-quants and
// i-quants, 32 for Q8_0, Q4_0 and MXFP4, 1 for F16 and BF16). llama.cpp
// stores a matrix row by row, so a matrix whose rows (ggml's ne0, its input
// dimension) are no whole number of blocks cannot be stored in the format.
std::int64_t quant_block(const QuantSpec& q);

// The bytes per weight of a matrix of the format whose rows are `row`
// weights long: `rate` (bytes_per_weight, or non_ffn_bytes_per_weight for a
// matrix outside the feed-forward blocks) where the rows are whole blocks,
// else those of the type llama.cpp's quantizer falls back to
// (quantizer_row_type, plan/gguf.hpp: Q4_K to Q5_0, Q6_K to Q8_0, ...).
double stored_bytes_per_weight(const QuantSpec& q, double rate, std::int64_t row);

// The same for the LM head (output.weight), which the quantizer stores in
// Q8_0 where its rows are no whole number of the format's blocks.
double lm_head_bytes_per_weight(const QuantSpec& q, std::int64_t row);

struct LinkSpec {
  std::string_view id, name;
  double latency;    // seconds
  double bandwidth;  // bytes per second, one direction
  std::string_view source;
};

const std::vector<GpuSpec>& catalog_gpus();
const std::vector<ModelSpec>& catalog_models();
const std::vector<QuantSpec>& catalog_quants();
const std::vector<LinkSpec>& catalog_links();

// The entry with that id, or unknown_id on `field` (index: the device or
// link it was asked for, kWholeField otherwise).
Result<GpuSpec> find_gpu(std::string_view id, std::int64_t index);
Result<ModelSpec> find_model(std::string_view id);
Result<QuantSpec> find_quant(std::string_view id);
Result<LinkSpec> find_link(std::string_view id, std::int64_t index);

template <class Visitor>
void visit_fields(const GpuSpec& g, Visitor&& visit) {
  visit("id", g.id);
  visit("name", g.name);
  visit("device_class", device_class_name(g.device_class));
  visit("memory", g.memory);
  visit("memory_bandwidth", g.memory_bandwidth);
  visit("fp16_flops", g.fp16_flops);
  visit("cuda_graphs", g.cuda_graphs);
  visit("source", g.source);
}

template <class Visitor>
void visit_fields(const ModelSpec& m, Visitor&& visit) {
  visit("id", m.id);
  visit("name", m.name);
  visit("layers", m.layers);
  visit("hidden", m.hidden);
  visit("intermediate", m.intermediate);
  visit("heads", m.heads);
  visit("kv_heads", m.kv_heads);
  visit("vocab", m.vocab);
  visit("tied_embeddings", m.tied_embeddings);
  visit("head_size", head_size_of(m));
  visit("experts", m.experts);
  visit("experts_used", m.experts_used);
  visit("sliding_window", m.sliding_window);
  visit("sliding_period", m.sliding_period);
  visit("source", m.source);
}

template <class Visitor>
void visit_fields(const QuantSpec& q, Visitor&& visit) {
  visit("id", q.id);
  visit("bytes_per_weight", q.bytes_per_weight);
  visit("other_bytes_per_weight", non_ffn_bytes_per_weight(q));
  visit("source", q.source);
}

template <class Visitor>
void visit_fields(const LinkSpec& l, Visitor&& visit) {
  visit("id", l.id);
  visit("name", l.name);
  visit("latency", l.latency);
  visit("bandwidth", l.bandwidth);
  visit("source", l.source);
}

// The whole catalog: {gpus, models, quants, links}, each a list of entries.
struct Catalog {};

template <class Visitor>
void visit_fields(const Catalog&, Visitor&& visit) {
  visit("gpus", objects(catalog_gpus()));
  visit("models", objects(catalog_models()));
  visit("quants", objects(catalog_quants()));
  visit("links", objects(catalog_links()));
}

}  // namespace heteropipe
