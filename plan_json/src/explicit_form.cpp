// The explicit form: the planner's costs as numbers.
#include <tuple>

#include "forms.hpp"

namespace heteropipe::plan_json {
namespace {

Result<std::vector<PlanDevice>> devices_at(const json& document) {
  auto list = required(document, "devices", Field::devices);
  if (!list) return list.error();
  if (!list.value()->is_array()) return wrong_type(Field::devices, kWholeField, *list.value());
  std::vector<PlanDevice> devices;
  for (std::size_t k = 0; k < list.value()->size(); ++k) {
    const json& entry = (*list.value())[k];
    const auto s = static_cast<std::int64_t>(k);
    if (!entry.is_object()) return wrong_type(Field::devices, s, entry);
    PlanDevice device;
    auto times = required(entry, "layer_times", Field::layer_times, s);
    if (!times) return times.error();
    auto values = numbers_at(*times.value(), Field::layer_times, s);
    if (!values) return values.error();
    device.layer_times = std::move(values).value();
    auto capacity = required(entry, "memory_capacity", Field::memory_capacity, s);
    if (!capacity) return capacity.error();
    auto c = number_at(*capacity.value(), Field::memory_capacity, s);
    if (!c) return c.error();
    device.memory_capacity = c.value();
    devices.push_back(std::move(device));
  }
  return devices;
}

Result<std::vector<PlanLink>> links_at(const json& document) {
  const json* list = member(document, "links");
  if (!list) return std::vector<PlanLink>{};
  if (!list->is_array()) return wrong_type(Field::links, kWholeField, *list);
  std::vector<PlanLink> links;
  for (std::size_t k = 0; k < list->size(); ++k) {
    const json& entry = (*list)[k];
    const auto i = static_cast<std::int64_t>(k);
    if (!entry.is_object()) return wrong_type(Field::links, i, entry);
    PlanLink link;
    for (auto [key, field, target] : {std::tuple{"latency", Field::latency, &link.latency},
                                      std::tuple{"bandwidth", Field::bandwidth, &link.bandwidth}}) {
      auto value = required(entry, key, field, i);
      if (!value) return value.error();
      auto x = number_at(*value.value(), field, i);
      if (!x) return x.error();
      *target = x.value();
    }
    links.push_back(link);
  }
  return links;
}

}  // namespace

Result<PlanInput> read_explicit(const json& document) {
  PlanInput in;
  auto devices = devices_at(document);
  if (!devices) return devices.error();
  in.devices = std::move(devices).value();
  auto memory = required(document, "layer_memory", Field::layer_memory);
  if (!memory) return memory.error();
  auto layer_memory = numbers_at(*memory.value(), Field::layer_memory);
  if (!layer_memory) return layer_memory.error();
  in.layer_memory = std::move(layer_memory).value();
  auto links = links_at(document);
  if (!links) return links.error();
  in.links = std::move(links).value();
  if (const json* cuts = member(document, "cut_bytes")) {
    auto values = numbers_at(*cuts, Field::cut_bytes);
    if (!values) return values.error();
    in.cut_bytes = std::move(values).value();
  } else {
    in.cut_bytes.assign(in.layer_memory.empty() ? 0 : in.layer_memory.size() - 1, 0.0);
  }
  if (auto e = read_shared(document, {&in.M, &in.objective, &in.order, &in.allow_idle_devices})) return *e;
  return in;
}

}  // namespace heteropipe::plan_json
