#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"

// What the planner is asked: a model of L layers to split into contiguous
// stages over S devices in a chain (see docs/planner.md).
namespace heteropipe {

// What the plan minimizes: T_async(M), T_block(M), or the bottleneck
// tau_max (ties broken by T_async(M)).
enum class Objective { async, blocking, throughput };

// Devices in the order given, or every order tried (at most
// limits::kMaxOrderSearchDevices devices).
enum class DeviceOrder { given, search };

std::string_view objective_name(Objective objective);
std::string_view device_order_name(DeviceOrder order);
// The enum for its name as typed ("async", ...); unknown_name otherwise.
Result<Objective> objective_from_name(std::string_view name);
Result<DeviceOrder> device_order_from_name(std::string_view name);

struct PlanDevice {
  std::vector<double> layer_times;  // L values: each layer's time on this device
  double memory_capacity = 0;       // in the unit of layer_memory
};

// The link between two neighbouring devices of the chain: a cut of c bytes
// crosses it in latency + c / bandwidth.
struct PlanLink {
  double latency = 0;
  double bandwidth = 1;
};

struct PlanInput {
  std::vector<PlanDevice> devices;  // S, in chain order
  std::vector<double> layer_memory;  // L: each layer's memory, wherever it runs
  std::vector<PlanLink> links;       // S - 1: link i joins chain positions i and i + 1
  std::vector<double> cut_bytes;     // L - 1: what crosses the cut after layer j
  double M = 8;
  Objective objective = Objective::async;
  // Whether a device may run no layer. An idle device leaves the chain; the
  // stage before it then sends over the link leaving that stage's device
  // (link i for the device at position i), whatever is skipped after it.
  bool allow_idle_devices = false;
  DeviceOrder order = DeviceOrder::given;
  // Layers after the chain's last that llama.cpp's -ts split counts but
  // neither loads nor runs (a model's multi-token-prediction layers): the
  // llama.cpp command's last count includes them, after the output layer's.
  std::int64_t unrun_layers = 0;
};

// Every error of the input, in the order of PlanInput's fields (devices,
// their layer times and capacities, layer_memory, links, cut_bytes, M,
// objective, order): one per device's layer times, per device's capacity,
// per link's latency and bandwidth, and per other field. No devices or no
// layers is the one error; what several fields decide together (the fastest
// layer's time, the largest delay, the order search's size) is checked once
// each field is good. Errors about one device's layer times carry the device
// as index and the first offending time as value.
std::vector<Error> plan_input_errors(const PlanInput& input);

// The first of plan_input_errors, or nullopt.
std::optional<Error> check_plan_input(const PlanInput& input);

}  // namespace heteropipe
