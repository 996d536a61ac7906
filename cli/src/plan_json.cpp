#include "plan_json.hpp"

#include <string>
#include <tuple>

namespace heteropipe::cli {
namespace {

using nlohmann::json;

Error wrong(Field field, std::int64_t index, const json& value) {
  return Error{ErrorCode::wrong_type, field, index, 0.0, value.dump()};
}

Result<double> number_at(const json& value, Field field, std::int64_t index) {
  if (!value.is_number()) return wrong(field, index, value);
  return value.get<double>();
}

// A list of numbers; errors carry `index` (the device) when the list belongs
// to one, else the item.
Result<std::vector<double>> numbers_at(const json& value, Field field, std::int64_t owner = kWholeField) {
  if (!value.is_array()) return wrong(field, owner, value);
  std::vector<double> out;
  out.reserve(value.size());
  for (std::size_t k = 0; k < value.size(); ++k) {
    const auto index = owner == kWholeField ? static_cast<std::int64_t>(k) : owner;
    auto x = number_at(value[k], field, index);
    if (!x) return x.error();
    out.push_back(x.value());
  }
  return out;
}

const json* member(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

Result<const json*> required(const json& object, const char* key, Field field, std::int64_t index = kWholeField) {
  const json* value = member(object, key);
  if (!value) return Error{ErrorCode::empty, field, index, 0.0, {}};
  return value;
}

Result<std::vector<PlanDevice>> devices_at(const json& document) {
  auto list = required(document, "devices", Field::devices);
  if (!list) return list.error();
  if (!list.value()->is_array()) return wrong(Field::devices, kWholeField, *list.value());
  std::vector<PlanDevice> devices;
  for (std::size_t k = 0; k < list.value()->size(); ++k) {
    const json& entry = (*list.value())[k];
    const auto s = static_cast<std::int64_t>(k);
    if (!entry.is_object()) return wrong(Field::devices, s, entry);
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
  if (!list->is_array()) return wrong(Field::links, kWholeField, *list);
  std::vector<PlanLink> links;
  for (std::size_t k = 0; k < list->size(); ++k) {
    const json& entry = (*list)[k];
    const auto i = static_cast<std::int64_t>(k);
    if (!entry.is_object()) return wrong(Field::links, i, entry);
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

Result<PlanInput> read_plan_input(const json& document) {
  if (!document.is_object()) return wrong(Field::devices, kWholeField, document);
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
  if (const json* M = member(document, "M")) {
    auto x = number_at(*M, Field::M, kWholeField);
    if (!x) return x.error();
    in.M = x.value();
  }
  if (const json* objective = member(document, "objective")) {
    if (!objective->is_string()) return wrong(Field::objective, kWholeField, *objective);
    auto o = objective_from_name(objective->get<std::string>());
    if (!o) return o.error();
    in.objective = o.value();
  }
  if (const json* order = member(document, "order")) {
    if (!order->is_string()) return wrong(Field::order, kWholeField, *order);
    auto o = device_order_from_name(order->get<std::string>());
    if (!o) return o.error();
    in.order = o.value();
  }
  if (const json* idle = member(document, "allow_idle_devices")) {
    if (!idle->is_boolean()) return wrong(Field::devices, kWholeField, *idle);
    in.allow_idle_devices = idle->get<bool>();
  }
  return in;
}

}  // namespace heteropipe::cli
