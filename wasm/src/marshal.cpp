#include "marshal.hpp"

#include <array>
#include <cmath>
#include <string>

#include "heteropipe/limits.hpp"

namespace heteropipe::wasm {
namespace {

std::array<double, kSlots> slot_area;
std::vector<Error> errors;
std::array<std::array<double, kSmallValues>, 3> small_lists;
std::array<std::vector<double>, 3> list_buffers;
std::string text_buffer;

// Past this many values a buffer is handed over to the core instead of
// copied, and given back once a smaller list comes.
constexpr std::size_t kKeepValues = std::size_t{1} << 16;

std::vector<double>& buffer_of(List list) { return list_buffers[static_cast<std::size_t>(list)]; }

}  // namespace

double* slots() { return slot_area.data(); }

void put_range(int slot, const void* data, std::size_t size) {
  slot_area[static_cast<std::size_t>(slot)] = address_of(data);
  slot_area[static_cast<std::size_t>(slot) + 1] = static_cast<double>(size);
}

SlotRequest slot_request() {
  const double* s = slot_area.data();
  return {s[0], s[1], s[2], s[3], s[5] != 0 ? std::optional<double>(s[4]) : std::nullopt, s[6] != 0};
}

void clear_errors() {
  errors.clear();
  // Room for check's one error per field up front, so the bytes in use stay
  // flat whatever the calls (the leak test holds them so).
  if (errors.capacity() < 8) errors.reserve(8);
}
void add_error(Error error) { errors.push_back(std::move(error)); }

double fail(Error error) {
  add_error(std::move(error));
  return NAN;
}

double* small_list(List list) { return small_lists[static_cast<std::size_t>(list)].data(); }

double* fit_list(List list, double wanted) {
  auto& buffer = buffer_of(list);
  const auto length = static_cast<std::size_t>(wanted);
  if (length > buffer.size()) {
    buffer.resize(length);
  } else if (buffer.size() > kKeepValues && length < buffer.size() / 4) {
    std::vector<double>(length).swap(buffer);
  }
  return buffer.data();
}

Result<std::vector<double>> read_list(List list, double length, Field field, double max_items) {
  auto& buffer = buffer_of(list);
  if (length <= static_cast<double>(kSmallValues)) {
    // A large buffer left from earlier calls is not needed now.
    if (buffer.size() > kKeepValues) std::vector<double>().swap(buffer);
    const double* values = small_list(list);
    return std::vector<double>(values, values + static_cast<std::size_t>(length));
  }
  if (!(length <= max_items) || length > static_cast<double>(buffer.size())) {
    return Error{ErrorCode::too_many, field, kWholeField, length, {}};
  }
  const auto n = static_cast<std::size_t>(length);
  if (n > kKeepValues) {
    buffer.resize(n);
    return std::move(buffer);
  }
  return std::vector<double>(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n));
}

void recycle_list(List list, std::vector<double> values) {
  auto& buffer = buffer_of(list);
  if (values.size() > kKeepValues && values.capacity() > buffer.capacity()) buffer = std::move(values);
}

Result<std::vector<double>> read_tau(double length) {
  return read_list(List::tau, length, Field::tau, static_cast<double>(limits::kMaxStages));
}
Result<std::vector<double>> read_d(double length) {
  return read_list(List::d, length, Field::d, static_cast<double>(limits::kMaxStages));
}

char* fit_text(double bytes) {
  text_buffer.resize(static_cast<std::size_t>(bytes));
  return text_buffer.data();
}

std::string_view text(double bytes) {
  return std::string_view(text_buffer).substr(0, static_cast<std::size_t>(bytes));
}

// The wrapper reads errors one at a time through hp_error.
const std::vector<Error>& latest_errors() { return errors; }

}  // namespace heteropipe::wasm
