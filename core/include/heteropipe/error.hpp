#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace heteropipe {

// What went wrong. Front ends turn a code into words in their own language.
enum class ErrorCode {
  empty,            // a list that needs values has none
  too_many,         // more items than limits::kMaxStages
  not_finite,       // NaN or infinity
  negative,         // below zero
  all_zero,         // tau has no positive value
  too_small,        // tau_max below limits::kMinStageTime; value = tau_max
  too_large,        // above limits::kMaxValue / kMaxBatches
  wrong_length,     // d has neither 0 nor S-1 values; value = its length
  not_integer,      // M has a fraction
  out_of_range,     // below the field's minimum or above its maximum
  not_positive,     // T_real <= 0
  empty_item,       // parser: nothing between two separators
  not_a_number,     // parser: the item is not a decimal number
  ambiguous_comma,  // parser: a comma between digits that may be a decimal or thousands mark; token = "0,5"
  has_unit,         // parser: a number typed with a time unit ("12 ms"); token = the number and its unit as typed
  no_overlap_headroom,  // overlap ratio asked for while T_block == T_async
  too_many_cells,   // timeline or stream request above its cell limit; value = M * S
  too_long,         // a text above limits::kMaxTextBytes; value = its length in bytes
  too_much_work,    // a streaming recurrence above limits::kMaxStreamWork; value = its work
  out_of_memory,    // the host could not give the memory a request needs; value = the bytes asked for
  // The planner (heteropipe/plan):
  unknown_name,     // a name that is none of its field's choices; token = the name
  sum_too_large,    // one device's layer times add up past limits::kMaxValue; value = the sum
  delay_too_large,  // a link needs more than limits::kMaxValue for the largest cut; value = that delay
  fewer_layers_than_devices,  // L < S without idle devices; value = L, limit = S
  device_too_small,  // a device holds no single layer; value = its capacity, limit = the smallest layer's memory
  memory_short,     // the devices together hold less than the layers need; value = the shortfall, limit = the need
  no_feasible_split,  // no contiguous split fits every device's memory
  too_many_to_order,  // an order search over more than limits::kMaxOrderSearchDevices; value = S
  order_search_too_large,  // distinct orders x S x L above limits::kMaxOrderSearchWork; value = that product
  wrong_type,       // a structured input (JSON) holds the wrong kind of value; token = that value (a GGUF
                    // file's fact of a type that is no whole number: field value_type, token = its key,
                    // index = where its type is given, value = the type's number)
  // The planner's estimator and its JSON form:
  not_json,         // the text is not JSON; value = the byte offset where reading stopped (a trace's:
                    // limit = the text's length when reading ran past its end, a file cut short;
                    // index = that byte, token = the file's label)
  unknown_key,      // a JSON key the object does not have; token = the key; value 1: field is the
                    // nearest known key (a typo), value 0: field (and index) say where the key is
  wrong_form,       // a key of the planner's other input form (explicit / estimate); field = the key
  unknown_id,       // an id the catalog does not hold; token = the id
  unknown_unit,     // a device's fact typed as text with no unit it may be typed in ("24 kg"); token = the text
  // The simulator (heteropipe/sim):
  overlapping_groups,  // a link in two shared groups, or twice in one; index = the group, value = the link
  no_such_link,     // a shared group names a link the pipeline lacks; index = the group, value = the link, limit = S-1
  not_ascending,    // quantiles that decrease; index = the stage, value = the first smaller one
  too_many_sim_cells,  // M x S x reps above limits::kMaxSimCells; value = that product
  too_much_sim_work,   // a random run's cell steps (limits::kSimDrawSteps) above kMaxSimCells; value = them
  buffer_history_too_large,  // S x (largest finite buffer + 1) above limits::kMaxBufferHistory;
                             // index = that buffer's, value = that product
  too_many_transfers,  // with shared links, M x (S-1) above limits::kMaxQueuedTransfers; value = that product
  // Trace import (heteropipe/trace): token = the file's label, index = the
  // byte offset (JSON) or 0-based line (CSV) where the problem lies.
  missing_field,     // an event lacks a field its phase needs (the field says which)
  unmatched_begin,   // a B event without its E on the same pid and tid
  unmatched_end,     // an E event without an open B
  bad_gzip,          // compressed data that does not inflate; value = kGzipNotInflated when a
                     // reader that takes text only (the wasm module) was given gzip bytes
  bad_pattern,       // a trace pattern outside the dialect; token = the pattern, index = the 0-based
                     // character at fault, value = kPattern* (what is wrong there)
  duplicate_rank,    // two files claim the same rank; value = the rank
  end_before_start,  // a CSV row whose end is before its start
  not_a_permutation, // a stage order that is not each found rank once; value = the offending rank
  not_a_trace,       // a file that is neither trace JSON nor a schedule CSV (by its first bytes or
                     // its header line)
  utf16_text,        // text (a plan, calibration or trace JSON, any CSV) that starts with a UTF-16
                     // byte-order mark, FF FE or FE FF: every reader takes UTF-8; value = the mark's
                     // first byte (255 or 254). Trace files: token = the label, index = 0.
  utf32_text,        // the same for a UTF-32 byte-order mark, FF FE 00 00 or 00 00 FE FF (whose first
                     // two bytes FF FE are also UTF-16's, so it is told first); value = 255 or 0.
  // GGUF files (heteropipe/plan/gguf.hpp): index = the byte offset, token =
  // the key or tensor concerned.
  not_gguf,             // the first four bytes are not "GGUF"
  unsupported_version,  // a version other than 2 or 3; value = the version
  truncated,            // the file ends inside the header, or before a tensor's data ends; value = the
                        // bytes it would need, limit = the file's size
  unknown_type,         // a metadata value type (field value_type) or ggml tensor type (field ggml_type)
                        // that is none of the format's; value = the type's number
  duplicate_tensor,     // a tensor name the table gives twice (its bytes would count twice); index = the
                        // second one's byte offset
  duplicate_key,        // a metadata key the file gives twice (ggml refuses it); index = the second one's
                        // byte offset. Also a planner or calibration JSON object's key given twice: field =
                        // the key's, index = the object's item (device, link, record), token = the key
  bad_tensor,           // a tensor whose first dimension is no whole number of blocks (value = it, limit =
                        // the block), or blk.N past block_count (value = N, limit = block_count)
  unaligned_tensor,     // a tensor whose data offset is no multiple of general.alignment (32 unless the file
                        // says); index = where the table gives the offset, value = it, limit = the alignment
  overlapping_tensors,  // a tensor whose data starts inside another's; index = where the table gives its
                        // offset, value = it, limit = where the other's data ends (offsets from the data's start)
  bad_alignment,        // general.alignment that is no nonzero power of two (ggml's spec); token = the key,
                        // index = where its value starts, value = it; field value_type: a value that is no
                        // whole number, index = where its type is given, value = the type's number
  // The plan input's model: keys that cannot be given together; field = the
  // second key, token = the first.
  conflicting_keys,
  // Calibration: a llama-bench record whose gpu_info names devices of
  // different kinds; field calibration, index = the record, token = its
  // gpu_info, value and limit = the first two such devices.
  ambiguous_device,
  // A model's facts that contradict each other (heteropipe/plan/gguf.hpp's
  // ModelInfo): field (and index, a layer) = the fact, value = it, token =
  // the other fact's name, limit = the other fact's value.
  above_fact,     // more than the other fact allows: expert_used_count > expert_count,
                  // n_head_kv > n_head, active_layer_bytes > layer_bytes (layer)
  not_a_divisor,  // n_head_kv does not divide n_head (grouped-query attention shares each KV head evenly)
};

