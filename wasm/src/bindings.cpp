// What the module offers: one function per public operation (each takes the
// address of its staged request and returns the address of its reply; see
// protocol.hpp), and the two calls that stage a request and release a reply.
#include <emscripten/bind.h>

#include "heteropipe/formulas.hpp"
#include "operations.hpp"

EMSCRIPTEN_BINDINGS(heteropipe) {
  using emscripten::function;
  namespace hp = heteropipe;
  namespace op = heteropipe::wasm;

  function("stage", &op::stage);
  function("release", &op::release);

  function("module_info", &op::module_info);
  function("memory", &op::memory);

  function("analyze", &op::analyze);
  function("check", &op::check);
  function("read_request", &op::read_request);
  function("parse_list", &op::parse_list);
  function("parse_number", &op::parse_number);

  function("makespan_free", &op::of_batches<hp::makespan_free>);
  function("makespan_async", &op::of_batches<hp::makespan_async>);
  function("makespan_blocking", &op::of_batches<hp::makespan_blocking>);
  function("makespan_gpipe", &op::of_batches<hp::makespan_gpipe>);
  function("overlap_gap", &op::of_batches<hp::overlap_gap>);
  function("gpipe_overestimate", &op::of_batches<hp::gpipe_overestimate>);
  function("homogeneity_bias", &op::of_pipeline<hp::homogeneity_bias>);
  function("full_bias", &op::of_pipeline<hp::full_bias>);
  function("phase_transition", &op::of_pipeline<hp::phase_transition>);
  function("asymptotic_throughput_async", &op::of_pipeline<hp::asymptotic_throughput_async>);
  function("asymptotic_throughput_blocking", &op::of_pipeline<hp::asymptotic_throughput_blocking>);
  function("crossover_batches", &op::of_pipeline<hp::crossover_batches>);
  function("effective_slope", &op::effective_slope);
  function("overlap_ratio", &op::overlap_ratio);

  function("recurrence_makespan", &op::recurrence_makespan);
  function("timeline", &op::timeline);
  function("curve_batches", &op::curve_batches);
  function("makespan_curve", &op::makespan_curve);
}
