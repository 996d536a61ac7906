#pragma once

#include <array>
#include <string_view>

#include "heteropipe/error.hpp"
#include "heteropipe/pipeline.hpp"
#include "heteropipe/schedule.hpp"
#include "request.hpp"

// The inputs several operations share, read from a request and checked by
// the core. Absent values take the core's defaults (AnalysisRequest).
namespace heteropipe::wasm {

inline constexpr std::array<Field, 5> kFields = {Field::tau, Field::d, Field::M, Field::rho, Field::T_real};

// tau and d (lists of numbers).
bool is_list(Field field);
// The field of a name (the wrapper only sends known ones; tau otherwise).
Field field_named(std::string_view name);
// The regime of `regime` (async when absent).
Regime read_regime(const Request& in);

// tau and d as a pipeline.
Result<Pipeline> read_pipeline(Request& in);
// M, a valid number of micro-batches.
Result<double> read_batches(Request& in);
// A pipeline and M, the inputs of every quantity taken at M micro-batches.
struct PipelineAtBatches {
  Pipeline pipeline;
  double M;
};
Result<PipelineAtBatches> read_pipeline_at_batches(Request& in);
// rho, a valid overlap ratio.
Result<double> read_rho(Request& in);

}  // namespace heteropipe::wasm