// Which input the error is about.
enum class Field {
  tau, d, M, rho, T_real, points,
  // The planner's input (heteropipe/plan/input.hpp):
  devices, layer_times, memory_capacity, layer_memory, links, latency, bandwidth, cut_bytes, objective, order,
  allow_idle_devices, id,
  // The estimator's input (heteropipe/plan/estimate.hpp) and the JSON text as a whole:
  input, model, quant, phase, tokens, context, memory, memory_bandwidth, fp16_flops, device_class, layer_time,
  avg_ts,
  // The simulator's input (heteropipe/sim/input.hpp):
  link_mode, shared, buffers, service, link_service, service_matrix, link_matrix, service_samples, service_probabilities,
  reps, seed,
  // Trace import: the whole file, then the JSON keys of an event, then the
  // schedule CSV's columns, then the import's options.
  trace, ph, ts, dur, name, cat, pid, tid, traceEvents, rank, world_size, baseTimeNanoseconds, distributedInfo,
  stage, microbatch, kind, start, end,
  stage_order, compute_regex, transfer_regex, microbatch_regex, stat, unit, clock_offsets, profiler_step,
  // GGUF files: the file, then what a limit or a type is about.
  gguf, header_bytes, key_count, tensor_count, string_length, array_length, n_dims, dims, value_type, ggml_type,
  // A model's facts (heteropipe/plan/gguf.hpp's ModelInfo; its name is Field::name).
  architecture, layers, nextn_predict_layers, n_embd, n_head, n_head_kv, context_length, expert_count, expert_used_count, key_length,
  value_length, feed_forward_length, vocab_size, sliding_window, sliding_layers, attention_layers,
  kv_layers, recurrent_layers, layer_bytes, active_layer_bytes,
  active_layer_params, embedding_bytes, output_bytes, kv_bytes_per_token, recurrent_bytes_per_sequence,
  // Calibration: the input's list of llama-bench records, then a record's keys
  // (index = the record; a record's avg_ts is field calibration, and its
  // wrong_type there has value 1, the record's own value 0).
  calibration, gpu_info, model_size, model_n_params, n_prompt, n_gen, device,
};

