#pragma once

#include <string_view>

#include "heteropipe/error.hpp"
#include "heteropipe/plan/estimate.hpp"

// The planner's input as JSON text (docs/planner.md#input): the one place
// that knows which key holds what, shared by the CLI, the Python package and
// the wasm module. It reads text only (no files), so every front end hands
// it what the user gave.
namespace heteropipe {

// A document with a "model" key is the estimate form
// {model, quant, devices: [ids or objects], links, phase, tokens, context, M,
// objective, order, allow_idle_devices}; any other object is the explicit
// form {devices: [{layer_times, memory_capacity}], layer_memory, links:
// [{latency, bandwidth}], cut_bytes, M, objective, order, allow_idle_devices}.
// Errors: not_json (value: the byte where reading stopped), too_long, a
// value of the wrong JSON type (wrong_type, the value as token), a missing
// required key (empty), an unknown name (unknown_name); each names the field
// and, inside a list, the device, link or layer. Values themselves are
// checked by estimate() and make_plan().
Result<PlanRequest> read_plan_json(std::string_view text);

}  // namespace heteropipe
