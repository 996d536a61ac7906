#include "marshal.hpp"

#include <array>
#include <cmath>
#include <string>

namespace heteropipe::wasm {
namespace {

std::array<double, kSlots> slot_area;
std::vector<Error> errors;
std::array<std::vector<double>, 3> list_buffers;
std::string text_buffer;

// Past this many values a buffer is given back once a smaller request comes,
// and handed over to the core instead of copied.
constexpr std::size_t kKeepValues = std::size_t{1} << 16;
constexpr std::size_t kSmallValues = 64;

}  // namespace

double* slots() { return slot_area.data(); }

void put_range(int slot, const void* data, std::size_t size) {
  slot_area[static_cast<std::size_t>(slot)] = static_cast<double>(reinterpret_cast<std::uintptr_t>(data));
  slot_area[static_cast<std::size_t>(slot) + 1] = static_cast<double>(size);
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

double* fit_list(List list, double wanted) {
  auto& buffer = list_buffers[static_cast<std::size_t>(list)];
  const auto length = static_cast<std::size_t>(wanted);
  // Small lists never reallocate, so their calls leave malloc's bytes flat.
  if (buffer.capacity() < kSmallValues) buffer.reserve(kSmallValues);
  if (length > buffer.size()) {
    buffer.resize(length);
  } else if (buffer.size() > kKeepValues && length < buffer.size() / 4) {
    std::vector<double>(length).swap(buffer);
  }
  return buffer.data();
}

Result<std::vector<double>> read_list(List list, double length, Field field, double max_items) {
  auto& buffer = list_buffers[static_cast<std::size_t>(list)];
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
