#include "heteropipe/text/error_text.hpp"

#include "heteropipe/limits.hpp"
#include "heteropipe/plan/catalog.hpp"
#include "heteropipe/plan/estimate.hpp"
#include "heteropipe/plan/input.hpp"
#include "heteropipe/sim/input.hpp"
#include "heteropipe/text/numbers.hpp"
#include "heteropipe/text/trace_text.hpp"

namespace heteropipe::text {
namespace {

bool is_scalar(Field field) {
  switch (field) {
    case Field::tau:
    case Field::d:
    case Field::devices:
    case Field::layer_times:
    case Field::layer_memory:
    case Field::links:
    case Field::cut_bytes:
    case Field::shared:
    case Field::buffers:
    case Field::service:
    case Field::link_service:
    case Field::service_matrix:
    case Field::service_samples:
      return false;
    default:
      return true;
  }
}

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
      return "layer";
    case Field::links:
    case Field::latency:
    case Field::bandwidth:
    case Field::buffers:
    case Field::link_service:
      return "link";
    case Field::service:
    case Field::service_samples:
      return "stage";
    case Field::shared:
      return "group";
    case Field::service_matrix:
      return "row";
    case Field::cut_bytes:
      return "cut";
    default:
      return "item";
  }
}

// The names a field accepts, from the core's own list.
std::string choices(Field field) {
  std::string list;
  auto add = [&list](std::string_view name) { list += (list.empty() ? "" : ", ") + std::string(name); };
  if (field == Field::order) {
    for (DeviceOrder o : {DeviceOrder::given, DeviceOrder::search}) add(device_order_name(o));
  } else if (field == Field::phase) {
    for (Phase p : {Phase::decode, Phase::prefill}) add(phase_name(p));
  } else if (field == Field::device_class) {
    for (DeviceClass c : {DeviceClass::nvidia_gddr, DeviceClass::nvidia_hbm, DeviceClass::apple}) {
      add(device_class_name(c));
    }
  } else if (field == Field::link_mode) {
    for (sim::LinkMode m : {sim::LinkMode::delay, sim::LinkMode::block, sim::LinkMode::serial}) {
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

// The offending text as typed when the parser kept it, else the value.
std::string shown(const Error& e) { return e.token.empty() ? shortest(e.value) : quoted(e.token); }

std::string got(const Error& e) { return " (got " + shown(e) + ")"; }

std::string wrong_length(const Error& e) {
  const std::string count = grouped(e.limit);
  switch (e.field) {
    case Field::layer_times: return "needs L = " + count + " layer times, one per layer" + got(e);
    case Field::links: return "needs S-1 = " + count + " links, one between each two neighbouring devices" + got(e);
    case Field::cut_bytes: return "needs L-1 = " + count + " values, one per cut between two layers" + got(e);
    case Field::buffers: return "needs S-1 = " + count + " values, one per link, or one for all" + got(e);
    case Field::service: return "needs S = " + count + " distributions, one per stage, or one for all" + got(e);
    case Field::link_service:
      return "needs S-1 = " + count + " distributions, one per link, or one for all" + got(e);
    case Field::service_matrix:
      if (e.index != kWholeField) return "needs S = " + count + " values, one per stage" + got(e);
      return "needs M x S = " + count + " values, M rows of S" + got(e);
    case Field::service_samples:
      if (e.index != kWholeField) return "needs S = " + count + " values, one column per stage" + got(e);
      return "needs S = " + count + " stages of samples" + got(e);
    default: return "needs S-1 = " + count + " link latencies, one per link, or none" + got(e);
  }
}

std::string range_of(const Error& e) {
  const Field field = e.field;
  // The simulator's ranges start at 0 (seed, a CV, a spread) or 1 (reps);
  // the bound broken is the limit.
  if (field == Field::service || field == Field::link_service || field == Field::seed) {
    return bound(0) + " and " + bound(field == Field::seed ? limits::kMaxBatches : e.limit);
  }
  if (field == Field::reps) return bound(1) + " and " + bound(limits::kMaxReps);
  if (field == Field::rho) return bound(limits::kMinRho) + " and " + bound(limits::kMaxRho);
  if (field == Field::points) return bound(limits::kMinCurvePoints) + " and " + bound(limits::kMaxCurvePoints);
  if (field == Field::tokens) return bound(1) + " and " + bound(limits::kMaxEstimateTokens);
  if (field == Field::context) return bound(0) + " and " + bound(limits::kMaxEstimateContext);
  return bound(limits::kMinBatches) + " and " + bound(limits::kMaxBatches);
}

std::string what(const Error& e) {
  switch (e.code) {
    case ErrorCode::empty:
      return is_scalar(e.field) ? "is empty" : "needs at least one value";
    case ErrorCode::too_many:
      return "at most " + bound(e.limit) + " values";
    case ErrorCode::not_finite:
      return "must be a finite number" + got(e);
    case ErrorCode::negative:
      return "must be >= 0" + got(e);
    case ErrorCode::all_zero:
      return "at least one stage time must be > 0";
    case ErrorCode::too_small:
      if (e.field == Field::layer_times) {
        return "some layer must take at least " + bound(e.limit) + " even on its fastest device" + got(e);
      }
      return "the largest stage time must be at least " + bound(e.limit) + got(e);
    case ErrorCode::too_large:
      return "must be at most " + bound(e.limit) + got(e);
    case ErrorCode::wrong_length:
      return wrong_length(e);
    case ErrorCode::not_integer:
      return "must be a whole number" + got(e);
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
      return "'" + quoted(e.token) + "' is not a number";
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
    case ErrorCode::unknown_name:
      if (e.field == Field::stat) return "must be one of min, p50, mean (got '" + quoted(e.token) + "')";
      if (e.field == Field::unit) return "must be one of s, ms, us (got '" + quoted(e.token) + "')";
      return "must be one of " + choices(e.field) + " (got '" + quoted(e.token) + "')";
    case ErrorCode::missing_field:
    case ErrorCode::unmatched_begin:
    case ErrorCode::unmatched_end:
    case ErrorCode::bad_gzip:
    case ErrorCode::duplicate_rank:
    case ErrorCode::end_before_start:
      return describe_trace_error(e);
    case ErrorCode::bad_pattern:
      return "'" + quoted(e.token) + "' is not a valid regular expression";
    case ErrorCode::not_a_permutation:
      return "must list each rank that ran kernels exactly once (rank " + shortest(e.value) + " is wrong)";
    case ErrorCode::wrong_type:
      if (e.field == Field::trace) return "cannot mix " + e.token;
      return "has the wrong type of value (got " + quoted(e.token) + ")";
    case ErrorCode::sum_too_large:
      return "the layer times add up to " + shortest(e.value) + ", over the limit of " + bound(e.limit);
    case ErrorCode::delay_too_large:
      return "carrying the largest cut takes " + shown(e) + ", over the limit of " + bound(e.limit);
    case ErrorCode::fewer_layers_than_devices:
      return grouped(e.value) + " layers cannot give each of the " + grouped(e.limit) +
             " devices a layer; allow idle devices or use fewer devices";
    case ErrorCode::device_too_small:
      return "holds " + shortest(e.value) + ", less than the smallest layer needs (" + shortest(e.limit) + ")";
    case ErrorCode::memory_short:
      return "the devices together hold " + shortest(e.value) + " less than the layers need (" +
             shortest(e.limit) + " in all)";
    case ErrorCode::no_feasible_split:
      return "no split of the layers into contiguous stages fits every device's memory";
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
      return "quantiles must not decrease (got " + shortest(e.value) + " after a larger one)";
    case ErrorCode::too_many_sim_cells:
      return "M x S x reps = " + grouped(e.value) + " cells is over the limit of " + grouped(e.limit);
    case ErrorCode::order_search_too_large:
      return "trying every distinct device order takes " + grouped(e.value) +
             " steps (orders x devices x layers), over the limit of " + grouped(e.limit);
  }
  return std::string(error_code_name(e.code));
}

}  // namespace

std::string describe(const Error& error) {
  if (is_trace_file_error(error)) return describe_trace_error(error);
  std::string where(field_name(error.field));
  if (error.index != kWholeField) {
    where += ", " + std::string(position_noun(error.field)) + " " + std::to_string(error.index + 1);
  }
  return where + ": " + what(error);
}

}  // namespace heteropipe::text
