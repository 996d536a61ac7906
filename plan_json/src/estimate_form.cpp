// The estimate form: a model, a quantization and devices by catalog id.
#include <tuple>

#include "forms.hpp"

namespace heteropipe::plan_json {
namespace {

Result<std::string> required_string(const json& document, const char* key, Field field) {
  auto value = required(document, key, field);
  if (!value) return value.error();
  return string_at(*value.value(), field, kWholeField);
}

// A catalog id, or an object of an optional id and facts.
Result<DeviceChoice> device_at(const json& entry, std::int64_t s) {
  DeviceChoice choice;
  if (entry.is_string()) {
    choice.id = entry.get<std::string>();
    return choice;
  }
  if (!entry.is_object()) return wrong_type(Field::devices, s, entry);
  if (const json* id = member(entry, "id")) {
    auto text = string_at(*id, Field::devices, s);
    if (!text) return text.error();
    choice.id = text.value();
  }
  for (auto [key, field, target] : {std::tuple{"memory", Field::memory, &choice.memory},
                                    std::tuple{"memory_bandwidth", Field::memory_bandwidth, &choice.memory_bandwidth},
                                    std::tuple{"fp16_flops", Field::fp16_flops, &choice.fp16_flops},
                                    std::tuple{"layer_time", Field::layer_time, &choice.layer_time},
                                    std::tuple{"avg_ts", Field::avg_ts, &choice.avg_ts}}) {
    auto x = optional_number(entry, key, field, s);
    if (!x) return x.error();
    *target = x.value();
  }
  if (const json* device_class = member(entry, "device_class")) {
    auto name = string_at(*device_class, Field::device_class, s);
    if (!name) return name.error();
    auto c = device_class_from_name(name.value());
    if (!c) return Error{c.error().code, Field::device_class, s, 0.0, c.error().token};
    choice.device_class = c.value();
  }
  return choice;
}

Result<LinkChoice> link_at(const json& entry, std::int64_t i) {
  LinkChoice choice;
  if (entry.is_string()) {
    choice.id = entry.get<std::string>();
    return choice;
  }
  if (!entry.is_object()) return wrong_type(Field::links, i, entry);
  if (const json* id = member(entry, "id")) {
    auto text = string_at(*id, Field::links, i);
    if (!text) return text.error();
    choice.id = text.value();
  }
  for (auto [key, field, target] : {std::tuple{"latency", Field::latency, &choice.latency},
                                    std::tuple{"bandwidth", Field::bandwidth, &choice.bandwidth}}) {
    auto x = optional_number(entry, key, field, i);
    if (!x) return x.error();
    *target = x.value();
  }
  return choice;
}

template <class Choice>
Result<std::vector<Choice>> list_at(const json* list, Field field, Result<Choice> (*read)(const json&, std::int64_t)) {
  std::vector<Choice> out;
  if (!list) return out;
  if (!list->is_array()) return wrong_type(field, kWholeField, *list);
  for (std::size_t k = 0; k < list->size(); ++k) {
    auto choice = read((*list)[k], static_cast<std::int64_t>(k));
    if (!choice) return choice.error();
    out.push_back(std::move(choice).value());
  }
  return out;
}

}  // namespace

Result<EstimateInput> read_estimate(const json& document) {
  EstimateInput in;
  auto model = required_string(document, "model", Field::model);
  if (!model) return model.error();
  in.model = model.value();
  auto quant = required_string(document, "quant", Field::quant);
  if (!quant) return quant.error();
  in.quant = quant.value();
  auto devices = required(document, "devices", Field::devices);
  if (!devices) return devices.error();
  auto device_list = list_at<DeviceChoice>(devices.value(), Field::devices, &device_at);
  if (!device_list) return device_list.error();
  in.devices = std::move(device_list).value();
  auto links = list_at<LinkChoice>(member(document, "links"), Field::links, &link_at);
  if (!links) return links.error();
  in.links = std::move(links).value();
  if (const json* phase = member(document, "phase")) {
    auto name = string_at(*phase, Field::phase, kWholeField);
    if (!name) return name.error();
    auto p = phase_from_name(name.value());
    if (!p) return p.error();
    in.phase = p.value();
  }
  for (auto [key, field, target] : {std::tuple{"tokens", Field::tokens, &in.tokens},
                                    std::tuple{"context", Field::context, &in.context}}) {
    auto x = optional_number(document, key, field, kWholeField);
    if (!x) return x.error();
    if (x.value()) *target = *x.value();
  }
  if (auto e = read_shared(document, {&in.M, &in.objective, &in.order, &in.allow_idle_devices})) return *e;
  return in;
}

}  // namespace heteropipe::plan_json
