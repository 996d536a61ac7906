#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"
#include "heteropipe/plan/catalog.hpp"
#include "heteropipe/plan/estimate.hpp"

// Calibration from llama-bench (docs/planner.md#calibration): each record
// of `llama-bench -o json` measures one model on one GPU; it sets the
// efficiency of the input's devices of that GPU, so that the estimate for
// the record's own model on one such device equals the record's avg_ts.
namespace heteropipe {

// Device `device` (its index in the input) took record `record` (its index
// in the input's calibration): its per-layer times are the estimate's
// divided by factor, avg_ts over the estimator's tokens per second for the
// record's model on that one device (above 1: faster than the estimate).
struct Calibrated {
  std::int64_t device = 0, record = 0;
  double factor = 1;
};

// A record that calibrates no device, and why: "other_phase" (a test of the
// other phase, or of both: llama-bench's pg), "no_device" (it names no
// device of the input), "measured" (each device it names has its own
// layer_time or avg_ts, which wins), "nearer_record" (each device it names
// took a record whose model_size is nearer the planned model's bytes).
struct UnusedRecord {
  std::int64_t record = 0;
  std::string_view reason;
};

struct Calibration {
  std::vector<double> factors;          // one per device: 1 where no record applies
  std::vector<Calibrated> calibrated;   // in device order
  std::vector<UnusedRecord> unused;     // in record order
};

// The names llama-bench's gpu_info may give a catalog GPU: its display
// name, and that name less its leading vendor words (NVIDIA, GeForce, AMD,
// Apple, Intel) and less a trailing memory size ("12GB") or parenthesis
// ("(64-core GPU)"), when that differs.
std::vector<std::string> gpu_names(const GpuSpec& gpu);

// The devices of the input that a record names: with "device", those whose
// catalog id or name it is; else those one of whose names occurs in
// gpu_info, ignoring case, with no letter or digit just before or after it,
// where no longer name (of any catalog GPU or any device's name) occurs
// over the same characters ("RTX 4070 Ti" hides "RTX 4070" inside it).
// Errors: unknown_id on field device (neither a catalog id nor a device's
// name), ambiguous_device (devices of two kinds: catalog ids, or custom names).
Result<std::vector<std::int64_t>> devices_named(const EstimateInput& input, const BenchRecord& record,
                                                std::int64_t index);

// A record's first bad value: gpu_info longer than limits::kMaxGpuInfoBytes,
// or empty without device; model_size, model_n_params, avg_ts (field
// calibration) not finite and > 0; n_prompt, n_gen not finite and >= 0;
// any of them above limits::kMaxValue (n_prompt above kMaxEstimateTokens).
std::optional<Error> check_record(const BenchRecord& record, std::int64_t index);

// The input's calibration: for each device without a measured speed, the
// record of the plan's phase that names it with its model_size nearest the
// planned model's bytes (the first on a tie), and the factor it gives.
// Errors: the records' (check_record, devices_named), then the devices'.
Result<Calibration> calibration_of(const EstimateInput& input);

template <class Visitor>
void visit_fields(const Calibrated& c, Visitor&& visit) {
  visit("device", c.device);
  visit("record", c.record);
  visit("factor", c.factor);
}

template <class Visitor>
void visit_fields(const UnusedRecord& u, Visitor&& visit) {
  visit("record", u.record);
  visit("reason", u.reason);
}

}  // namespace heteropipe
