#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"
#include "heteropipe/visit.hpp"

// What a GGUF file's header and tensor table say about its model
// (docs/planner.md#gguf-files). The format is ggml's docs/gguf.md
// (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md), versions 2
// and 3: magic, version, tensor and key counts, typed key/values, then the
// tensor table. The weights themselves are never read.
//
// The core does no I/O: a caller hands it the file's first bytes and its
// size, and the reader either answers or asks for more leading bytes
// (GgufStep::need). So a front end reads the header in a few ranges, and a
// browser reads a 40 GB file's header through Blob.slice without loading it.
namespace heteropipe {

// A model's facts, from a GGUF file or written by hand (the plan input's
// "model" object). Byte counts are exact: each tensor's own ggml type sets
// its size. A fact the file does not hold is 0.
struct ModelInfo {
  std::string architecture, name;
  std::int64_t layers = 0, n_embd = 0, n_head = 0, n_head_kv = 0, context_length = 0;
  // The last layers that are multi-token-prediction (MTP, NextN) layers
  // ({arch}.nextn_predict_layers): llama.cpp loads none of their tensors and
  // never runs them in decode, though they are among `layers`, the count its
  // -ts split is made over. The plan's chain leaves them out.
  std::int64_t nextn_predict_layers = 0;
  std::int64_t expert_count = 0, expert_used_count = 0;
  std::int64_t key_length = 0, value_length = 0;  // per head; n_embd / n_head unless the file says
  std::int64_t feed_forward_length = 0, vocab_size = 0, sliding_window = 0;
  // Per layer: 1 where the layer attends to the last sliding_window positions
  // only (its KV cache holds no more), 0 where it attends to all of them, as
  // llama.cpp applies the window to the architecture (docs/planner.md#gguf-files).
  // Empty: no layer slides.
  std::vector<double> sliding_layers;
  // Per layer: 1 where the layer attends (to the positions a KV cache holds),
  // 0 where it does not (a recurrent, SSM or MLP-only layer of a hybrid, a
  // multi-token-prediction layer decode does not run); 1 where llama.cpp
  // keeps a KV cache for the layer, which a layer reusing an earlier layer's
  // cache (Gemma 3n's last layers) does not, though it attends; and 1 where
  // the layer holds a recurrent state. Attention work falls on the attending
  // layers, the KV cache's memory on the caching ones, the recurrent state on
  // the recurrent ones. Empty: every layer attends; kv_layers empty: the
  // attending layers keep the cache (as before the list existed); the state,
  // if any, is spread over every layer.
  std::vector<double> attention_layers, kv_layers, recurrent_layers;
  // Per layer: every tensor named blk.N.*; what one token reads (expert
  // tensors, *_exps, count expert_used_count / expert_count of theirs; shared
  // experts, *_shexp, count whole); and the weights that token multiplies.
  std::vector<double> layer_bytes, active_layer_bytes, active_layer_params;
  double embedding_bytes = 0;  // token_embd.weight
  // What decode reads for the LM head: output.weight (token_embd.weight when
  // the embeddings are tied and there is none) and output_norm.weight.
  double output_bytes = 0;
  // The F16 KV cache one position adds, all layers together, as llama.cpp
  // keeps it: K and V of each layer's n_head_kv heads; none for a layer
  // without attention (a recurrent or SSM layer, whose state is per sequence);
  // K alone for multi-head latent attention (its latent and rope part).
  double kv_bytes_per_token = 0;
  // The state a recurrent (SSM, linear-attention, RWKV, short-convolution)
  // layer holds per sequence whatever the context, all such layers together,
  // as llama.cpp keeps it (F32 r and s states, llama_hparams::n_embd_r and
  // n_embd_s); 0 for a transformer.
  double recurrent_bytes_per_sequence = 0;
};

template <class Visitor>
void visit_fields(const ModelInfo& m, Visitor&& visit) {
  visit("architecture", std::string_view(m.architecture));
  visit("name", std::string_view(m.name));
  visit("layers", m.layers);
  visit("nextn_predict_layers", m.nextn_predict_layers);
  visit("n_embd", m.n_embd);
  visit("n_head", m.n_head);
  visit("n_head_kv", m.n_head_kv);
  visit("context_length", m.context_length);
  visit("expert_count", m.expert_count);
  visit("expert_used_count", m.expert_used_count);
  visit("key_length", m.key_length);
  visit("value_length", m.value_length);
  visit("feed_forward_length", m.feed_forward_length);
  visit("vocab_size", m.vocab_size);
  visit("sliding_window", m.sliding_window);
  visit("sliding_layers", m.sliding_layers);
  visit("attention_layers", m.attention_layers);
  visit("kv_layers", m.kv_layers);
  visit("recurrent_layers", m.recurrent_layers);
  visit("layer_bytes", m.layer_bytes);
  visit("active_layer_bytes", m.active_layer_bytes);
  visit("active_layer_params", m.active_layer_params);
  visit("embedding_bytes", m.embedding_bytes);
  visit("output_bytes", m.output_bytes);
  visit("kv_bytes_per_token", m.kv_bytes_per_token);
  visit("recurrent_bytes_per_sequence", m.recurrent_bytes_per_sequence);
}

// One ggml tensor type: its name and how many bytes a block of how many
// elements takes.
struct GgmlType {
  std::uint32_t id;
  std::string_view name;
  std::int64_t block_size, type_size;
};

// The type with that id in ggml's enum, or nullopt (an id ggml removed or
// this table does not know).
std::optional<GgmlType> ggml_type(std::uint32_t id);

// The type of that name ("Q4_K"), or nullopt.
std::optional<GgmlType> ggml_type_named(std::string_view name);

// The type llama.cpp's quantizer stores a matrix in when it is asked for
// `type`: `type` itself where the matrix's rows, `row` weights long (ggml's
// ne0, the matrix's input dimension), are a whole number of its blocks; else
// the fallback its source names for `type`, or F16 where that fallback's
// blocks do not divide the row either (docs/planner.md#the-estimator).
GgmlType quantizer_row_type(const GgmlType& type, std::int64_t row);

// One step of reading a GGUF file: the model's facts, or (need > 0) how many
// leading bytes of the file to hand in next.
struct GgufStep {
  std::optional<ModelInfo> model;
  double need = 0;
};

// Reads `prefix`, the first bytes of a file of `file_size` bytes. Errors
// carry the byte offset as index: not_gguf (bad magic), unsupported_version,
// truncated (the file ends inside the header, or a tensor's data runs past
// it; token: the key or tensor), unknown_type (a value or tensor type; token:
// the key or tensor), too_large (a count, length or the header itself past
// its limit in limits.hpp; field says which), bad_tensor (dimensions that do
// not fill whole blocks, or a blk.N past block_count), missing_field (a key
// the facts need; token: the key).
Result<GgufStep> read_gguf(std::string_view prefix, double file_size);

// The facts through `prefix_of(n)`, which gives the file's first n bytes (a
// Result<std::string_view>, valid until the next call), until they are whole.
template <class PrefixOf>
Result<ModelInfo> read_gguf_through(PrefixOf&& prefix_of, double file_size) {
  std::string_view prefix;
  for (;;) {
    auto step = read_gguf(prefix, file_size);
    if (!step) return step.error();
    if (step.value().model) return *std::move(step).value().model;
    const double need = step.value().need;
    auto next = prefix_of(need);
    if (!next) return next.error();
    prefix = next.value();
    // A file that shrank while read: said once, never asked again.
    if (static_cast<double>(prefix.size()) < need) {
      return Error{ErrorCode::truncated, Field::gguf, static_cast<std::int64_t>(prefix.size()), need, {}};
    }
  }
}

// A GgufStep as the front ends serialize it: need, then the facts once whole.
template <class Visitor>
void visit_fields(const GgufStep& s, Visitor&& visit) {
  visit("need", s.need);
  if (s.model) visit_fields(*s.model, visit);
}

}  // namespace heteropipe
