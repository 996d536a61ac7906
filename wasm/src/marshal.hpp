#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"

// How values cross the JS boundary. Nothing here throws: every failure is a
// core Error inside a Reply, which the JS wrapper turns into a HeteropipeError.
namespace heteropipe::wasm {

using emscripten::val;

// What every bound function returns: `error` is null on success, otherwise an
// object {code, field, index, value, token} built from a core Error.
struct Reply {
  val value = val::undefined();
  val error = val::null();
};

val error_object(const Error& error);
Reply fail(const Error& error);
Reply succeed(val value);

// Input lists travel through buffers owned here: the JS wrapper writes each
// list straight into a Float64Array view of its buffer (one pass, no Embind
// conversion) and passes only its length.
enum class List { tau, d, batches };

// Grows (or, after a large call, shrinks) the buffers to hold at least these
// lengths and returns fresh views [tau, d, batches] over them.
val list_views(double tau_length, double d_length, double batches_length);

// The first `length` values of a list buffer. Refuses a length above
// `max_items` (too_many) before touching memory.
Result<std::vector<double>> read_list(List list, double length, Field field, double max_items);

// A copy of `values` as a Float64Array (one memcpy, not one call per element).
val to_float64_array(const std::vector<double>& values);

// Flattens the fields the core's visit_fields reports into `out`: first the
// values of every list, then records of five doubles (name address, name
// length, kind, a, b), then the record count. Kind 0: number a; 1: boolean a;
// 2: list of b values starting at index a of `out`; 3: text of b bytes at
// address a (a string literal). The wrapper builds the JS object from that,
// so no field name is written twice and a call crosses the boundary once.
// Lists are copied because the core may produce them on demand.
struct RecordWriter {
  std::vector<double>& out;
  std::vector<double> records;

  void put(const char* name, double kind, double a, double b);
  void operator()(const char* name, double x) { put(name, 0, x, 0); }
  void operator()(const char* name, std::int64_t x) { put(name, 0, static_cast<double>(x), 0); }
  void operator()(const char* name, bool x) { put(name, 1, x ? 1 : 0, 0); }
  void operator()(const char* name, const std::vector<double>& x);
  void operator()(const char* name, std::string_view x);
  // Appends the records and their count.
  void finish();
};

// A Float64Array view (not a copy) of `values`, valid until the next call.
val view_of(const std::vector<double>& values);

}  // namespace heteropipe::wasm
