#include "orders.hpp"

#include <algorithm>

namespace heteropipe::plan_detail {
namespace {

bool same_kind(const PlanDevice& a, const PlanDevice& b) {
  return a.layer_times == b.layer_times && a.memory_capacity == b.memory_capacity;
}

}  // namespace

std::vector<std::vector<std::int64_t>> device_orders(const PlanInput& input) {
  const std::size_t S = input.devices.size();
  // Each device's kind: the first device of its kind.
  std::vector<std::size_t> kind(S);
  for (std::size_t s = 0; s < S; ++s) {
    kind[s] = s;
    for (std::size_t k = 0; k < s; ++k) {
      if (same_kind(input.devices[s], input.devices[k])) {
        kind[s] = k;
        break;
      }
    }
  }
  std::vector<std::size_t> places = kind;  // the kind at each place of the chain
  // Only the search starts from the sorted arrangement, which next_permutation
  // needs to reach every other. The given order must stay as given even when
  // devices share a kind: links stay with positions, so moving a device
  // changes which link it sends over (and the devices a plan reports).
  if (input.order == DeviceOrder::search) std::sort(places.begin(), places.end());
  std::vector<std::vector<std::int64_t>> orders;
  do {
    std::vector<std::int64_t> order;
    std::vector<bool> placed(S, false);
    for (std::size_t k : places) {
      std::size_t d = k;
      while (placed[d] || kind[d] != k) ++d;  // the kind's next device by index
      placed[d] = true;
      order.push_back(static_cast<std::int64_t>(d));
    }
    orders.push_back(std::move(order));
  } while (input.order == DeviceOrder::search && std::next_permutation(places.begin(), places.end()));
  return orders;
}

}  // namespace heteropipe::plan_detail
