#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"

// How values cross the JS boundary: Embind functions that take and return
// numbers, with lists and texts in buffers owned here that the JS wrapper
// reads and writes through views of wasm memory. No JS object is built on the
// C++ side, so a call costs little more than a JS call.
// Nothing throws: a failure stores core Errors, which the wrapper reads back
// with hp_error and turns into a HeteropipeError.
namespace heteropipe::wasm {

// A small scratch area of doubles that replies too wide for one return value
// use: an error's parts, the address and length of an output list, limits.
// Its address never changes, so the wrapper looks it up once.
inline constexpr int kSlots = 16;
double* slots();

// Addresses travel as doubles (exact: wasm32 addresses are below 2^32).
inline double address_of(const void* p) { return static_cast<double>(reinterpret_cast<std::uintptr_t>(p)); }

// Address and length of a byte or double range, as doubles for the wrapper.
void put_range(int slot, const void* data, std::size_t size);

// A request (analyze, check) travels in slots 0-6: the lengths of tau and d,
// M, rho, T_real, whether T_real was given, and (analyze) whether to include
// the per-stage lists. A call without arguments is Embind's cheapest.
struct SlotRequest {
  double n_tau, n_d, M, rho;
  std::optional<double> T_real;
  bool series;
};
SlotRequest slot_request();

// The errors of the latest call (none after a success).
void clear_errors();
void add_error(Error error);
// Convenience for the exports: records the error, returns NaN (the "failed"
// reply of every function whose success value is a finite number).
double fail(Error error);
const std::vector<Error>& latest_errors();

// Input lists travel through memory owned here; the wrapper writes a list
// into a Float64Array view of it and passes only the length. A list of at
// most kSmallValues goes to a fixed area (small_list), whose address never
// changes, so a small call asks for no buffer; a longer one goes to a buffer
// the wrapper sizes first (fit_list).
enum class List { tau, d, batches };
inline constexpr std::size_t kSmallValues = 64;
double* small_list(List list);
double* fit_list(List list, double length);

// The first `length` values of the list. Refuses a length above `max_items`
// (too_many) before touching memory. A large buffer is handed over instead
// of copied; recycle_list gives it back once the core is done with it, so a
// run of large calls of one size never zeroes a fresh buffer.
Result<std::vector<double>> read_list(List list, double length, Field field, double max_items);
void recycle_list(List list, std::vector<double> values);
// tau and d, up to the core's limit on stages.
Result<std::vector<double>> read_tau(double length);
Result<std::vector<double>> read_d(double length);

// Text input (UTF-8 bytes written by the wrapper).
char* fit_text(double bytes);
std::string_view text(double bytes);

}  // namespace heteropipe::wasm
