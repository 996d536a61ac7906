#pragma once

#include <cstddef>
#include <cstdint>

// Every limit an interface enforces. Front ends quote these numbers in their
// messages, so they live in one place.
namespace heteropipe::limits {

// Stages in one pipeline (and items in one parsed list).
inline constexpr std::int64_t kMaxStages = 10'000'000;

// Largest accepted tau, d or T_real. Keeps every derived quantity finite:
// (2^53) * 1e15 * a few is still far below DBL_MAX.
inline constexpr double kMaxValue = 1e15;

// Smallest accepted tau_max (the largest stage time). Below it 1/tau_max and
// M* could overflow; no real stage takes less than a femtosecond.
inline constexpr double kMinStageTime = 1e-15;

// Smallest nonzero magnitude a typed number may have: the smallest normal
// double (DBL_MIN, 2^-1022; IEEE 754 binary64). A number typed other than 0
// but smaller (1e-400, 1e-310) would be read as 0 or as a subnormal that has
// lost its digits, so every typed-number reader refuses it as too_small.
inline constexpr double kMinNormalNumber = 2.2250738585072014e-308;

// Micro-batches: an integer in [1, 2^53], the largest range in which every
// integer is exact in a double (and so in JavaScript).
inline constexpr double kMinBatches = 1;
inline constexpr double kMaxBatches = 9007199254740992.0;  // 2^53

// A model's counts (heads, lengths, experts, ...): whole numbers a double
// holds exactly, as a GGUF file's uint64 may not be.
inline constexpr double kMaxModelCount = 9007199254740992.0;  // 2^53

// The overlap ratio rho: 0 fully blocking, 1 fully asynchronous.
inline constexpr double kMinRho = 0;
inline constexpr double kMaxRho = 1;

// Cells (micro-batch x stage) the timeline may hold. Each cell costs 32 bytes,
// so this caps a timeline at about 64 MB.
inline constexpr double kMaxTimelineCells = 2'000'000;

// Work the streaming recurrence may do in one call, in cell steps: M x S cells
// plus kStreamDiagonalCost for each of its M + S - 1 anti-diagonals, whose
// fixed cost dominates short pipelines. Counting both bounds the time of
// every shape alike (seconds, not minutes), so no request hangs an interface.
inline constexpr double kStreamDiagonalCost = 32;
inline constexpr double kMaxStreamWork = 4e9;

// Bytes of typed text one field may hold: room for kMaxStages values of a
// dozen characters each, and a bound checked before any copy is made.
inline constexpr double kMaxTextBytes = 134'217'728;  // 128 MiB

// Points of a makespan curve.
inline constexpr std::int64_t kMinCurvePoints = 2;
inline constexpr std::int64_t kMaxCurvePoints = 10'000;

// The planner: devices and layers of one plan. Each pass of its dynamic
// program costs about S x L steps and a plan takes tens of passes, so these
// keep the largest plan to seconds (docs/planner.md).
inline constexpr std::int64_t kMaxPlanDevices = 256;
inline constexpr std::int64_t kMaxPlanLayers = 4096;
// Trying every device order solves up to S! plans (720 at six devices),
// one per distinct arrangement (identical devices never trade places). Its
// work, distinct orders x S x L, is bounded too, which keeps a search to a
// few seconds (docs/planner.md).
inline constexpr std::int64_t kMaxOrderSearchDevices = 6;
inline constexpr double kMaxOrderSearchWork = 1'048'576;  // 2^20

// The estimator: tokens per micro-batch (decode: sequences, each adding one
// token; prefill: prompt tokens) and the context each sequence holds. Both
// are whole numbers; these bounds keep every byte count far inside a double's
// exact integers and every estimated time finite.
inline constexpr double kMaxEstimateTokens = 1'048'576;    // 2^20
inline constexpr double kMaxEstimateContext = 16'777'216;  // 2^24

// Calibration (docs/planner.md#calibration): llama-bench records per input,
// and the bytes of one record's gpu_info, so that matching every record
// against every device's names stays small.
inline constexpr std::int64_t kMaxCalibrationRecords = 1024;
inline constexpr double kMaxGpuInfoBytes = 1024;
// What an error quotes of a value typed in a JSON input or file (the
// planner's token, a trace file's typed): its text, cut to this many bytes
// (at a UTF-8 character's start) and marked "...".
inline constexpr std::size_t kMaxQuoteBytes = 40;
// Errors one planner or calibration input reports: its first this many, so a
// file of a million bad keys costs a hundred lines, not a million (reading goes
// on, but finds no more). Not listed by visit_fields; docs/planner.md states it.
inline constexpr std::size_t kMaxInputErrors = 100;

// The plan report's what-if (one device removed, one added) solves about
// 2 S more plans, so it is offered up to this many devices and left empty above.
inline constexpr std::int64_t kMaxWhatIfDevices = 16;
// A stage whose layers fill more than this fraction of its device's memory
// capacity is a warning in the plan report: the estimate's memory is an
// estimate, and a runtime that needs a little more than it stops loading.
// Not listed by visit_fields (the front ends' tests pin that list);
// docs/planner.md states it.
inline constexpr double kMemoryWarningFraction = 0.95;
// The simulator (heteropipe/sim). Replications of one Monte Carlo run, whose
// makespans are all kept for the percentiles (8 bytes each).
inline constexpr double kMaxReps = 1'000'000;
// Cells simulated by one request, M x S x reps: bounds its time alike for
// every shape (seconds, not minutes), so no request hangs an interface.
inline constexpr double kMaxSimCells = 1e9;
// A run that draws at random does more per cell than the engine's step: each
// replication seeds 2S - 1 streams (which dominates at M = 1) and each random
// stage or link draws M times (a gamma of CV 4, the costliest, about 30 times
// a deterministic step). Its work, counted in cell steps as
//   reps x (M x S + kSimDrawSteps x M x random samplers + kSimStreamSteps x (2S - 1)),
// is held to kMaxSimCells too, so that every accepted request takes seconds
// on one core (docs/simulation.md). Not listed by visit_fields; the docs and
// the error (too_much_sim_work, limit kMaxSimCells) state them.
inline constexpr double kSimDrawSteps = 16;
inline constexpr double kSimStreamSteps = 64;
// The same with shared links: the event engine keeps every transfer queued
// and orders the media's next transfers, up to about 128 times the row
// engines' work per cell (many small groups, blocking), so its cells are
// bounded to 1/128 of them. Not listed by visit_fields; docs/simulation.md
// states it.
inline constexpr double kMaxSharedSimCells = kMaxSimCells / 128;  // 7,812,500
// The largest finite buffer between two stages (its history is bounded by
// kMaxBufferHistory too); a larger one is the same as infinite for M up to it.
inline constexpr double kMaxBuffer = 1'000'000;
// The history finite buffers keep: S x (the largest finite buffer + 1) release
// times, counting only buffers below M - 1 (a larger one never fills). Each
// takes at most 24 bytes of memory (docs/simulation.md), so this keeps them
// under 100 MB however S and the buffers combine.
inline constexpr double kMaxBufferHistory = 4'194'304;  // 2^22
// Transfers the event engine (shared links) may hold queued: it lets each
// stage run ahead of a busy medium, so up to every transfer of a run,
// M x (S - 1), may wait at once, each taking at most 16 bytes (docs/simulation.md).
// A run with shared links may have at most this many, which keeps them under
// 100 MB; the check comes before anything is allocated.
inline constexpr double kMaxQueuedTransfers = 4'194'304;  // 2^22
// The largest coefficient of variation of a lognormal or gamma service time.
// Up to it every draw of a positive mean stays positive and finite (a gamma of
// shape 1/cv^2 below about 1/19 could underflow to 0).
inline constexpr double kMaxCv = 4;
// Below this CV (or uniform spread) every draw is exactly the mean: the
// spread is then far below a double's precision in any draw, and a gamma's
// shape 1/cv^2 would overflow.
inline constexpr double kMinCv = 1e-9;
// The largest relative spread of a uniform service time: mean x [1 - spread, 1 + spread].
inline constexpr double kMaxSpread = 1;
// Measured samples or quantiles of every stage together.
inline constexpr double kMaxServiceSamples = 1'000'000;
// Trace import (heteropipe/trace). Bytes of one trace file's text, after any
// decompression: a gzip file stops inflating here, which is what keeps a
// gzip bomb from filling memory. Every byte is scanned, so this also bounds
// the time of a file whose events are all skipped, to seconds.
inline constexpr double kMaxTraceBytes = 536'870'912;  // 512 MiB
// Timed events (or schedule CSV rows) kept from all files together. Each
// costs its time and its tens of bytes however short its text (a CSV row
// can be 16 bytes, a JSON event 37), so this bound, not
// the bytes', is what keeps a file of short events to seconds and its events
// to a few hundred MB, well inside the page's wasm memory. Kineto writes an
// event in more than 100 bytes, so a real trace of kMaxTraceBytes fits in it
// (docs/traces.md, docs/benchmarks.md).
inline constexpr double kMaxTraceEvents = 5'000'000;
// Ranks (stages) one import may hold.
inline constexpr std::int64_t kMaxTraceRanks = 4096;
// Largest |ts| and dur in a trace, in microseconds (about 3,000 years): a
// finite bound that keeps every difference of two times exact enough.
inline constexpr double kMaxTraceTime = 1e17;
// Smallest nonzero |time| in a schedule CSV, in microseconds: a smaller one,
// shown in seconds (1e6 times smaller), would fall below the smallest normal
// double (about 2.2e-308) and lose its digits or become 0. Not listed by
// visit_fields; errors carry it as limit, in the file's unit.
inline constexpr double kMinTraceTime = 1e-300;
// Largest baseTimeNanoseconds (a Kineto file's clock origin, nanoseconds
// since the epoch: the year 2255), read exactly, within a signed 64-bit integer.
// This and the next are not listed by visit_fields; errors carry them as limit.
inline constexpr double kMaxTraceBaseTime = 9e18;
// Largest pid, tid, rank and world_size a trace may give as a number: every
// whole number a double holds exactly.
inline constexpr double kMaxTraceId = 9007199254740992.0;  // 2^53
// Nesting depth of a trace's JSON (Kineto writes 5 levels).
inline constexpr std::int64_t kMaxTraceDepth = 64;
// A trace pattern is searched in the first this many bytes of an event name:
// matching takes name bytes x pattern states, so this bounds each name's
// work. Kineto's longest kernel names (C++ templates) are a few hundred
// bytes. Not listed by visit_fields (the front ends' tests pin that list);
// docs/traces.md states it.
inline constexpr std::size_t kTraceNameMatchBytes = 4096;
// States of one compiled trace pattern (about one per character, each counted
// repeat copying its operand): with the bytes above, the most work one name
// can take. Not listed by visit_fields either; docs/traces.md states it.
inline constexpr std::size_t kMaxPatternStates = 2000;
// Steps (live threads x name bytes) one pattern may take over all of an
// import's distinct event names: the two bounds above allow 8 million per
// name, so a large trace of long distinct names and a pattern that keeps many
// states alive would run for hours. A pattern that fixes its start or its
// first letters takes about one step per byte. Not listed by visit_fields;
// docs/traces.md states it.
inline constexpr double kMaxPatternWork = 300'000'000;
// A trace no micro-batch pattern matched (no_microbatch_ranges) names the
// range names it holds most often, this many forms of them, each name cut to
// this many bytes, so that the user can write the pattern; a result stays
// small whatever the trace's names. Listed by visit_fields, so the module's
// declarations name them as limits rather than repeat their values.
inline constexpr std::size_t kMaxRangeNames = 5;
inline constexpr std::size_t kMaxRangeNameBytes = 80;

// GGUF files (heteropipe/plan/gguf.hpp). The header and tensor table are read
// whole into memory, up to this many bytes: a large vocabulary's tokens and
// merges take tens of MB, so this leaves room while bounding what a page loads.
inline constexpr double kMaxGgufHeaderBytes = 268'435'456;  // 256 MiB
// Keys, tensors, one string's bytes and one array's items: each far above
// what real models hold, each checked before anything is kept.
inline constexpr double kMaxGgufKeys = 65'536;
inline constexpr double kMaxGgufTensors = 1'048'576;
inline constexpr double kMaxGgufStringBytes = 16'777'216;  // 16 MiB
inline constexpr double kMaxGgufArrayItems = 67'108'864;   // 2^26
// Dimensions of one tensor (ggml's GGML_MAX_DIMS), and the nesting of arrays
// in arrays, which the reader walks by recursion.
inline constexpr double kMaxGgufDims = 4;
inline constexpr std::int64_t kMaxGgufArrayDepth = 4;
// The reader asks for at least this many leading bytes at a time.
inline constexpr double kGgufFirstRead = 1'048'576;  // 1 MiB

// Every limit above by its public name, for the front ends that list them.
template <class Visitor>
void visit_fields(Visitor&& visit) {
  visit("max_stages", kMaxStages);
  visit("max_value", kMaxValue);
  visit("min_stage_time", kMinStageTime);
  visit("min_batches", kMinBatches);
  visit("max_batches", kMaxBatches);
  visit("min_rho", kMinRho);
  visit("max_rho", kMaxRho);
  visit("max_timeline_cells", kMaxTimelineCells);
  visit("stream_diagonal_cost", kStreamDiagonalCost);
  visit("max_stream_work", kMaxStreamWork);
  visit("max_text_bytes", kMaxTextBytes);
  visit("min_curve_points", kMinCurvePoints);
  visit("max_curve_points", kMaxCurvePoints);
  visit("max_plan_devices", kMaxPlanDevices);
  visit("max_plan_layers", kMaxPlanLayers);
  visit("max_order_search_devices", kMaxOrderSearchDevices);
  visit("max_order_search_work", kMaxOrderSearchWork);
  visit("max_estimate_tokens", kMaxEstimateTokens);
  visit("max_estimate_context", kMaxEstimateContext);
  visit("max_what_if_devices", kMaxWhatIfDevices);
  visit("max_reps", kMaxReps);
  visit("max_sim_cells", kMaxSimCells);
  visit("max_buffer", kMaxBuffer);
  visit("max_buffer_history", kMaxBufferHistory);
  visit("max_queued_transfers", kMaxQueuedTransfers);
  visit("max_cv", kMaxCv);
  visit("min_cv", kMinCv);
  visit("max_spread", kMaxSpread);
  visit("max_service_samples", kMaxServiceSamples);
  visit("max_trace_bytes", kMaxTraceBytes);
  visit("max_trace_events", kMaxTraceEvents);
  visit("max_trace_ranks", kMaxTraceRanks);
  visit("max_trace_time", kMaxTraceTime);
  visit("max_trace_depth", kMaxTraceDepth);
  visit("max_range_names", static_cast<std::int64_t>(kMaxRangeNames));
  visit("max_range_name_bytes", static_cast<std::int64_t>(kMaxRangeNameBytes));
  visit("max_gguf_header_bytes", kMaxGgufHeaderBytes);
  visit("max_gguf_keys", kMaxGgufKeys);
  visit("max_gguf_tensors", kMaxGgufTensors);
  visit("max_gguf_string_bytes", kMaxGgufStringBytes);
  visit("max_gguf_array_items", kMaxGgufArrayItems);
  visit("max_gguf_dims", kMaxGgufDims);
  visit("max_calibration_records", kMaxCalibrationRecords);
  visit("max_gpu_info_bytes", kMaxGpuInfoBytes);
  visit("max_model_count", kMaxModelCount);
  visit("min_normal_number", kMinNormalNumber);
}

}  // namespace heteropipe::limits
