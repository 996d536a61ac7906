#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"
#include "heteropipe/plan/estimate.hpp"

// The planner's input as JSON text (docs/planner.md#input), read by the
// core's one JSON reader: the one place that knows which key holds what,
// shared by the CLI, the Python package and the wasm module. It reads text
// only (no files), so every front end hands it what the user gave.
namespace heteropipe {

// A document with a "model" or "gguf" key is the estimate form
// {model, quant, devices: [ids or objects], links, phase, tokens, context, M,
// objective, order, allow_idle_devices, calibration}, where model is a catalog id (with
// quant) or a model's facts ({layers, n_embd, ...}: ModelInfo, no quant), or
// gguf a GGUF file's path in their place, which the reader keeps for the
// front end to read (it reads no files); any other object is the explicit
// form {devices: [{layer_times, memory_capacity}], layer_memory, links:
// [{latency, bandwidth}], cut_bytes, M, objective, order, allow_idle_devices}.
// The explicit form without links has free ones (no latency, no transfer).
struct PlanJson {
  PlanRequest request;
  // Every problem found, in the order of the text; empty when the request is
  // whole. Text that is not JSON gives one error alone: not_json (value: the
  // byte where reading stopped), or too_long. Otherwise each bad key gives one:
  // a value of the wrong JSON type (wrong_type, the value's text as token), a
  // number past its field's range or a count by the core's count rules
  // (parse_number, parse_count), a missing required key (missing_field), an
  // unknown key (unknown_key, token the key; field the nearest known key and
  // value 1 when one is near, else where it is and value 0), a key of the
  // other form (wrong_form), an unknown name (unknown_name). Each names the
  // field and, inside a list, the device, link or layer; a list reports its
  // first bad item. Then, when the object and its devices and links lists were
  // read, the values' own errors (plan_input_errors, estimate_input_errors),
  // but none about a field and item already reported; a number they refuse
  // is quoted as typed (token).
  std::vector<Error> errors;
};

PlanJson read_plan_json(std::string_view text);

// A unit a device's fact may be typed in as text ("24 GiB", "1008 GB/s",
// "165 TFLOP/s"), and how many of the core's units (bytes, bytes per second,
// FLOP/s) it is. A text in none of its field's units is unknown_unit.
struct QuantityUnit {
  std::string_view name;
  double scale;
};
struct QuantityUnits {
  const QuantityUnit* first = nullptr;
  std::size_t size = 0;
  const QuantityUnit* begin() const { return first; }
  const QuantityUnit* end() const { return first + size; }
};
// The units of memory, memory_bandwidth or fp16_flops (none for any other
// field), a name before any that ends it ("GiB" before "B").
QuantityUnits quantity_units(Field field);

// What `llama-bench -o json` prints (a list of records, or one record), for
// `heteropipe plan --calibrate` (docs/planner.md#calibration): the records,
// numbered from `first` in errors, and every problem the reader finds (as
// the plan input's "calibration" key gives them; not_json and too_long on
// field calibration), then each record's values as check_record judges them,
// quoting its numbers as typed ("NaN", 1e308).
struct CalibrationJson {
  std::vector<BenchRecord> records;
  std::vector<Error> errors;
};
CalibrationJson read_calibration_json(std::string_view text, std::int64_t first);

}  // namespace heteropipe
