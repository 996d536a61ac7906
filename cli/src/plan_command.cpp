#include "plan_command.hpp"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "heteropipe/cli/cli.hpp"
#include "heteropipe/plan/plan.hpp"
#include "heteropipe/text/error_text.hpp"
#include "heteropipe/text/numbers.hpp"
#include "heteropipe/version.hpp"
#include "json.hpp"
#include "plan_json.hpp"

namespace heteropipe::cli {
namespace {

using text::readable;

bool read_all(const std::string& file, std::string& content) {
  if (file == "-") {
    content.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return !std::cin.bad();
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

void write_table(std::ostream& out, const Plan& plan) {
  out << "heteropipe " << kVersion << ": plan, objective " << objective_name(plan.objective) << ", M = "
      << static_cast<std::int64_t>(plan.analysis.M) << "\n\n";
  out << "  stage  device  layers         count  tau             memory used / capacity\n";
  for (std::size_t k = 0; k < plan.stages.size(); ++k) {
    const PlanStage& s = plan.stages[k];
    std::ostringstream line;
    const std::string range = std::to_string(s.first_layer) + "-" + std::to_string(s.last_layer);
    line << "  " << k << std::string(7 - std::to_string(k).size(), ' ') << s.device
         << std::string(8 - std::to_string(s.device).size(), ' ') << range
         << std::string(range.size() < 15 ? 15 - range.size() : 1, ' ') << s.layers
         << std::string(7 - std::to_string(s.layers).size(), ' ');
    const std::string tau = readable(s.tau);
    line << tau << std::string(tau.size() < 16 ? 16 - tau.size() : 1, ' ') << readable(s.memory_used) << " / "
         << readable(s.memory_capacity);
    out << line.str() << '\n';
  }
  out << "\n  d (link delays)                                   ";
  const auto& d = plan.d();
  for (std::size_t k = 0; k < d.size(); ++k) out << (k ? ", " : "") << readable(d[k]);
  out << (d.empty() ? "(none)\n" : "\n");
  out << "  objective value                                   " << readable(plan.objective_value) << '\n';
  out << "  T_async / T_block                                 " << readable(plan.analysis.T_async) << " / "
      << readable(plan.analysis.T_block) << '\n';
  out << "  bottleneck stage                                  " << plan.analysis.bottleneck_stage << '\n';
}

}  // namespace

int run_plan(const PlanChoices& c, std::ostream& out, std::ostream& err) {
  std::string content;
  if (!read_all(c.file, content)) {
    err << "error: " << text::quoted(c.file) << ": cannot be read\n";
    return kExitBadInput;
  }
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(content);
  } catch (const nlohmann::json::parse_error& e) {
    err << "error: " << text::quoted(c.file) << ": not valid JSON (at byte " << e.byte << ")\n";
    return kExitBadInput;
  }
  const auto input = read_plan_input(document);
  if (!input) {
    err << "error: " << text::describe(input.error()) << '\n';
    return kExitBadInput;
  }
  const auto plan = make_plan(input.value());
  if (!plan) {
    err << "error: " << text::describe(plan.error()) << '\n';
    return kExitBadInput;
  }
  if (c.json) out << to_json(plan.value()).dump(2) << '\n';
  else write_table(out, plan.value());
  out.flush();
  if (out) return kExitOk;
  err << "error: could not write the output\n";
  return kExitOutputFailed;
}

}  // namespace heteropipe::cli
