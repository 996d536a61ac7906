#include "request.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "memory.hpp"

namespace heteropipe::wasm {
namespace {

constexpr double kHeaderBytes = kStagingHeaderDoubles * sizeof(double);
constexpr double kRecordBytes = kRecordDoubles * sizeof(double);
// Larger areas are refused: no request within the limits comes close.
constexpr double kMaxArea = 2147483648.0;

std::size_t slot(Field field) { return static_cast<std::size_t>(field); }

// Remembers which input was read as `field`, for annotated(): a value that was
// no number keeps the token JS wrote ("5", null, 5n), whichever field it is.
template <class Inputs>
void remember(Inputs& inputs, Field field, std::string_view name) {
  if (slot(field) < inputs.size()) inputs[slot(field)] = name;
}

alignas(double) char shared_area[kSmallArea];

}  // namespace

char* small_area() { return shared_area; }

double stage(double record_bytes, double data_bytes) {
  if (!(record_bytes >= kHeaderBytes && record_bytes <= kMaxArea && data_bytes >= 0)) return 0;
  double staged = record_bytes + data_bytes;
  void* area = staged <= kMaxArea ? std::malloc(static_cast<std::size_t>(staged)) : nullptr;
  if (area == nullptr) {
    staged = record_bytes;
    area = std::malloc(static_cast<std::size_t>(staged));
  }
  if (area == nullptr) return 0;
  static_cast<double*>(area)[0] = staged;
  return static_cast<double>(reinterpret_cast<std::uintptr_t>(area));
}

Request::Request(double address) : area_(reinterpret_cast<char*>(static_cast<std::uintptr_t>(address))) {
  if (area_ == nullptr) return;
  const auto* head = reinterpret_cast<const double*>(area_);
  staged_ = head[0];
  const double count = head[1];
  if (count >= 0 && kHeaderBytes + count * kRecordBytes <= staged_) count_ = static_cast<std::size_t>(count);
}

Request::~Request() {
  if (area_ != shared_area) std::free(area_);
}

// The bytes at [offset, offset + length) of what was staged, or null.
const char* Request::bytes(double offset, double length) const {
  if (!(offset >= kHeaderBytes && length >= 0 && offset + length <= staged_)) return nullptr;
  return area_ + static_cast<std::size_t>(offset);
}

std::string_view Request::name_of(const double* record) const {
  const char* name = bytes(record[1], record[2]);
  return name ? std::string_view(name, static_cast<std::size_t>(record[2])) : std::string_view();
}

const double* Request::record(std::size_t k) const {
  return reinterpret_cast<const double*>(area_) + kStagingHeaderDoubles + k * kRecordDoubles;
}

const double* Request::find(std::string_view name, Kind kind) const {
  for (std::size_t k = 0; k < count_; ++k) {
    const double* r = record(k);
    if (r[0] == static_cast<double>(kind) && r[2] == static_cast<double>(name.size()) && name_of(r) == name) return r;
  }
  return nullptr;
}

bool Request::has(std::string_view name) const {
  for (std::size_t k = 0; k < count_; ++k) {
    if (name_of(record(k)) == name) return true;
  }
  return false;
}

std::optional<double> Request::number(std::string_view name) const {
  const double* r = find(name, Kind::number);
  if (r == nullptr) return std::nullopt;
  return r[3];
}

std::optional<double> Request::number(std::string_view name, Field field) {
  remember(inputs_, field, name);
  return number(name);
}

double Request::number(std::string_view name, Field field, double fallback) {
  return number(name, field).value_or(fallback);
}

bool Request::flag(std::string_view name, bool fallback) const {
  const double* r = find(name, Kind::boolean);
  return r ? r[3] != 0 : fallback;
}

Result<std::vector<double>> Request::list(std::string_view name, Field field, double max_items) {
  remember(inputs_, field, name);
  if (area_ == nullptr) return out_of_memory(field, 0);
  const double* r = find(name, Kind::list);
  if (r == nullptr) return std::vector<double>{};
  const double length = r[4];
  if (!(length <= max_items)) return Error{ErrorCode::too_many, field, kWholeField, length, {}, max_items};
  const double size = length * sizeof(double);
  if (length < 1) return std::vector<double>{};
  const char* values = bytes(r[3], size);
  if (values == nullptr || !room_for(size)) return out_of_memory(field, size);
  const auto* first = reinterpret_cast<const double*>(values);
  // A subnormal item (5e-324) is judged by the core's own checks (Pipeline::create, the
  // simulator's and the trace import's), as every front end's list is.
  return std::vector<double>(first, first + static_cast<std::size_t>(length));
}

Result<std::string_view> Request::text(std::string_view name, Field field, double max_bytes) const {
  if (area_ == nullptr) return out_of_memory(field, 0);
  const double* r = find(name, Kind::text);
  if (r == nullptr) return std::string_view();
  const double length = r[4];
  if (!(length <= max_bytes)) {
    return Error{ErrorCode::too_long, field, kWholeField, length, {}, max_bytes};
  }
  if (length < 1) return std::string_view();
  const char* text = bytes(r[3], length);
  if (text == nullptr) return out_of_memory(field, length);
  return std::string_view(text, static_cast<std::size_t>(length));
}

std::string_view Request::word(std::string_view name) const {
  const double* r = find(name, Kind::text);
  const char* text = r ? bytes(r[3], r[4]) : nullptr;
  return text ? std::string_view(text, static_cast<std::size_t>(r[4])) : std::string_view();
}

Error spelt_as_js(Error error) {
  if (error.code != ErrorCode::not_finite) return error;
  // A number JS passed, as JS writes it; the core spells them nan, inf, -inf.
  if (error.token == "nan") error.token = "NaN";
  if (error.token == "inf") error.token = "Infinity";
  if (error.token == "-inf") error.token = "-Infinity";
  return error;
}

Error Request::annotated(Error error, std::int64_t item) const {
  if (error.code != ErrorCode::not_finite) return error;
  error = spelt_as_js(std::move(error));
  // A value that was no number at all (a string, a boolean, a BigInt, null, an object), as the
  // wrapper quoted it, is not_a_number; NaN and the infinities stay not_finite.
  const std::string_view input = slot(error.field) < inputs_.size() ? inputs_[slot(error.field)] : std::string_view();
  for (std::size_t k = 0; k < count_ && !input.empty(); ++k) {
    const double* r = record(k);
    if (r[0] != static_cast<double>(Kind::token) || r[5] != static_cast<double>(item)) continue;
    const char* token = bytes(r[3], r[4]);
    if (token != nullptr && name_of(r) == input) {
      // It reached the core as NaN, but no number was passed: Python's code for the same mistake.
      error.code = ErrorCode::not_a_number;
      error.token.assign(token, static_cast<std::size_t>(r[4]));
      break;
    }
  }
  return error;
}

}  // namespace heteropipe::wasm