// How many fields there are, for tables with a slot per field: Field::device
// is the last (a test checks that field_name knows each field below this
// count and none at it, so a field added after device fails it until this moves).
inline constexpr std::size_t kFieldCount = static_cast<std::size_t>(Field::device) + 1;

inline constexpr std::int64_t kWholeField = -1;

// bad_gzip's value when the bytes are whole but were not inflated: the reader has no inflater.
inline constexpr double kGzipNotInflated = 1.0;
// bad_gzip's value when the gzip data is whole and other bytes follow it (index: the first of them).
inline constexpr double kGzipTrailingData = 2.0;
// bad_pattern's value: what is wrong at its index. The syntax is not the
// dialect's; a lookahead or lookbehind; a back-reference (\1 to \9); or the
// compiled pattern needs more than limits::kMaxPatternStates states (limit);
// or matching it took too long (kPatternTooSlow, below).
inline constexpr double kPatternSyntax = 0.0;
inline constexpr double kPatternLookaround = 1.0;
inline constexpr double kPatternBackReference = 2.0;
inline constexpr double kPatternTooLarge = 3.0;
// bad_pattern's value when matching the pattern against the import's event
// names took more than limits::kMaxPatternWork steps (limit), index kWholeField.
inline constexpr double kPatternTooSlow = 4.0;

struct Error {
  ErrorCode code;
  Field field;
  std::int64_t index = kWholeField;  // 0-based item, or kWholeField
  double value = 0.0;                // the offending value (finite; 0 if none)
  std::string token;                 // parser errors: the offending text
  // The bound the value broke (too_many, too_large, too_small, out_of_range,
  // too_many_cells, too_long), or the expected count (wrong_length); 0 when
  // the code needs none. Front ends word it, so no message retypes a limit.
  double limit = 0.0;
  // What would fit, for memory_short, no_feasible_split and device_too_small
  // of an estimate (field memory, values in bytes), each found by planning
  // again: the largest catalog quantization of the same catalog model that
  // fits the same devices ("" when none does), and the device of which one
  // more at the end of the chain makes the plan fit (kWholeField when none).
  std::string fits_quant = {};
  std::int64_t fits_with_device = kWholeField;
  // A matrix's cell (service_matrix, link_matrix): index is its row (the
  // micro-batch) and column its 0-based column (the stage, or the link);
  // kWholeField for a whole row or the whole matrix. A samples file's cell
  // (service_samples) likewise: index its data row, column its stage; a row
  // of the wrong length has its row as index and no column. A stage's
  // samples given as a list (the modules) have no column: index is the stage.
  std::int64_t column = kWholeField;
  // A trace file's value as typed, where token holds the file's label: the
  // JSON text of a wrong_type's value ("NaN" with its quotes, [1], null), cut
  // to limits::kMaxQuoteBytes. A GGUF file's block_count out of range (token:
  // its key): the whole number as stored, exactly. "" elsewhere.
  std::string typed = {};
};

// Whether an error carries fits_quant and fits_with_device: a memory error of an estimate.
inline bool has_memory_advice(const Error& e) {
  return e.field == Field::memory && (e.code == ErrorCode::memory_short || e.code == ErrorCode::no_feasible_split ||
                                      e.code == ErrorCode::device_too_small);
}

// Whether an error carries column: it is about a matrix (a row, a cell or the whole).
inline bool has_column(const Error& e) {
  return e.field == Field::service_matrix || e.field == Field::link_matrix ||
         (e.field == Field::service_samples && e.column != kWholeField);
}

std::string_view error_code_name(ErrorCode code);
std::string_view field_name(Field field);

// The plain-value fields of an error, in output order (its English sentence
// is added by the text library; see heteropipe/text/error_text.hpp).
template <class Visitor>
void visit_error_fields(const Error& e, Visitor&& visit) {
  visit("code", error_code_name(e.code));
  visit("field", field_name(e.field));
  visit("index", e.index);
  visit("value", e.value);
  visit("limit", e.limit);
  visit("token", std::string_view(e.token));
  if (has_column(e)) visit("column", e.column);
  if (!e.typed.empty()) visit("typed", std::string_view(e.typed));
  if (has_memory_advice(e)) {
    visit("fits_quant", std::string_view(e.fits_quant));
    visit("fits_with_device", e.fits_with_device);
  }
}

// A value or the one error that prevented it.
template <class T>
class Result {
 public:
  // Implicit by design, and by reference: C++17 moves a returned local only
  // into a constructor taking T&&, so a by-value one would copy whole arrays.
  Result(const T& value) : state_(value) {}              // NOLINT(google-explicit-constructor)
  Result(T&& value) : state_(std::move(value)) {}        // NOLINT(google-explicit-constructor)
  Result(Error error) : state_(std::move(error)) {}      // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

}  // namespace heteropipe
