#include "plan_command.hpp"

#include <iostream>
#include <sstream>

#include <filesystem>

#include "heteropipe/cli/cli.hpp"
#include "heteropipe/cli/gguf_file.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/plan/read_json.hpp"
#include "heteropipe/plan/report.hpp"
#include "heteropipe/text/error_text.hpp"
#include "heteropipe/text/input_text.hpp"
#include "heteropipe/text/numbers.hpp"
#include "heteropipe/text/plan_text.hpp"
#include "heteropipe/version.hpp"
#include "json.hpp"
#include "read_file.hpp"

namespace heteropipe::cli {
namespace {

using text::readable;

std::string padded(const std::string& text, std::size_t width) {
  return text + std::string(text.size() < width ? width - text.size() : 1, ' ');
}

// An estimate's memory is in bytes, shown in GiB to four significant figures
// as the page shows it (--json keeps the bytes); the explicit form's is in
// the input's own units, shown as given.
void write_stages(std::ostream& out, const Plan& plan, bool bytes) {
  const auto memory = [bytes](double m) { return bytes ? text::gibibytes(m) : readable(m); };
  out << "  stage  device  layers         count  tau             memory used / capacity\n";
  for (std::size_t k = 0; k < plan.stages.size(); ++k) {
    const PlanStage& s = plan.stages[k];
    out << "  " << padded(std::to_string(k), 7) << padded(std::to_string(s.device), 8)
        << padded(std::to_string(s.first_layer) + "-" + std::to_string(s.last_layer), 15)
        << padded(std::to_string(s.layers), 7) << padded(readable(s.tau), 16) << memory(s.memory_used) << " / "
        << memory(s.memory_capacity) << '\n';
  }
}

// " (typically 14.38 to 19.46)" after an estimate's speed; nothing for explicit costs.
std::string band_after(const SpeedBand& band) {
  const std::string words = text::typically(band);
  return words.empty() ? words : " (" + words + ")";
}

void write_line(std::ostream& out, const std::string& label, const std::string& value) {
  out << "  " << padded(label, 50) << value << '\n';
}

std::string counts_of(const Plan& plan) {
  std::string out;
  for (const PlanStage& s : plan.stages) {
    out += (out.empty() ? "" : ",") + std::to_string(s.device) + ":" + std::to_string(s.layers);
  }
  return out;
}

void write_baseline(std::ostream& out, const std::string& name, const Baseline& b) {
  write_line(out, name + " (device:layers " + counts_of(b.plan) + ")",
             readable(b.plan.objective_value) + ", " + readable(b.tokens_per_second) + " tok/s" +
                 band_after(b.tokens_per_second_band) + ", " +
                 text::percent(b.loss_percent / 100) + " longer" +
                 (b.feasible ? "" : ", " + text::why_infeasible(b)));
}

void write_report(std::ostream& out, const PlanReport& r, bool bytes) {
  const Plan& plan = r.plan;
  out << "heteropipe " << kVersion << ": plan, objective " << objective_name(plan.objective) << ", M = "
      << std::to_string(static_cast<std::int64_t>(plan.analysis.M)) << "\n\n";
  write_stages(out, plan, bytes);
  for (const MemoryWarning& w : r.warnings) out << "  warning: " << text::describe(w) << '\n';
  out << '\n';
  const auto& d = plan.d();
  std::string delays;
  for (std::size_t k = 0; k < d.size(); ++k) delays += (k ? ", " : "") + readable(d[k]);
  write_line(out, "d (link delays)", d.empty() ? "(none)" : delays);
  write_line(out, "objective value", readable(plan.objective_value));
  write_line(out, "T_async / T_block", readable(plan.analysis.T_async) + " / " + readable(plan.analysis.T_block));
  write_line(out, "bottleneck stage", std::to_string(plan.analysis.bottleneck_stage));
  // The throughput objective's figure is its steady state, the one its plan is best at (plan/report.hpp).
  const bool steady = plan.objective == Objective::throughput;
  write_line(out, steady ? "tok/s (tokens / tau_max, steady state)" : "tok/s (tokens x M / T at M)",
             readable(r.tokens_per_second) + band_after(r.tokens_per_second_band));
  write_line(out, steady ? "steady throughput (micro-batches per time unit)"
                         : "throughput (micro-batches per time unit at M)",
             readable(r.throughput));
  // The headline compares only a baseline that keeps the plan's rules.
  if (r.memory_proportional.feasible) {
    out << "\n  the default split costs you " << text::percent(r.memory_proportional.loss_percent / 100)
        << " (memory-proportional, llama.cpp's default --tensor-split)\n\n";
  } else if (r.even.feasible) {
    out << "\n  the even split costs you " << text::percent(r.even.loss_percent / 100)
        << " (the memory-proportional split breaks the plan's rules: " << r.memory_proportional.reason << ")\n\n";
  } else {
    out << "\n  no default split keeps the plan's rules (memory-proportional: " << r.memory_proportional.reason
        << ", even: " << r.even.reason << ")\n\n";
  }
  write_baseline(out, "even split", r.even);
  write_baseline(out, "memory-proportional split", r.memory_proportional);
  out << '\n';
  write_line(out, "vLLM", r.runtime.vllm_command);
  write_line(out, "SGLang", r.runtime.sglang_command);
  write_line(out, "llama.cpp", r.runtime.llama_cpp_command);
  write_line(out, "", text::tensor_split_note());
  if (!r.calibrated.empty() || !r.calibration_unused.empty()) out << '\n';
  for (const Calibrated& c : r.calibrated) write_line(out, "calibrated device " + std::to_string(c.device), text::describe(c));
  for (const UnusedRecord& u : r.calibration_unused) {
    write_line(out, "unused record " + std::to_string(u.record), text::describe(u));
  }
  if (r.what_if.empty()) return;
  out << '\n';
  for (const WhatIf& w : r.what_if) {
    const std::string label = std::string(w.change == "remove" ? "without device " : "with one more like device ") +
                              std::to_string(w.device);
    write_line(out, label, w.feasible ? readable(w.tokens_per_second) + " tok/s (" +
                                            (w.tokens_per_second_change >= 0 ? "+" : "") +
                                            readable(w.tokens_per_second_change) + ")" +
                                            (w.tokens_per_second_band ? ", " + text::typically(w.tokens_per_second_band) : "")
                                      : text::why_infeasible(w));
  }
}

}  // namespace

int run_plan(const PlanChoices& c, std::ostream& out, std::ostream& err) {
  std::string content;
  if (auto problem = read_file(c.file, content, limits::kMaxTextBytes)) {
    err << "error: " << *problem << '\n';
    return kExitBadInput;
  }
  PlanJson read = read_plan_json(content);
  if (!read.errors.empty()) {
    // An error about the file's text as a whole (UTF-16 or UTF-32, not JSON, too long,
    // empty) names the file in place of "input", as a file that cannot be read does;
    // standard input stays "input".
    for (const Error& e : read.errors) {
      const bool whole_text = e.field == Field::input && e.index == kWholeField &&
                              (e.code == ErrorCode::utf16_text || e.code == ErrorCode::utf32_text || e.code == ErrorCode::not_json ||
                               e.code == ErrorCode::too_long || e.code == ErrorCode::empty);
      if (whole_text && c.file != "-") {
        err << "error: " << text::quoted(c.file) << ": " << text::describe_detail(e) << '\n';
      } else {
        err << "error: " << text::describe(e) << '\n';
      }
    }
    return kExitBadInput;
  }
  // --calibrate: its records follow the input's own, numbered after them.
  std::int64_t first_file_record = -1;
  if (!c.calibrate.empty()) {
    std::string bench;
    if (auto problem = read_file(c.calibrate, bench, limits::kMaxTextBytes)) {
      err << "error: " << *problem << '\n';
      return kExitBadInput;
    }
    auto* estimate = std::get_if<EstimateInput>(&read.request);
    if (!estimate) {  // as a "calibration" key in the explicit form: only an estimate is calibrated
      err << "error: " << text::describe(Error{ErrorCode::missing_field, Field::model, kWholeField, 0.0, {}}) << '\n';
      return kExitBadInput;
    }
    CalibrationJson records = read_calibration_json(bench, static_cast<std::int64_t>(estimate->calibration.size()));
    if (!records.errors.empty()) {
      for (const Error& e : records.errors) err << "error: " << text::quoted(c.calibrate) << ": " << text::describe(e) << '\n';
      return kExitBadInput;
    }
    first_file_record = static_cast<std::int64_t>(estimate->calibration.size());
    for (BenchRecord& r : records.records) estimate->calibration.push_back(std::move(r));
  }
  // "gguf": a path relative to the JSON file's folder, or to the current one for standard input.
  std::string io_failure;
  const std::string folder = c.file == "-" ? std::string() : std::filesystem::path(c.file).parent_path().string();
  if (auto e = load_gguf(read.request, folder, io_failure)) {
    if (!io_failure.empty()) err << "error: " << io_failure << '\n';
    else err << "error: " << text::quoted(std::get<EstimateInput>(read.request).gguf) << ": " << text::describe(*e) << '\n';
    return kExitBadInput;
  }
  const auto report = make_plan_report(read.request);
  if (!report) {
    // A record of the --calibrate file (judged against the model's work, or
    // matched against the devices) is named with the file, as its reader's errors are.
    const Error& e = report.error();
    const bool of_a_record = e.field == Field::calibration || e.field == Field::gpu_info || e.field == Field::device ||
                             e.field == Field::model_size || e.field == Field::model_n_params ||
                             e.field == Field::n_prompt || e.field == Field::n_gen;
    const bool from_file = first_file_record >= 0 && of_a_record && e.index >= first_file_record;
    err << "error: " << (from_file ? text::quoted(c.calibrate) + ": " : std::string()) << text::describe(e) << '\n';
    return kExitBadInput;
  }
  if (c.json) out << to_json(report.value()).dump(2) << '\n';
  else write_report(out, report.value(), std::holds_alternative<EstimateInput>(read.request));
  out.flush();
  if (out) return kExitOk;
  err << "error: " << text::kCannotWriteOutput << '\n';
  return kExitOutputFailed;
}

}  // namespace heteropipe::cli
