#include "heteropipe/text/plan_text.hpp"

#include "heteropipe/limits.hpp"
#include "heteropipe/text/numbers.hpp"

namespace heteropipe::text {

std::string describe(const MemoryWarning& w) {
  return "stage " + std::to_string(w.stage) + " (device " + std::to_string(w.device) + ") fills " +
         percent(w.fraction) + " of its memory capacity (over " + percent(limits::kMemoryWarningFraction) +
         "): a runtime that needs a little more memory than estimated will not load it";
}

std::string typically(const SpeedBand& band) {
  if (!band || band->size() != 2) return "";
  return "typically " + four_figures((*band)[0]) + " to " + four_figures((*band)[1]);
}

std::string tensor_split_note() {
  return "(-ts: the last count is one more, for the output layer, which llama.cpp places on the last device as a "
         "layer of its own, and more by a model's multi-token-prediction layers, which llama.cpp counts but neither "
         "loads nor runs)";
}

std::string why_infeasible(const WhatIf& w) {
  if (w.reason == "fewer_layers_than_devices") return "a device would run no layer (the model has fewer layers than devices)";
  if (w.reason == "memory_short" || w.reason == "no_feasible_split" || w.reason == "device_too_small") {
    return "no split fits in memory";
  }
  return "no split fits (" + std::string(w.reason) + ")";
}

std::string why_infeasible(const Baseline& b) {
  if (b.feasible) return "";
  if (b.reason == "memory") return "does not fit in memory";
  return "leaves a device idle (allow_idle_devices is false)";
}

std::string describe(const Calibrated& c) {
  return "by llama-bench record " + std::to_string(c.record) + ": " + readable(c.factor) +
         " times the estimate's speed";
}

std::string describe(const UnusedRecord& u) {
  if (u.reason == "other_phase") return "its test is not of the plan's phase (tg: decode, pp: prefill)";
  if (u.reason == "no_device") return "its gpu_info or device names no device of the input";
  if (u.reason == "measured") return "each device it names has its own layer_time or avg_ts";
  return "each device it names took a record whose model_size is nearer the planned model's";
}

}  // namespace heteropipe::text
