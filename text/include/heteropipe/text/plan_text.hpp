#pragma once

#include <string>

#include "heteropipe/plan/report.hpp"

// The plan report's English words that are not an error's.
namespace heteropipe::text {

// A stage above limits::kMemoryWarningFraction of its device's memory, e.g.
// "stage 0 (device 0) fills 98.6 % of its memory capacity (over 95.0 %): a
// runtime that needs a little more memory than estimated will not load it".
// Stages and devices are 0-based, as in the CLI's plan table.
std::string describe(const MemoryWarning& warning);

// An estimate's band for people, "typically 14.38 to 19.46", its ends to
// four significant figures; empty for no band (explicit costs).
std::string typically(const SpeedBand& band);

// Why a what-if has no split: "no split fits in memory", or, when the
// chain would have more devices than the model has layers (reason
// fewer_layers_than_devices), "a device would run no layer (the model has
// fewer layers than devices)".
std::string why_infeasible(const WhatIf& what_if);

// Why a baseline breaks a rule the plan keeps: "does not fit in memory"
// (reason memory), or "leaves a device idle (allow_idle_devices is false)"
// (reason idle_device); empty for a feasible baseline.
std::string why_infeasible(const Baseline& baseline);

// The note under the llama.cpp command on its -ts counts: the last count
// holds the output layer and the model's multi-token-prediction layers
// (RuntimeCommands::llama_cpp_command), in parentheses.
std::string tensor_split_note();

// A device's calibration, e.g. "by llama-bench record 0: 0.812 times the
// estimate's speed"; a record that calibrated no device, and why.
std::string describe(const Calibrated& calibrated);
std::string describe(const UnusedRecord& unused);

}  // namespace heteropipe::text
