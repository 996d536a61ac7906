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
enum class DeviceClass { nvidia_gddr, nvidia_hbm, apple };

std::string_view device_class_name(DeviceClass c);  // "nvidia-gddr", "nvidia-hbm", "apple"
Result<DeviceClass> device_class_from_name(std::string_view name);  // unknown_name on device_class

struct GpuSpec {
  std::string_view id, name;
  DeviceClass device_class;
  double memory;            // bytes
  double memory_bandwidth;  // bytes per second
  double fp16_flops;        // dense FP16 FLOP per second (see the entry's source)
  std::string_view source;
};

struct ModelSpec {
  std::string_view id, name;
  std::int64_t layers, hidden, intermediate, heads, kv_heads, vocab;
  bool tied_embeddings;
  std::string_view source;
};

struct QuantSpec {
  std::string_view id;
  double bytes_per_weight;  // the format's average, over the model's weights
  std::string_view source;
};

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
  visit("source", m.source);
}

template <class Visitor>
void visit_fields(const QuantSpec& q, Visitor&& visit) {
  visit("id", q.id);
  visit("bytes_per_weight", q.bytes_per_weight);
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
