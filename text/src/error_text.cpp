#include "heteropipe/text/error_text.hpp"

#include "heteropipe/limits.hpp"
#include "heteropipe/plan/read_json.hpp"
#include "heteropipe/text/numbers.hpp"
#include "sentence_parts.hpp"
#include "heteropipe/text/tool_sentences.hpp"

namespace heteropipe::text {
namespace detail {

// What an index counts in each of the planner's lists ("item" elsewhere).
std::string_view position_noun(Field field) {
  switch (field) {
    case Field::layer_times:
    case Field::memory_capacity:
    case Field::devices:
    case Field::memory:
    case Field::memory_bandwidth:
    case Field::fp16_flops:
    case Field::device_class:
    case Field::layer_time:
    case Field::avg_ts:
      return "device";
    case Field::layer_memory:
    case Field::layer_bytes:
    case Field::active_layer_bytes:
    case Field::active_layer_params:
    case Field::sliding_layers:
    case Field::attention_layers:
    case Field::kv_layers:
    case Field::recurrent_layers:
      return "layer";
    case Field::links:
    case Field::latency:
    case Field::bandwidth:
    case Field::buffers:
    case Field::link_service:
      return "link";
    case Field::service:
    case Field::service_samples:
    case Field::clock_offsets:
      return "stage";
    case Field::compute_regex:
    case Field::transfer_regex:
    case Field::microbatch_regex:
      return "character";
    case Field::shared:
      return "group";
    case Field::service_matrix:
    case Field::link_matrix:
      return "row";
    case Field::cut_bytes:
      return "cut";
    case Field::calibration:
    case Field::gpu_info:
    case Field::model_size:
    case Field::model_n_params:
    case Field::n_prompt:
    case Field::n_gen:
    case Field::device:
      return "record";
    default:
      return "item";
  }
}

}  // namespace detail

namespace {

using namespace detail;  // got, the shared phrases, position_noun, the tools' sentences

// The unit a field's bound is in, where the value may be typed in another ("24 GiB"): a bound of
// 1e15 beside "got 1e20 GiB" read as GiB.
std::string_view bound_unit(Field field) {
  switch (field) {
    case Field::memory: case Field::memory_capacity: return " bytes";
    case Field::memory_bandwidth: case Field::bandwidth: return " bytes/s";
    case Field::fp16_flops: return " FLOP/s";
    default: return "";
  }
}

// A device fact's units, as the reader matches them.
std::string unit_names(Field field) {
  std::string list;
  for (const QuantityUnit& u : quantity_units(field)) list += (list.empty() ? "" : ", ") + std::string(u.name);
  return list;
}

bool is_scalar(Field field) {
  switch (field) {
    case Field::tau:
    case Field::d:
    case Field::devices:
    case Field::layer_times:
    case Field::layer_memory:
    case Field::links:
    case Field::cut_bytes:
    case Field::layer_bytes:
    case Field::active_layer_bytes:
    case Field::active_layer_params:
    case Field::sliding_layers:
    case Field::attention_layers:
    case Field::kv_layers:
    case Field::recurrent_layers:
    case Field::shared:
    case Field::buffers:
    case Field::service:
    case Field::link_service:
    case Field::service_matrix:
    case Field::link_matrix:
    case Field::service_samples:
    case Field::service_probabilities:
      return false;
    default:
      return true;
  }
}

std::string wrong_length(const Error& e) {
  return "needs S-1 = " + grouped(e.limit) + " link latencies, one per link, or none" + got(e);
}

std::string range_of(const Error& e) {
  const Field field = e.field;
  if (field == Field::rho) return bound(limits::kMinRho) + " and " + bound(limits::kMaxRho);
  if (field == Field::points) return bound(limits::kMinCurvePoints) + " and " + bound(limits::kMaxCurvePoints);
  if (field == Field::shared) return "0 and " + bound(e.limit);  // a link's number
  return bound(limits::kMinBatches) + " and " + bound(limits::kMaxBatches);
}

std::string what(const Error& e) {
  // A typed number other than 0 below the smallest normal double, in any field.
  if (e.code == ErrorCode::too_small && e.limit == limits::kMinNormalNumber) {
    const std::string sentence =
        "is too small to read" + got(e) + ": a number other than 0 must be at least " + bound(e.limit) + " in size";
    // A calibration record's error is its avg_ts's (tool_sentences' record_avg_ts).
    return e.field == Field::calibration && e.index != kWholeField ? "avg_ts " + sentence : sentence;
  }
  if (auto sentence = tool_what(e)) return *sentence;
  switch (e.code) {
    case ErrorCode::empty:
      return is_scalar(e.field) ? "is empty" : "needs at least one value";
    case ErrorCode::too_many:
      return "at most " + bound(e.limit) + " values";
    case ErrorCode::not_finite:
      return kNotFinite + got(e);
    case ErrorCode::negative:
      return kNegative + got(e);
    case ErrorCode::all_zero:
      return "at least one stage time must be > 0";
    case ErrorCode::utf16_text:
      return kUtf16Text;
    case ErrorCode::utf32_text:
      return kUtf32Text;
    case ErrorCode::too_small:
      // A measured sample is judged alone: any one may be drawn.
      if (e.field == Field::service_samples) return "must be at least " + bound(e.limit) + got(e);
      return "the largest stage time must be at least " + bound(e.limit) + got(e);
    case ErrorCode::too_large:
      return kAtMost + bound(e.limit) + std::string(bound_unit(e.field)) + got(e);
    case ErrorCode::wrong_length:
      return wrong_length(e);
    case ErrorCode::not_integer:
      return kNotInteger + got(e);
    case ErrorCode::out_of_range:
      return "must be between " + range_of(e) + got(e);
    case ErrorCode::not_positive:
      return "must be > 0" + got(e);
    case ErrorCode::empty_item:
      return "empty item between separators";
    case ErrorCode::not_a_number:
      if (e.index == kWholeField && !is_scalar(e.field)) {
        return "must be a list of numbers or a text list like '1, 2.5, 3' (got " + quoted(e.token) + ")";
      }
      return "'" + quoted(e.token) + "' " + kNotANumber;
    case ErrorCode::ambiguous_comma:
      return "'" + quoted(e.token) + "' is ambiguous: a comma between digits may be a decimal or thousands mark, "
             "not a separator; write numbers with a decimal point and no grouping (0.5, 1000), and separate items "
             "with a comma and a blank";
    case ErrorCode::has_unit:
      return "'" + quoted(e.token) + "' has a unit: type plain numbers, every time in the same unit";
    case ErrorCode::unknown_unit:
      return "'" + quoted(e.token) + "' is in no unit heteropipe reads (" + unit_names(e.field) + ")";
    case ErrorCode::no_overlap_headroom:
      return "no overlap headroom: T_block equals T_async, so the overlap ratio is undefined";
    case ErrorCode::too_many_cells:
      return "M x S = " + grouped(e.value) + " cells is over the limit of " + grouped(e.limit);
    case ErrorCode::too_much_work:
      return "M x S + " + bound(limits::kStreamDiagonalCost) + " (M + S - 1) = " + grouped(e.value) +
             " recurrence steps is over the limit of " + grouped(e.limit);
    case ErrorCode::too_long:
      return "at most " + grouped(e.limit) + " bytes of text (got " + grouped(e.value) + ")";
    case ErrorCode::out_of_memory:
      return "not enough memory for this request";
    case ErrorCode::wrong_type:
      return std::string(kWrongType) + " (got " + quoted(e.token) + ")";
    default:
      break;
  }
  return std::string(error_code_name(e.code));
}

}  // namespace

std::string describe(const Error& error) {
  if (auto sentence = tool_sentence(error)) return *sentence;
  return std::string(field_name(error.field)) + (error.index == kWholeField ? ": " : ", ") + describe_detail(error);
}

std::string describe_detail(const Error& error) {
  if (auto sentence = tool_sentence(error)) return *sentence;
  if (error.index == kWholeField) return what(error);
  // A matrix's cell: its row, then its column ("row 2, column 3").
  // A samples file's cell: its row, then its stage ("row 3, stage 2").
  const bool cell = has_column(error) && error.column != kWholeField;
  const bool samples = error.field == Field::service_samples;
  const std::string column = cell ? (samples ? ", stage " : ", column ") + std::to_string(error.column + 1) : "";
  // A samples list's index is its stage, but a file's row of the wrong length, or its cell, is its row.
  const bool samples_row = samples && (error.code == ErrorCode::wrong_length || cell);
  const std::string_view noun = samples_row ? position_noun(Field::service_matrix) : position_noun(error.field);
  return std::string(noun) + " " + std::to_string(error.index + 1) + column + ": " + what(error);
}

}  // namespace heteropipe::text
