#pragma once

#include <string>

#include "heteropipe/error.hpp"
#include "heteropipe/trace/model.hpp"

// The English of trace import: errors about a file's content (named by
// file and position), the reasons a trace is no pipeline, and the warnings.
namespace heteropipe::text {

// Whether the error is about a place in a trace file (its token is the
// file's label, its index a byte offset or a CSV line).
bool is_trace_file_error(const Error& error);
std::string describe_trace_error(const Error& error);
std::string describe(NotPipeline reason);
// Why the result is no pipeline: its reason's sentence, and for
// no_microbatch_ranges the range names the missed stages hold.
std::string describe_reason(const TraceResult& result);
std::string describe(const TraceWarning& warning);
// The headings of the CLI's trace table, each saying what its rows measure.
std::string rank_table_heading();
std::string stage_table_heading(TraceStat stat);
std::string link_table_heading();
// T_real in its named parts: "T_real 1942 ms = model 1808 + variability 58 +
// blocking 0 + other 76 ms" (a part below 0 is written with its sign).
std::string describe_explain(const TraceResult& result, std::string_view unit);

}  // namespace heteropipe::text

namespace heteropipe {

template <class Visitor>
void visit_fields(const TraceWarning& w, Visitor&& visit) {
  visit_warning_fields(w, visit);
  const std::string message = text::describe(w);
  visit("message", std::string_view(message));
}

// The result as every front end serializes it: a trace that is no pipeline
// says why in words too (reason_message), after its reason's code.
template <class Visitor>
void visit_fields(const TraceResult& r, Visitor&& visit) {
  visit_result_fields(r, visit, [&r](NotPipeline, auto&& fields) {
    const std::string message = text::describe_reason(r);
    fields("reason_message", std::string_view(message));
  });
}

}  // namespace heteropipe
