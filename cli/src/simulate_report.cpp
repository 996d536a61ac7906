#include "simulate_report.hpp"

#include <string>

#include "heteropipe/text/numbers.hpp"
#include "heteropipe/version.hpp"

namespace heteropipe::cli {
namespace {

using text::grouped;
using text::readable;
using text::shortest;

std::string padded(const std::string& label) {
  constexpr std::size_t kWidth = 34;
  return "  " + label + std::string(label.size() < kWidth ? kWidth - label.size() : 1, ' ');
}

void write_summary(std::ostream& out, const std::string& name, const sim::Summary& s) {
  out << padded(name + " mean (95% CI)") << readable(s.mean) << " (" << readable(s.ci95_low) << " to "
      << readable(s.ci95_high) << ")\n";
  out << padded(name + " sd") << readable(s.sd) << '\n';
  out << padded(name + " p50 / p90 / p95 / p99") << readable(s.p50) << " / " << readable(s.p90) << " / "
      << readable(s.p95) << " / " << readable(s.p99) << '\n';
  out << padded(name + " min / max") << readable(s.min) << " / " << readable(s.max) << '\n';
}

void write_list(std::ostream& out, const std::string& label, const std::vector<double>& values) {
  out << padded(label);
  for (std::size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << readable(values[i]);
  out << '\n';
}

}  // namespace

void write_simulation_table(std::ostream& out, const sim::Simulation& s) {
  out << "heteropipe " << kVersion << ": simulate, S = " << std::to_string(s.S) << ", M = " << std::to_string(s.M) << ", links "
      << sim::link_mode_name(s.links) << ", " << grouped(static_cast<double>(s.reps))
      << (s.reps == 1 ? " replication" : " replications") << ", seed " << std::to_string(static_cast<std::int64_t>(s.seed))
      << "\n\n";
  write_summary(out, "makespan", s.makespan);
  write_summary(out, "throughput", s.throughput);
  out << padded("deterministic makespan") << readable(s.deterministic_makespan) << '\n';
  out << padded("Jensen gap (mean - deterministic)") << readable(s.jensen_gap) << " (" << readable(s.jensen_gap_ci95_low)
      << " to " << readable(s.jensen_gap_ci95_high) << ")\n";
  out << padded("T_async / T_block (closed forms)") << readable(s.T_async) << " / " << readable(s.T_block) << '\n';
  out << padded("mean vs T_async (95% CI), %") << readable(s.mean_vs_T_async_percent) << " (+/- "
      << readable(s.mean_vs_T_async_ci95_percent) << ")\n";
  out << padded("p99 vs T_async, %") << readable(s.p99_vs_T_async_percent) << '\n';
  out << "\n  replication 0, per stage:\n";
  write_list(out, "busy", s.run.busy);
  write_list(out, "starved", s.run.starved);
  write_list(out, "blocked", s.run.blocked);
  write_list(out, "utilization", s.run.utilization);
}

void write_run_csv(std::ostream& out, const sim::Run& run) {
  const sim::RunTimeline& t = *run.timeline;
  out << "micro_batch,stage,compute_start,compute_finish,release,transfer_start,transfer_finish\n";
  std::size_t cell = 0, transfer = 0;
  for (std::int64_t m = 0; m < t.M; ++m) {
    for (std::int64_t s = 0; s < t.S; ++s, ++cell) {
      out << std::to_string(m) << ',' << std::to_string(s) << ',' << shortest(t.compute_start[cell]) << ',' << shortest(t.compute_finish[cell]) << ','
          << shortest(t.release[cell]) << ',';
      if (s + 1 < t.S) {
        out << shortest(t.transfer_start[transfer]) << ',' << shortest(t.transfer_finish[transfer]);
        ++transfer;
      } else {
        out << ',';
      }
      out << '\n';
    }
  }
}

}  // namespace heteropipe::cli
