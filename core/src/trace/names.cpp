#include <algorithm>
#include <cmath>
#include <string>

#include "heteropipe/trace/model.hpp"

#include "classify.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "measured.hpp"

namespace heteropipe {

std::string_view trace_stat_name(TraceStat stat) {
  switch (stat) {
    case TraceStat::min: return "min";
    case TraceStat::p50: return "p50";
    case TraceStat::mean: return "mean";
  }
  return "min";
}

std::string_view time_unit_name(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::s: return "s";
    case TimeUnit::ms: return "ms";
    case TimeUnit::us: return "us";
  }
  return "ms";
}

Result<TraceStat> trace_stat_from_name(std::string_view typed) {
  const std::string_view name = typed_value(typed);
  for (TraceStat s : {TraceStat::min, TraceStat::p50, TraceStat::mean}) {
    if (trace_stat_name(s) == name) return s;
  }
  return Error{ErrorCode::unknown_name, Field::stat, kWholeField, 0, std::string(name)};
}

Result<TimeUnit> time_unit_from_name(std::string_view typed) {
  const std::string_view name = typed_value(typed);
  for (TimeUnit u : {TimeUnit::s, TimeUnit::ms, TimeUnit::us}) {
    if (time_unit_name(u) == name) return u;
  }
  return Error{ErrorCode::unknown_name, Field::unit, kWholeField, 0, std::string(name)};
}

Result<std::vector<std::int64_t>> stage_order_of(const std::vector<double>& ranks) {
  std::vector<std::int64_t> order;
  for (double rank : ranks) {
    // A subnormal (5e-324) is too_small at its item, as the same rank typed as text is.
    if (auto e = subnormal_error(rank, Field::stage_order, static_cast<std::int64_t>(order.size()), {})) return *e;
    if (!(rank == std::floor(rank) && rank >= 0 && rank <= limits::kMaxBatches)) {
      // A rank that is no finite number is named as the core spells it (front ends quote what was passed).
      const char* spelt = std::isfinite(rank) ? "" : std::isnan(rank) ? "nan" : rank > 0 ? "inf" : "-inf";
      return Error{ErrorCode::not_a_permutation, Field::stage_order, kWholeField, std::isfinite(rank) ? rank : 0.0,
                   spelt};
    }
    order.push_back(static_cast<std::int64_t>(rank));
  }
  return order;
}

Result<std::vector<std::int64_t>> stage_order_of_text(std::string_view text) {
  auto ranks = parse_number_list(text, Field::stage_order);
  if (!ranks) return ranks.error();
  std::vector<std::int64_t> order;
  for (std::size_t k = 0; k < ranks.value().size(); ++k) {
    const std::string_view typed = list_item(text, static_cast<std::int64_t>(k));
    const double rank = ranks.value()[k];
    if (!parse_count(typed, Field::stage_order, 0, limits::kMaxBatches)) {
      return Error{ErrorCode::not_a_permutation, Field::stage_order, kWholeField, std::isfinite(rank) ? rank : 0.0,
                   std::string(trim_blanks(typed))};
    }
    order.push_back(static_cast<std::int64_t>(rank));
  }
  return order;
}

Result<std::int64_t> profiler_step_of(double step) {
  if (!std::isfinite(step)) {
    return Error{ErrorCode::not_finite, Field::profiler_step, kWholeField, 0.0, std::isnan(step) ? "nan" : step > 0 ? "inf" : "-inf"};
  }
  if (step != std::floor(step)) return Error{ErrorCode::not_integer, Field::profiler_step, kWholeField, step, {}};
  if (step < 0 || step > limits::kMaxBatches) {
    return Error{ErrorCode::out_of_range, Field::profiler_step, kWholeField, step, {}, step < 0 ? 0.0 : limits::kMaxBatches};
  }
  return static_cast<std::int64_t>(step);
}

Result<std::int64_t> profiler_step_of_text(std::string_view text) {
  if (text.empty()) return Error{ErrorCode::empty, Field::profiler_step, kWholeField, 0.0, {}};
  auto step = parse_count(text, Field::profiler_step, 0, limits::kMaxBatches);
  if (!step) return step.error();
  return static_cast<std::int64_t>(step.value());
}

Result<std::vector<double>> clock_offsets_of_text(std::string_view text, TimeUnit unit) {
  auto offsets = parse_number_list(text, Field::clock_offsets);
  if (!offsets && offsets.error().code == ErrorCode::too_large) {
    Error e = offsets.error();
    e.limit = limits::kMaxTraceTime / microseconds_in(unit);
    return e;
  }
  return offsets;
}

