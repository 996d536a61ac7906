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

// Right-aligned cells of fixed width, one row a line. Each cell opens with a
// space of its own, so a value wider than its cell (4.704333333) still stands
// apart from the one before it.
template <class... Cells>
void row(std::ostream& out, const Cells&... cells) {
  out << ' ';
  ((out << ' ' << std::setw(10) << cells), ...);
  out << '\n';
}

std::string list(const std::vector<double>& values) {
  std::string s;
  for (double v : values) s += (s.empty() ? "" : ", ") + readable(v);
  return s.empty() ? "(none)" : s;
}

}  // namespace

void write_trace_table(std::ostream& out, const TraceResult& r) {
  const std::string unit(time_unit_name(r.unit));
  out << "heteropipe " << kVersion << ": trace, " << r.ranks.size() << " rank(s), times in " << unit << "\n\n";
  out << "  " << text::rank_table_heading() << '\n';
  row(out, "rank", "stage", "kernels", "compute", "transfer", "collective", "streams", "compute", "comm");
  for (const TraceRank& k : r.ranks) {
    row(out, k.rank, k.stage < 0 ? std::string("-") : std::to_string(k.stage), k.kernels, k.compute_kernels,
        k.transfer_kernels, k.collective_kernels, k.streams, readable(k.compute_time), readable(k.communication_time));
  }
  out << '\n';
  if (!r.pipeline) {
    out << "  no pipeline (" << not_pipeline_name(*r.reason) << "): " << text::describe_reason(r) << '\n';
  } else {
    const Analysis& a = *r.analysis;
    out << "  pipeline: S = " << r.tau.size() << " stages, M = " << r.M << " micro-batches\n\n";
    out << "  " << text::stage_table_heading(r.stat) << '\n';
    row(out, "stage", "rank", "batches", "tau", "min", "p50", "mean", "p95", "max", "busy min", "busy max");
    for (const TraceStage& s : r.stages) {
      row(out, s.stage, s.rank, s.microbatches, readable(r.tau[static_cast<std::size_t>(s.stage)]),
          readable(s.span.min), readable(s.span.p50), readable(s.span.mean), readable(s.span.p95),
          readable(s.span.max), readable(s.busy.min), readable(s.busy.max));
    }
    out << "\n  " << text::link_table_heading() << '\n';
    row(out, "link", "ranks", "pairs", "d", "min", "p50", "mean", "p95", "max", "unmatched");
    for (const TraceLink& l : r.links) {
      row(out, l.link, std::to_string(l.from_rank) + "->" + std::to_string(l.to_rank), l.pairs,
          readable(r.d[static_cast<std::size_t>(l.link)]), readable(l.d.min), readable(l.d.p50), readable(l.d.mean),
          readable(l.d.p95), readable(l.d.max), l.unmatched);
    }
    out << "\n  clock offsets                 " << list(r.clock_offsets) << '\n';
    for (std::size_t link = 0; link < r.clock_offset_bounds.size(); ++link) {
      const ClockOffsetBounds& b = r.clock_offset_bounds[link];
      out << "  link " << link << " offset bounds         [" << readable(b.lo) << ", "
          << (b.hi ? readable(*b.hi) : std::string("unbounded")) << "]\n";
    }
    out << "  T_real                        " << readable(r.T_real) << '\n';
    out << "  T_async / T_block             " << readable(a.T_async) << " / " << readable(a.T_block) << '\n';
    out << "  at min / p50 / mean           " << readable(r.sandwich_min.T_async) << " / "
        << readable(r.sandwich_min.T_block) << ", " << readable(r.sandwich_p50.T_async) << " / "
        << readable(r.sandwich_p50.T_block) << ", " << readable(r.sandwich_mean.T_async) << " / "
        << readable(r.sandwich_mean.T_block) << '\n';
    if (a.overlap_ratio) out << "  overlap ratio                 " << readable(*a.overlap_ratio) << '\n';
    if (a.T_real_position) out << "  position                      " << sandwich_position_name(*a.T_real_position) << '\n';
    if (r.replay) {
      out << "  replay async / blocking       " << readable(r.replay->async) << " / " << readable(r.replay->blocking)
          << '\n';
      out << "  explained                     " << text::describe_explain(r, unit) << '\n';
    }
    if (r.overlap_ratio_replay) out << "  overlap ratio (replay)        " << readable(*r.overlap_ratio_replay) << '\n';
    out << "  bottleneck stage              " << a.bottleneck_stage << '\n';
  }
  for (const TraceWarning& w : r.warnings) out << "  warning: " << text::describe(w) << '\n';
}

}  // namespace heteropipe::cli
