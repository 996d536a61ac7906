#pragma once

#include <emscripten/val.h>

#include "inputs.hpp"
#include "reply.hpp"
#include "request.hpp"

// The module's public operations. Each takes the address of its staged
// request (request.hpp), which it frees, and returns the address of its
// reply (reply.hpp), which the wrapper releases. None throws: a failure is a
// reply of status -1 holding one error.
namespace heteropipe::wasm {

// The module itself: version, limits and the names of fields and regimes.
double module_info(double staging);
// wasm memory and the bytes malloc has handed out (the leak tests hold them flat).
double memory(double staging);

// Every quantity at once (analyze_op.cpp), and checks (request_ops.cpp).
double analyze(double staging);
double check(double staging);
double read_request(double staging);
double parse_list(double staging);
double parse_number(double staging);

// The schedule and the curves (schedule_ops.cpp).
double effective_slope(double staging);
double overlap_ratio(double staging);
double recurrence_makespan(double staging);
double timeline(double staging);
double curve_batches(double staging);
double makespan_curve(double staging);

// The planner (plan_ops.cpp; only the whole module binds them).
double plan(double staging);
double catalog(double staging);
// One step of reading a GGUF file's header: `bytes` (its first bytes) and
// `size` in, the facts or how many leading bytes to hand in next out.
double model_info(double staging);

// The simulator and trace import (sim_ops.cpp, trace_ops.cpp; only the whole
// module binds them).
// `progress`: a function called with the fraction of replications done, or undefined.
double simulate(double staging, emscripten::val progress);
double import_trace(double staging);
// Frees a staged request unread: one the wrapper let go before its texts
// were whole (a Blob that could not be read, a gzip text staged again in room
// of its length; wasm/js/traces.js).
void unstage(double staging);

// One quantity of a pipeline.
template <auto quantity>
double of_pipeline(double staging) {
  Request in(staging);
  auto p = read_pipeline(in);
  return p ? value(quantity(p.value())) : refuse(p.error());
}

// One quantity of a pipeline at M micro-batches.
template <auto quantity>
double of_batches(double staging) {
  Request in(staging);
  auto at = read_pipeline_at_batches(in);
  return at ? value(quantity(at.value().pipeline, at.value().M)) : refuse(at.error());
}

}  // namespace heteropipe::wasm
