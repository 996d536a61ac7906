#include "heteropipe/error.hpp"

namespace heteropipe {

std::string_view error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::empty: return "empty";
    case ErrorCode::too_many: return "too_many";
    case ErrorCode::not_finite: return "not_finite";
    case ErrorCode::negative: return "negative";
    case ErrorCode::all_zero: return "all_zero";
    case ErrorCode::too_small: return "too_small";
    case ErrorCode::too_large: return "too_large";
    case ErrorCode::wrong_length: return "wrong_length";
    case ErrorCode::not_integer: return "not_integer";
    case ErrorCode::out_of_range: return "out_of_range";
    case ErrorCode::not_positive: return "not_positive";
    case ErrorCode::empty_item: return "empty_item";
    case ErrorCode::not_a_number: return "not_a_number";
    case ErrorCode::no_overlap_headroom: return "no_overlap_headroom";
    case ErrorCode::too_many_cells: return "too_many_cells";
    case ErrorCode::too_long: return "too_long";
    case ErrorCode::too_much_work: return "too_much_work";
    case ErrorCode::out_of_memory: return "out_of_memory";
    case ErrorCode::unknown_name: return "unknown_name";
    case ErrorCode::sum_too_large: return "sum_too_large";
    case ErrorCode::delay_too_large: return "delay_too_large";
    case ErrorCode::fewer_layers_than_devices: return "fewer_layers_than_devices";
    case ErrorCode::device_too_small: return "device_too_small";
    case ErrorCode::memory_short: return "memory_short";
    case ErrorCode::no_feasible_split: return "no_feasible_split";
    case ErrorCode::too_many_to_order: return "too_many_to_order";
    case ErrorCode::order_search_too_large: return "order_search_too_large";
    case ErrorCode::wrong_type: return "wrong_type";
    case ErrorCode::not_json: return "not_json";
    case ErrorCode::unknown_key: return "unknown_key";
    case ErrorCode::wrong_form: return "wrong_form";
    case ErrorCode::unknown_id: return "unknown_id";
    case ErrorCode::overlapping_groups: return "overlapping_groups";
    case ErrorCode::no_such_link: return "no_such_link";
    case ErrorCode::not_ascending: return "not_ascending";
    case ErrorCode::too_many_sim_cells: return "too_many_sim_cells";
    case ErrorCode::buffer_history_too_large: return "buffer_history_too_large";
    case ErrorCode::too_many_transfers: return "too_many_transfers";
    case ErrorCode::missing_field: return "missing_field";
    case ErrorCode::unmatched_begin: return "unmatched_begin";
    case ErrorCode::unmatched_end: return "unmatched_end";
    case ErrorCode::bad_gzip: return "bad_gzip";
    case ErrorCode::bad_pattern: return "bad_pattern";
    case ErrorCode::duplicate_rank: return "duplicate_rank";
    case ErrorCode::end_before_start: return "end_before_start";
    case ErrorCode::not_a_permutation: return "not_a_permutation";
    case ErrorCode::not_a_trace: return "not_a_trace";
  }
  return "unknown";
}

std::string_view field_name(Field field) {
  switch (field) {
    case Field::tau: return "tau";
    case Field::d: return "d";
    case Field::M: return "M";
    case Field::rho: return "rho";
    case Field::T_real: return "T_real";
    case Field::points: return "points";
    case Field::devices: return "devices";
    case Field::layer_times: return "layer_times";
    case Field::memory_capacity: return "memory_capacity";
    case Field::layer_memory: return "layer_memory";
    case Field::links: return "links";
    case Field::latency: return "latency";
    case Field::bandwidth: return "bandwidth";
    case Field::cut_bytes: return "cut_bytes";
    case Field::objective: return "objective";
    case Field::order: return "order";
    case Field::allow_idle_devices: return "allow_idle_devices";
    case Field::id: return "id";
    case Field::input: return "input";
    case Field::model: return "model";
    case Field::quant: return "quant";
    case Field::phase: return "phase";
    case Field::tokens: return "tokens";
    case Field::context: return "context";
    case Field::memory: return "memory";
    case Field::memory_bandwidth: return "memory_bandwidth";
    case Field::fp16_flops: return "fp16_flops";
    case Field::device_class: return "device_class";
    case Field::layer_time: return "layer_time";
    case Field::avg_ts: return "avg_ts";
    case Field::link_mode: return "link_mode";
    case Field::shared: return "shared";
    case Field::buffers: return "buffers";
    case Field::service: return "service";
    case Field::link_service: return "link_service";
    case Field::service_matrix: return "service_matrix";
    case Field::service_samples: return "service_samples";
    case Field::service_probabilities: return "service_probabilities";
    case Field::reps: return "reps";
    case Field::seed: return "seed";
    case Field::trace: return "trace";
    case Field::ph: return "ph";
    case Field::ts: return "ts";
    case Field::dur: return "dur";
    case Field::name: return "name";
    case Field::cat: return "cat";
    case Field::pid: return "pid";
    case Field::tid: return "tid";
    case Field::traceEvents: return "traceEvents";
    case Field::rank: return "rank";
    case Field::stage: return "stage";
    case Field::microbatch: return "microbatch";
    case Field::kind: return "kind";
    case Field::start: return "start";
    case Field::end: return "end";
    case Field::stage_order: return "stage_order";
    case Field::compute_regex: return "compute_regex";
    case Field::transfer_regex: return "transfer_regex";
    case Field::microbatch_regex: return "microbatch_regex";
    case Field::stat: return "stat";
    case Field::unit: return "unit";
    case Field::clock_offsets: return "clock_offsets";
  }
  return "unknown";
}

}  // namespace heteropipe
