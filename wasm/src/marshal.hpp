#pragma once

#include <cstdint>
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

// Address and length of a byte or double range, as doubles for the wrapper.
void put_range(int slot, const void* data, std::size_t size);

// The errors of the latest call (none after a success).
void clear_errors();
void add_error(Error error);
// Convenience for the exports: records the error, returns NaN (the "failed"
// reply of every function whose success value is a finite number).
double fail(Error error);
const std::vector<Error>& latest_errors();

// Input lists travel through buffers owned here: the wrapper asks for a
// buffer of the right length (hp_list), writes the list into a Float64Array
// view of it, and passes only the length.
enum class List { tau, d, batches };
double* fit_list(List list, double length);

// The first `length` values of a list buffer. Refuses a length above
// `max_items` (too_many) before touching memory. A large buffer is handed
// over instead of copied (the next call allocates a fresh one).
Result<std::vector<double>> read_list(List list, double length, Field field, double max_items);

// Text input (UTF-8 bytes written by the wrapper).
char* fit_text(double bytes);
std::string_view text(double bytes);

}  // namespace heteropipe::wasm
