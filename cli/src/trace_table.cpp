#include "trace_table.hpp"

#include <iomanip>
#include <sstream>
#include <string>

#include "heteropipe/text/numbers.hpp"
#include "heteropipe/text/trace_text.hpp"
#include "heteropipe/version.hpp"

namespace heteropipe::cli {
namespace {

using text::readable;

// Right-aligned cells of fixed width, one row a line.
template <class... Cells>
void row(std::ostream& out, const Cells&... cells) {
  out << ' ';
  ((out << std::setw(12) << cells), ...);
  out << '\n';
}

std::string list(const std::vector<double>& values) {
  std::string s;
  for (double v : values) s += (s.empty() ? "" : ", ") + readable(v);
  return s.empty() ? "(none)" : s;
}

std::string five(const SampleStats& s) {
  return readable(s.min) + " / " + readable(s.p50) + " / " + readable(s.mean) + " / " + readable(s.p95) + " / " +
         readable(s.max);
}

}  // namespace

void write_trace_table(std::ostream& out, const TraceResult& r) {
  const std::string unit(time_unit_name(r.unit));
  out << "heteropipe " << kVersion << ": trace, " << r.ranks.size() << " rank(s), times in " << unit << "\n\n";
  row(out, "rank", "stage", "kernels", "compute", "transfer", "collective", "streams", "compute_t", "comm_t");
  for (const TraceRank& k : r.ranks) {
    row(out, k.rank, k.stage < 0 ? std::string("-") : std::to_string(k.stage), k.kernels, k.compute_kernels,
        k.transfer_kernels, k.collective_kernels, k.streams, readable(k.compute_time), readable(k.communication_time));
  }
  out << '\n';
  if (!r.pipeline) {
    out << "  no pipeline (" << not_pipeline_name(*r.reason) << "): " << text::describe(*r.reason) << '\n';
  } else {
    const Analysis& a = *r.analysis;
    out << "  pipeline of S = " << r.tau.size() << " stages, M = " << r.M << " micro-batches, "
        << trace_stat_name(r.stat) << " of the samples\n";
    out << "  stage  rank  micro-batches  tau; span min / p50 / mean / p95 / max; busy min .. max\n";
    for (const TraceStage& s : r.stages) {
      out << "  " << s.stage << "      " << s.rank << "     " << s.microbatches << "             "
          << readable(r.tau[static_cast<std::size_t>(s.stage)]) << "; " << five(s.span) << "; "
          << readable(s.busy.min) << " .. " << readable(s.busy.max) << '\n';
    }
    for (const TraceLink& l : r.links) {
      out << "  link " << l.link << " (rank " << l.from_rank << " -> " << l.to_rank << "): " << l.pairs
          << " pairs, d = " << readable(r.d[static_cast<std::size_t>(l.link)]) << "; " << five(l.d) << '\n';
    }
    out << "\n  clock offsets                 " << list(r.clock_offsets) << '\n';
    out << "  T_real                        " << readable(r.T_real) << '\n';
    out << "  T_async / T_block             " << readable(a.T_async) << " / " << readable(a.T_block) << '\n';
    if (a.overlap_ratio) out << "  overlap ratio                 " << readable(*a.overlap_ratio) << '\n';
    if (a.T_real_position) out << "  position                      " << sandwich_position_name(*a.T_real_position) << '\n';
    out << "  bottleneck stage              " << a.bottleneck_stage << '\n';
  }
  for (const TraceWarning& w : r.warnings) out << "  warning: " << text::describe(w) << '\n';
}

}  // namespace heteropipe::cli
