// The Embind registrations of the functions in exports.hpp: the module's only
// Embind code, built at -Os (see wasm/CMakeLists.txt).
#include <emscripten/bind.h>

#include "exports.hpp"

EMSCRIPTEN_BINDINGS(heteropipe) {
  using emscripten::function;
  function("hp_slots", &heteropipe::wasm::hp_slots);
  function("hp_records", &heteropipe::wasm::hp_records);
  function("hp_list", &heteropipe::wasm::hp_list);
  function("hp_small_lists", &heteropipe::wasm::hp_small_lists);
  function("hp_text", &heteropipe::wasm::hp_text);
  function("hp_error", &heteropipe::wasm::hp_error);
  function("hp_name", &heteropipe::wasm::hp_name);
  function("hp_limits", &heteropipe::wasm::hp_limits);
  function("hp_malloc_bytes", &heteropipe::wasm::hp_malloc_bytes);
  function("hp_release", &heteropipe::wasm::hp_release);
  function("hp_analyze", &heteropipe::wasm::hp_analyze);
  function("hp_check", &heteropipe::wasm::hp_check);
  function("hp_read_request", &heteropipe::wasm::hp_read_request);
  function("hp_parse_list", &heteropipe::wasm::hp_parse_list);
  function("hp_parse_number", &heteropipe::wasm::hp_parse_number);
  function("hp_makespan_free", &heteropipe::wasm::hp_makespan_free);
  function("hp_makespan_async", &heteropipe::wasm::hp_makespan_async);
  function("hp_makespan_blocking", &heteropipe::wasm::hp_makespan_blocking);
  function("hp_makespan_gpipe", &heteropipe::wasm::hp_makespan_gpipe);
  function("hp_homogeneity_bias", &heteropipe::wasm::hp_homogeneity_bias);
  function("hp_full_bias", &heteropipe::wasm::hp_full_bias);
  function("hp_phase_transition", &heteropipe::wasm::hp_phase_transition);
  function("hp_overlap_gap", &heteropipe::wasm::hp_overlap_gap);
  function("hp_asymptotic_throughput_async", &heteropipe::wasm::hp_asymptotic_throughput_async);
  function("hp_asymptotic_throughput_blocking", &heteropipe::wasm::hp_asymptotic_throughput_blocking);
  function("hp_crossover_batches", &heteropipe::wasm::hp_crossover_batches);
  function("hp_gpipe_overestimate", &heteropipe::wasm::hp_gpipe_overestimate);
  function("hp_effective_slope", &heteropipe::wasm::hp_effective_slope);
  function("hp_overlap_ratio", &heteropipe::wasm::hp_overlap_ratio);
  function("hp_recurrence_makespan", &heteropipe::wasm::hp_recurrence_makespan);
  function("hp_timeline", &heteropipe::wasm::hp_timeline);
  function("hp_curve_batches", &heteropipe::wasm::hp_curve_batches);
  function("hp_makespan_curve", &heteropipe::wasm::hp_makespan_curve);
}
