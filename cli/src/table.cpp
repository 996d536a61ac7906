#include <string>

#include "heteropipe/text/numbers.hpp"
#include "heteropipe/version.hpp"
#include "report.hpp"

namespace heteropipe::cli {
namespace {

using text::percent;
using text::readable;

std::int64_t as_count(double M) { return static_cast<std::int64_t>(M); }

constexpr std::size_t kLabelWidth = 50;

void row(std::ostream& out, const std::string& label, const std::string& value) {
  out << "  " << label;
  if (label.size() < kLabelWidth) out << std::string(kLabelWidth - label.size(), ' ');
  else out << ' ';
  out << value << '\n';
}

std::string list(const std::vector<double>& values) {
  std::string text;
  for (std::size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + readable(values[i]);
  return text.empty() ? "(none)" : text;
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

std::string stage(const char* name, std::int64_t s, const std::vector<double>& values) {
  return std::string(name) + "[" + std::to_string(s) + "] = " + readable(values[static_cast<std::size_t>(s)]);
}

void write_header(std::ostream& out, const Analysis& a) {
  out << "heteropipe " << kVersion << ": S = " << std::to_string(a.S) << (a.S == 1 ? " stage" : " stages") << ", M = "
      << std::to_string(as_count(a.M)) << (as_count(a.M) == 1 ? " micro-batch" : " micro-batches") << ", rho = " << readable(a.rho)
      << '\n';
  out << "  tau = " << list(a.tau()) << '\n';
  out << "  d   = " << list(a.d()) << '\n';
}

void write_makespans(std::ostream& out, const Analysis& a, const std::optional<RecurrenceMakespans>& recurrence) {
  out << "\nMakespans (in the time unit of tau)\n";
  row(out, "T_free   communication-free (Theorem 1)", readable(a.T_free));
  row(out, "T_async  asynchronous sends (Theorem 2)", readable(a.T_async));
  row(out, "T_block  blocking sends (Theorem 3)", readable(a.T_block));
  row(out, "T_gpipe  homogeneous GPipe, (S+M-1) tau_max", readable(a.T_gpipe));
  if (recurrence) {
    row(out, "T_async  by the exact recurrence", readable(recurrence->asynchronous));
    row(out, "T_block  by the exact recurrence", readable(recurrence->blocking));
  }
  row(out, "GPipe overestimate (T_gpipe - T_async)/T_async", percent(a.gpipe_overestimate));
}

void write_bias(std::ostream& out, const Analysis& a) {
  out << "\nBias, phase transition, sandwich\n";
  row(out, "homogeneity bias T_gpipe - T_free (Cor. 1)", readable(a.homogeneity_bias));
  row(out, "full bias T_gpipe - T_async (Cor. 3)",
      readable(a.full_bias) + (a.full_bias < 0 ? "  (negative: GPipe underestimates)" : ""));
  row(out, "phase transition (Cor. 4)",
      a.phase_transition ? "yes: communication enters the blocking slope" : "no");
  row(out, "overlap gap T_block - T_async (Cor. 5)", readable(a.overlap_gap));
  row(out, "overlap headroom (T_block > T_async)", yes_no(a.overlap_headroom));
  row(out, "effective slope at rho = " + readable(a.rho), readable(a.effective_slope));
}

void write_throughput(std::ostream& out, const Analysis& a) {
  out << "\nThroughput and crossover\n";
  row(out, "tau_max / sigma_max", readable(a.tau_max) + " / " + readable(a.sigma_max));
  row(out, "bottleneck stage, asynchronous", stage("tau", a.bottleneck_stage, a.tau()));
  row(out, "bottleneck stage, blocking", stage("sigma", a.blocking_bottleneck_stage, a.sigma()));
  row(out, "asymptotic throughput, async (Prop. 1)", readable(a.asymptotic_throughput_async) + " per time unit");
  row(out, "asymptotic throughput, blocking (Prop. 1)",
      readable(a.asymptotic_throughput_blocking) + " per time unit");
  row(out, "crossover M* (fill cost dominates below it)", readable(a.crossover_batches));
}

void write_links(std::ostream& out, const Analysis& a) {
  out << "\nLinks (slack = tau_max - tau[s], margin = slack - d[s]; margin < 0: past the phase transition)\n";
  const std::vector<double> slack = a.link_slack(), margin = a.link_margin();
  const std::vector<double>& d = a.d();
  if (slack.empty()) {
    out << "  none: a single stage\n";
    return;
  }
  auto line = [&out](const std::string& link, const std::string& d, const std::string& slack,
                     const std::string& margin, bool past) {
    std::string text = "  ";
    for (const std::string* cell : {&link, &d, &slack}) {
      text += *cell;
      text += std::string(cell->size() < 15 ? 16 - cell->size() : 1, ' ');
    }
    text += margin;
    if (past) text += "   past the phase transition";
    out << text << '\n';
  };
  line("link", "d", "slack", "margin", false);
  for (std::size_t s = 0; s < slack.size(); ++s) {
    line(std::to_string(s) + " -> " + std::to_string(s + 1), readable(d[s]), readable(slack[s]),
         readable(margin[s]), margin[s] < 0);
  }
}

void write_measured(std::ostream& out, const Analysis& a) {
  if (!a.T_real || !a.T_real_position) return;
  const SandwichPosition position = *a.T_real_position;
  out << "\nMeasured makespan\n";
  row(out, "T_real", readable(*a.T_real));
  if (position == SandwichPosition::below_async) row(out, "position", "below T_async = " + readable(a.T_async));
  if (position == SandwichPosition::inside) row(out, "position", "inside the sandwich T_async <= T_real <= T_block");
  if (position == SandwichPosition::above_block) row(out, "position", "above T_block = " + readable(a.T_block));
  if (a.overlap_ratio) {
    row(out, "overlap ratio (T_block-T_real)/(T_block-T_async)",
        readable(*a.overlap_ratio) + (position == SandwichPosition::inside
                                          ? "  (1 = fully asynchronous, 0 = fully blocking)"
                                          : "  (outside [0, 1]: T_real is outside the sandwich)"));
  } else {
    out << "  No overlap headroom: T_block equals T_async, so the overlap ratio is undefined.\n";
  }
  if (position == SandwichPosition::below_async) {
    out << "  No run of this pipeline can finish before T_async, so the inputs overstate the stage\n"
           "  times (or the link latencies).\n";
  }
  if (position == SandwichPosition::above_block) {
    out << "  The run broke the model's assumptions (for example bounded buffers, backpressure or\n"
           "  contention on shared links): no schedule of this model is slower than T_block.\n";
  }
}

}  // namespace

void write_table(std::ostream& out, const Analysis& a, const std::optional<RecurrenceMakespans>& recurrence) {
  write_header(out, a);
  write_makespans(out, a, recurrence);
  write_bias(out, a);
  write_throughput(out, a);
  write_links(out, a);
  write_measured(out, a);
}

}  // namespace heteropipe::cli
