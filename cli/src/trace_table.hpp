#pragma once

#include <ostream>

#include "heteropipe/trace/model.hpp"

namespace heteropipe::cli {

// The trace result for people: what each rank ran, then the recovered
// pipeline or why there is none, then the warnings.
void write_trace_table(std::ostream& out, const TraceResult& r);

}  // namespace heteropipe::cli
