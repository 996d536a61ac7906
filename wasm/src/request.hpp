#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"
#include "heteropipe/limits.hpp"
#include "protocol.hpp"

// Requests: what the wrapper staged (protocol.hpp), read by name. A call
// stages its request only after JS has read all of the caller's values, into
// the small area below when it fits there, else into an area of its own
// (stage()), so no user code can run while the request is in wasm memory.
namespace heteropipe::wasm {

// The area small requests are staged in, shared by every call: a call uses it
// only from the moment the wrapper writes its request to the moment the
// operation has read it, and no JavaScript but the wrapper's runs in between,
// so no two calls ever use it at once. It spares small calls an allocation.
inline constexpr std::size_t kSmallArea = 4096;
char* small_area();

// A staging area of its own for `record_bytes` of records and strings followed by
// `data_bytes` of lists and texts: its address, or 0 if not even the records
// fit. When the data does not fit, only the records are staged (the area's
// first double says how much was), so that the operation can still say which
// field needed the memory.
double stage(double record_bytes, double data_bytes);

// The error with a non-finite number's token as JS writes it (NaN, Infinity,
// -Infinity), for an error found once the request is gone.
Error spelt_as_js(Error error);

// One staged request. It frees its area (unless that is the shared one) when
// destroyed; an address of 0 is a request whose lists and texts could not be
// staged.
class Request {
 public:
  explicit Request(double address);
  ~Request();
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;

  bool has(std::string_view name) const;
  // A number the caller gave, if any. `field` is the input it is checked as.
  std::optional<double> number(std::string_view name) const;
  std::optional<double> number(std::string_view name, Field field);
  double number(std::string_view name, Field field, double fallback);
  bool flag(std::string_view name, bool fallback) const;
  // A list of at most max_items numbers (empty when absent), copied out.
  Result<std::vector<double>> list(std::string_view name, Field field, double max_items);
  // A text of at most max_bytes (empty when absent), in place: strings as
  // UTF-8, a Uint8Array's bytes as they are.
  Result<std::string_view> text(std::string_view name, Field field, double max_bytes = limits::kMaxTextBytes) const;
  // A short text naming a choice (a regime, a field); empty when absent.
  std::string_view word(std::string_view name) const;

  // The error, with the token JS wrote for a value that was not a finite
  // number (NaN, "x", null) in place of the core's; a not_finite about a
  // value that was no number at all ("x", null, true, 5n) becomes
  // not_a_number, the code Python gives the same value.
  Error annotated(Error error) const { return annotated(error, error.index); }
  // The same for the value sent as item `item` of its list, where the error's
  // own position is another (a matrix's row and column, sent flattened).
  Error annotated(Error error, std::int64_t item) const;

 private:
  const double* record(std::size_t k) const;
  const double* find(std::string_view name, Kind kind) const;
  std::string_view name_of(const double* record) const;
  const char* bytes(double offset, double length) const;

  char* area_ = nullptr;
  double staged_ = 0;
  std::size_t count_ = 0;
  // For each Field, the name of the request's input read as it, so that
  // annotated() finds the token JS wrote for a value that was no number.
  // Every field has its slot: the trace import's clock_offsets, past
  // Field::unit, once had none, and its tokens were lost.
  std::array<std::string_view, kFieldCount> inputs_{};
};

}  // namespace heteropipe::wasm
