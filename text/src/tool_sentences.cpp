#include "heteropipe/text/tool_sentences.hpp"

#include <limits>
#include <type_traits>

#include "heteropipe/limits.hpp"
#include "heteropipe/plan/catalog.hpp"
#include "heteropipe/plan/estimate.hpp"
#include "heteropipe/plan/gguf.hpp"
#include "heteropipe/plan/input.hpp"
#include "heteropipe/sim/input.hpp"
#include "heteropipe/text/numbers.hpp"
#include "heteropipe/text/trace_text.hpp"
#include "gguf_text.hpp"
#include "sentence_parts.hpp"

namespace heteropipe::text::detail {
namespace {

// The names a field accepts, from the core's own list.
std::string choices(Field field) {
  std::string list;
  auto add = [&list](std::string_view name) { list += (list.empty() ? "" : ", ") + std::string(name); };
  if (field == Field::order) {
    for (DeviceOrder o : {DeviceOrder::given, DeviceOrder::search}) add(device_order_name(o));
  } else if (field == Field::phase) {
    for (Phase p : {Phase::decode, Phase::prefill}) add(phase_name(p));
  } else if (field == Field::device_class) {
    for (DeviceClass c : kDeviceClasses) add(device_class_name(c));
  } else if (field == Field::link_mode) {
    for (sim::LinkMode m : {sim::LinkMode::async, sim::LinkMode::blocking, sim::LinkMode::serial}) {
      add(sim::link_mode_name(m));
    }
  } else if (field == Field::service || field == Field::link_service) {
    for (std::string_view name : {"deterministic", "exponential", "lognormal:cv=X", "gamma:cv=X", "uniform:spread=X"}) {
      add(name);
    }
  } else {
    for (Objective o : {Objective::async, Objective::blocking, Objective::throughput}) add(objective_name(o));
  }
  return list;
}

// What would fit, for a memory error of an estimate (heteropipe/error.hpp).
std::string memory_advice(const Error& e) {
  const std::string device = e.fits_with_device == kWholeField ? std::string()
                                                              : "one more device like device " +
                                                                    std::to_string(e.fits_with_device + 1) +
                                                                    " at the end of the chain";
  if (!e.fits_quant.empty() && !device.empty()) {
    return "; quantization " + quoted(e.fits_quant) + " would fit, and so would " + device;
  }
  if (!e.fits_quant.empty()) return "; quantization " + quoted(e.fits_quant) + " would fit";
  if (!device.empty()) return "; " + device + " would fit";
  return "; neither a smaller catalog quantization nor one more device would fit";
}

std::optional<std::string> wrong_length(const Error& e) {
  const std::string count = grouped(e.limit);
  switch (e.field) {
    case Field::layer_times: return "needs L = " + count + " layer times, one per layer" + got(e);
    case Field::links: return "needs S-1 = " + count + " links, one between each two neighbouring devices" + got(e);
    case Field::cut_bytes: return "needs L-1 = " + count + " values, one per cut between two layers" + got(e);
    case Field::layer_bytes:
    case Field::active_layer_bytes:
    case Field::active_layer_params:
      return "needs layers = " + count + " values, one per layer" + got(e);
    case Field::sliding_layers:
    case Field::attention_layers:
    case Field::kv_layers:
    case Field::recurrent_layers: return "needs layers = " + count + " values, one per layer, or none" + got(e);
    case Field::buffers: return "needs S-1 = " + count + " values, one per link, or one for all" + got(e);
    case Field::service: return "needs S = " + count + " distributions, one per stage, or one for all" + got(e);
    case Field::link_service:
      return "needs S-1 = " + count + " distributions, one per link, or one for all" + got(e);
    case Field::service_matrix:
      if (e.index != kWholeField) return "needs S = " + count + " values, one per stage" + got(e);
      return "needs M x S = " + count + " values" + got(e);
    case Field::link_matrix:
      if (e.index != kWholeField) return "needs S-1 = " + count + " values, one per link" + got(e);
      return "needs M x (S-1) = " + count + " values" + got(e);
    case Field::service_samples:
      if (e.index != kWholeField) return "needs S = " + count + " values, one column per stage" + got(e);
      return "needs S = " + count + " stages of samples" + got(e);
    case Field::clock_offsets: return "needs S = " + count + " offsets, one per stage, or none" + got(e);
    case Field::service_probabilities:
      return "needs one probability per quantile, as many as each stage has (" + count + ")" + got(e);
    default: return std::nullopt;
  }
}

// A model's whole-number facts other than layers, read as counts from 0
// (plan/read_json.cpp): ModelInfo's whole-number members, as its visitor
// names them, so that a count added there is worded here too.
bool is_model_count(Field field) {
  if (field == Field::layers) return false;
  bool count = false;
  visit_fields(ModelInfo{}, [&](std::string_view name, const auto& value) {
    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::int64_t>) {
      count = count || name == field_name(field);
    }
  });
  return count;
}

std::optional<std::string> range_of(const Error& e) {
  const Field field = e.field;
  // The simulator's ranges start at 0 (seed, a CV, a spread) or 1 (reps);
  // the bound broken is the limit.
  if (field == Field::service || field == Field::link_service || field == Field::seed) {
    return bound(0) + " and " + bound(field == Field::seed ? limits::kMaxBatches : e.limit);
  }
  if (field == Field::reps) return bound(1) + " and " + bound(limits::kMaxReps);
  if (field == Field::service_probabilities) return bound(0) + " and " + bound(1);
  if (field == Field::tokens) return bound(1) + " and " + bound(limits::kMaxEstimateTokens);
  if (field == Field::context) return bound(0) + " and " + bound(limits::kMaxEstimateContext);
  if (field == Field::layers) return bound(1) + " and " + bound(static_cast<double>(limits::kMaxPlanLayers));
  // A profiler step and a model's other counts may be 0 (ProfilerStep#0, no experts, no sliding
  // window): "expert_count: must be between 1 and 2^53 (got -1)" named a bound 0 passes.
  if (field == Field::profiler_step) return bound(0) + " and " + bound(limits::kMaxBatches);
  if (is_model_count(field)) return bound(0) + " and " + bound(limits::kMaxModelCount);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> tool_sentence(const Error& e) {
  if (is_trace_file_error(e)) return describe_trace_error(e);
  if (e.code == ErrorCode::empty && e.field == Field::trace && e.index == kWholeField) {
    // A directory given as a trace input (no_trace_files), named by its token.
    return quoted(e.token) + ": the directory holds no trace file (a name ending in .json or .json.gz whose JSON is "
                             "a list of events or an object with traceEvents)";
  }
  if (auto sentence = describe_gguf_error(e)) return sentence;
  if (e.field == Field::profiler_step && e.code == ErrorCode::unknown_id) {
    const std::string step = "ProfilerStep#" + shortest(e.value);
    if (e.index == kWholeField) return "profiler_step: the files hold no profiler steps, so no " + step;
    return "profiler_step: file " + std::to_string(e.index + 1) + " holds no " + step +
           " (the files' last step is ProfilerStep#" + shortest(e.limit) + ")";
  }
  if (e.code == ErrorCode::unknown_key && e.value == 1) {
    // The field is the key meant, not where the typo is: say where by position alone.
    const std::string where = e.index == kWholeField ? "input" : std::string(position_noun(e.field)) + " " +
                                                                     std::to_string(e.index + 1);
    return where + ": unknown key '" + quoted(e.token) + "' (did you mean " + std::string(field_name(e.field)) + "?)";
  }
  return std::nullopt;
}

// A llama-bench record's avg_ts: its field is calibration (avg_ts is a device's key).
std::optional<std::string> record_avg_ts(const Error& e) {
  if (e.field != Field::calibration || e.index == kWholeField) return std::nullopt;
  switch (e.code) {
    case ErrorCode::missing_field: return std::string("avg_ts is missing");
    case ErrorCode::wrong_type:
      if (e.value != 1) return std::nullopt;  // the record itself
      return std::string("avg_ts ") + kWrongType + " (got " + quoted(e.token) + ")";
    case ErrorCode::not_finite: return std::string("avg_ts ") + kNotFinite + got(e);
    case ErrorCode::negative: return std::string("avg_ts ") + kNegative + got(e);
    case ErrorCode::not_positive: return "avg_ts must be > 0" + got(e);
    case ErrorCode::too_large: return std::string("avg_ts ") + kAtMost + bound(e.limit) + got(e);
    case ErrorCode::too_small:
      return "avg_ts must be at least " + bound(e.limit) + ", or the layer times of the device it calibrates add up past " +
             bound(limits::kMaxValue) + got(e);
    default: return std::nullopt;
  }
}

std::optional<std::string> tool_what(const Error& e) {
  if (auto sentence = record_avg_ts(e)) return sentence;
  switch (e.code) {
    case ErrorCode::ambiguous_device:
      return "'" + quoted(e.token) + "' names devices " + grouped(e.value + 1) + " and " + grouped(e.limit + 1) +
             ", which differ; add \"device\": a catalog id or a device's name";
    case ErrorCode::too_small:
      // A device so slow, as given, that its layer times add up past the limit.
      if (e.field == Field::avg_ts || e.field == Field::memory_bandwidth || e.field == Field::fp16_flops) {
        return "must be at least " + bound(e.limit) + ", or the device's layer times add up past " +
               bound(limits::kMaxValue) + got(e);
      }
      // A device's measured layer time below the least stage time.
      if (e.field == Field::layer_time) return "must be at least " + bound(e.limit) + got(e);
      if (e.field != Field::layer_times) return std::nullopt;
      return "some layer must take at least " + bound(e.limit) + " even on its fastest device" + got(e);
    case ErrorCode::wrong_length:
      return wrong_length(e);
    case ErrorCode::not_a_number:
      // The number of lognormal:cv=X, gamma:cv=X or uniform:spread=X.
      if (e.field != Field::service && e.field != Field::link_service) return std::nullopt;
      // A lone token (gamma:x, or x typed in a CV box) is simply no number; several
      // (1:cv=2, 1 2) are more than the one number the form takes.
      if (e.token.find_first_of(":=,; \t") == std::string::npos) return "'" + quoted(e.token) + "' " + kNotANumber;
      return "the value after cv= or spread= must be one number (got '" + quoted(e.token) + "')";
    case ErrorCode::empty:
      // lognormal:cv= (or uniform:spread=) with no number after it; the token is the text typed.
      if ((e.field != Field::service && e.field != Field::link_service) || e.token.empty()) return std::nullopt;
      return std::string("the value after ") + (e.token.find("spread=") != std::string::npos ? "spread=" : "cv=") +
             " is missing (got '" + quoted(e.token) + "')";
    case ErrorCode::out_of_range:
      if (e.field == Field::sliding_layers) return "must be 0 (attends to every position) or 1 (slides)" + got(e);
      if (e.field == Field::attention_layers) return "must be 0 (does not attend) or 1 (attends)" + got(e);
      if (e.field == Field::kv_layers) return "must be 0 (keeps no KV cache) or 1 (keeps one)" + got(e);
      if (e.field == Field::recurrent_layers) return "must be 0 (holds no recurrent state) or 1 (holds one)" + got(e);
      if (auto range = range_of(e)) return "must be between " + *range + got(e);
      return std::nullopt;
    case ErrorCode::not_positive:
      // The token names the fact whose bytes no layer would hold.
      if (e.field != Field::attention_layers && e.field != Field::kv_layers && e.field != Field::recurrent_layers) {
        return std::nullopt;
      }
      return "needs a 1 on at least one layer that runs, as " + quoted(e.token) + " is above 0";
    case ErrorCode::wrong_type:
      if (e.field != Field::trace) return std::nullopt;
      return "cannot mix " + e.token;
    case ErrorCode::unknown_name:
      if (e.field == Field::stat) return "must be one of min, p50, mean (got '" + quoted(e.token) + "')";
      if (e.field == Field::unit) return "must be one of s, ms, us (got '" + quoted(e.token) + "')";
      return "must be one of " + choices(e.field) + " (got '" + quoted(e.token) + "')";
    case ErrorCode::missing_field:
      // A trace's names the event's field; the planner's input names its key.
      if (!is_trace_file_error(Error{e.code, e.field, 0, 0.0, {}})) return std::string("is missing");
      return describe_trace_error(e);
    case ErrorCode::unknown_key:
      return "unknown key '" + quoted(e.token) + "'";
    case ErrorCode::duplicate_key:  // a JSON input's (a GGUF file's are described with its byte)
      return "key '" + quoted(e.token) + "'" + kGivenTwice;
    case ErrorCode::above_fact:
      // The token names the other fact, so the value is quoted from itself.
      return "must be at most " + quoted(e.token) + " = " + shortest(e.limit) + " (got " + shortest(e.value) + ")";
    case ErrorCode::not_a_divisor:
      return "must divide " + quoted(e.token) + " = " + shortest(e.limit) + " (got " + shortest(e.value) + ")";
    case ErrorCode::conflicting_keys:
      return "cannot be given with '" + quoted(e.token) + "' (" +
             (e.field == Field::quant ? std::string("its tensors give each one's type")
                                      : std::string("give one of model and gguf")) + ")";
    case ErrorCode::wrong_form:
      return "is a key of the explicit form, and an input with a model is the estimate form";
    case ErrorCode::unmatched_begin:
    case ErrorCode::unmatched_end:
    case ErrorCode::bad_gzip:
    case ErrorCode::duplicate_rank:
    case ErrorCode::end_before_start:
      return describe_trace_error(e);
    case ErrorCode::bad_pattern: {
      const std::string pattern = "'" + quoted(e.token) + "'";
      if (e.value == kPatternLookaround) return pattern + " has a lookahead or lookbehind, which patterns do not support";
      if (e.value == kPatternBackReference) return pattern + " has a back-reference, which patterns do not support";
      if (e.value == kPatternTooLarge) {
        return pattern + " needs more than " + grouped(e.limit) + " states (each counted repeat copies what it repeats)";
      }
      if (e.value == kPatternTooSlow) {
        return pattern + " took more than " + grouped(e.limit) + " steps to match the trace's event names (anchor it "
               "with ^ or begin it with fixed letters)";
      }
      return pattern + " is not a valid pattern";
    }
    case ErrorCode::not_a_permutation:
      return "must list ranks that ran kernels, none twice (rank " +
             (e.token.empty() ? shortest(e.value) : quoted(e.token)) + " is wrong)";
    case ErrorCode::sum_too_large:
      return "the layer times add up to " + shortest(e.value) + ", over the limit of " + bound(e.limit);
    case ErrorCode::delay_too_large:
      if (e.value >= std::numeric_limits<double>::max()) {
        return "carrying the largest cut takes longer than any number a double holds (its latency plus the largest "
               "cut over its bandwidth overflows), over the limit of " + bound(e.limit);
      }
      return "carrying the largest cut takes " + shown(e) + ", over the limit of " + bound(e.limit);
    case ErrorCode::fewer_layers_than_devices:
      return grouped(e.value) + (e.value == 1 ? " layer" : " layers") + " cannot give each of the " + grouped(e.limit) +
             " devices a layer; allow idle devices or use fewer devices";
    case ErrorCode::device_too_small:
      if (has_memory_advice(e)) {
        return "holds " + gibibytes(e.value) + ", less than the smallest layer needs (" + gibibytes(e.limit) + ")" +
               memory_advice(e);
      }
      return "holds " + shortest(e.value) + ", less than the smallest layer needs (" + shortest(e.limit) + ")";
    case ErrorCode::memory_short:
      if (has_memory_advice(e)) {
        return gibibytes(e.value) + " of memory is missing: the layers need " + gibibytes(e.limit) +
               " and the devices hold " + gibibytes(e.limit - e.value) + memory_advice(e);
      }
      return "the devices together hold " + shortest(e.value) + " less than the layers need (" +
             shortest(e.limit) + " in all)";
    case ErrorCode::no_feasible_split:
      return "no split of the layers into contiguous stages fits every device's memory" +
             (has_memory_advice(e) ? memory_advice(e) : std::string());
    case ErrorCode::too_many_to_order:
      return "trying every device order allows at most " + grouped(e.limit) + " devices (got " + grouped(e.value) + ")";
    case ErrorCode::not_json:
      if (e.field == Field::trace) return describe_trace_error(e);
      return "not valid JSON (reading stopped at byte " + grouped(e.value) + ")";
    case ErrorCode::unknown_id:
      return "'" + quoted(e.token) + "' is not in the catalog";
    case ErrorCode::overlapping_groups:
      return "link " + shortest(e.value) + " is already in a shared group";
    case ErrorCode::no_such_link:
      if (e.limit < 1) return "names link " + shortest(e.value) + ", but a pipeline of one stage has no links";
      return "names link " + shortest(e.value) + ", but the links are 0 to " + shortest(e.limit - 1) +
             " (S-1 = " + grouped(e.limit) + ")";
    case ErrorCode::not_ascending:
      if (e.field == Field::service_probabilities) {
        return "probabilities must increase (got " + shortest(e.value) + " after one as large or larger)";
      }
      return "quantiles must not decrease (got " + shortest(e.value) + " after a larger one)";
    case ErrorCode::too_many_sim_cells:
      return "M x S x reps = " + grouped(e.value) + " cells is over the limit of " + grouped(e.limit);
    case ErrorCode::too_much_sim_work:
      return "with random times, M x S x reps cells plus " + shortest(limits::kSimDrawSteps) +
             " steps a draw and " + shortest(limits::kSimStreamSteps) + " a stream of each replication = " +
             grouped(e.value) + " steps is over the limit of " + grouped(e.limit);
    case ErrorCode::buffer_history_too_large:
      return "S x (buffer + 1) = " + grouped(e.value) + " release times to keep is over the limit of " +
             grouped(e.limit) + " (use a smaller buffer, or inf)";
    case ErrorCode::too_many_transfers:
      return "with shared links, M x (S-1) = " + grouped(e.value) + " transfers that may wait at once is over the limit of " +
             grouped(e.limit);
    case ErrorCode::order_search_too_large:
      return "trying every distinct device order takes " + grouped(e.value) +
             " steps (orders x devices x layers), over the limit of " + grouped(e.limit);
    default:
      return std::nullopt;
  }
}

}  // namespace heteropipe::text::detail