double microseconds_in(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::s: return 1e6;
    case TimeUnit::ms: return 1e3;
    case TimeUnit::us: return 1;
  }
  return 1;
}

std::string_view not_pipeline_name(NotPipeline reason) {
  switch (reason) {
    case NotPipeline::one_rank: return "one_rank";
    case NotPipeline::collectives_only: return "collectives_only";
    case NotPipeline::no_transfers: return "no_transfers";
    case NotPipeline::unpaired_link: return "unpaired_link";
    case NotPipeline::no_microbatches: return "no_microbatches";
    case NotPipeline::model_rejected: return "model_rejected";
    case NotPipeline::stages_out_of_order: return "stages_out_of_order";
    case NotPipeline::two_way_traffic: return "two_way_traffic";
    case NotPipeline::no_microbatch_ranges: return "no_microbatch_ranges";
    case NotPipeline::stage_cut_short: return "stage_cut_short";
  }
  return "unknown";
}

std::string_view trace_warning_name(TraceWarningCode code) {
  switch (code) {
    case TraceWarningCode::rank_without_compute: return "rank_without_compute";
    case TraceWarningCode::unmatched_transfers: return "unmatched_transfers";
    case TraceWarningCode::microbatch_counts_differ: return "microbatch_counts_differ";
    case TraceWarningCode::short_run: return "short_run";
    case TraceWarningCode::missing_ranks: return "missing_ranks";
    case TraceWarningCode::clock_bounds_contradict: return "clock_bounds_contradict";
    case TraceWarningCode::link_time_zero: return "link_time_zero";
    case TraceWarningCode::pairing_ambiguous: return "pairing_ambiguous";
    case TraceWarningCode::returns_to_first_stage: return "returns_to_first_stage";
    case TraceWarningCode::profiler_steps: return "profiler_steps";
    case TraceWarningCode::repeated_microbatch_names: return "repeated_microbatch_names";
    case TraceWarningCode::other_pass_set_aside: return "other_pass_set_aside";
    case TraceWarningCode::stages_reversed: return "stages_reversed";
    case TraceWarningCode::stages_reordered: return "stages_reordered";
    case TraceWarningCode::rank_without_transfers: return "rank_without_transfers";
    case TraceWarningCode::messages_set_aside: return "messages_set_aside";
    case TraceWarningCode::profiler_windows: return "profiler_windows";
    case TraceWarningCode::nested_ranges: return "nested_ranges";
  }
  return "unknown";
}

std::string_view explain_cause_name(ExplainCause cause) {
  switch (cause) {
    case ExplainCause::model: return "model";
    case ExplainCause::variability: return "variability";
    case ExplainCause::blocking: return "blocking";
    case ExplainCause::other: return "other";
  }
  return "unknown";
}

Result<TraceResult> recover_model(const TraceEvents& events, const TraceOptions& options) {
  using namespace trace_detail;
  if (!events.events.empty() && !events.rows.empty()) {
    return Error{ErrorCode::wrong_type, Field::trace, kWholeField, 0, "trace JSON and schedule CSV together"};
  }
  // The patterns are checked whatever the input, so a typo never passes unseen.
  if (auto patterns = Classifier::create(options); !patterns) return patterns.error();
  auto classified = events.rows.empty() ? measure_events(events, options) : measure_rows(events, options);
  if (!classified) return classified.error();
  return summarize(std::move(classified).value(), events, options);
}

namespace trace_detail {

Result<std::vector<std::int64_t>> stage_ranks(std::vector<std::int64_t> ranks, const TraceOptions& options) {
  std::sort(ranks.begin(), ranks.end());
  if (options.stage_order.empty()) return ranks;
  auto refuse = [](double rank) {
    return Error{ErrorCode::not_a_permutation, Field::stage_order, kWholeField, rank, {}};
  };
  std::vector<std::int64_t> given = options.stage_order;
  std::sort(given.begin(), given.end());
  for (std::size_t i = 0; i < given.size(); ++i) {
    if (i > 0 && given[i] == given[i - 1]) return refuse(static_cast<double>(given[i]));
    if (!std::binary_search(ranks.begin(), ranks.end(), given[i])) return refuse(static_cast<double>(given[i]));
  }
  // A rank left out is no stage: a driver that only broadcasts the inputs or
  // gathers the results, or one that sits idle.
  return options.stage_order;
}

}  // namespace trace_detail
}  // namespace heteropipe
