#include "model_command.hpp"

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "heteropipe/cli/cli.hpp"
#include "heteropipe/cli/gguf_file.hpp"
#include "heteropipe/text/error_text.hpp"
#include "heteropipe/text/input_text.hpp"
#include "heteropipe/text/numbers.hpp"
#include "heteropipe/version.hpp"
#include "json.hpp"

namespace heteropipe::cli {
namespace {

// A per-layer list as runs: "218,112 x 30, 219,136 x 2".
std::string runs(const std::vector<double>& values) {
  std::string out;
  for (std::size_t k = 0; k < values.size();) {
    std::size_t end = k;
    while (end < values.size() && values[end] == values[k]) ++end;
    out += (out.empty() ? "" : ", ") + text::grouped(values[k]) + " x " + std::to_string(end - k);
    k = end;
  }
  return out.empty() ? "(none)" : out;
}

// The facts as a table, one line per key, in the visitor's order.
void write_table(std::ostream& out, const std::string& file, const ModelInfo& m) {
  out << "heteropipe " << kVersion << ": model " << text::quoted(file) << "\n\n";
  visit_fields(m, [&out](std::string_view name, const auto& value) {
    using T = std::decay_t<decltype(value)>;
    std::string shown;
    // A file's text, its control characters escaped (an ESC would drive the terminal), as errors quote it.
    if constexpr (std::is_same_v<T, std::string_view>) shown = value.empty() ? "(none)" : text::quoted(value);
    else if constexpr (std::is_same_v<T, std::vector<double>>) shown = runs(value);
    else shown = text::grouped(static_cast<double>(value));
    // A column wide enough for the longest name, recurrent_bytes_per_sequence, and two spaces.
    out << "  " << name << std::string(name.size() < 30 ? 30 - name.size() : 1, ' ') << shown << '\n';
  });
}

}  // namespace

int run_model(const ModelChoices& c, std::ostream& out, std::ostream& err) {
  std::string io_failure;
  const auto info = read_gguf_file(c.file, io_failure);
  if (!io_failure.empty()) {
    err << "error: " << io_failure << '\n';
    return kExitBadInput;
  }
  if (!info) {
    err << "error: " << text::quoted(c.file) << ": " << text::describe(info.error()) << '\n';
    return kExitBadInput;
  }
  if (c.json) out << to_json(info.value()).dump(2) << '\n';
  else write_table(out, c.file, info.value());
  out.flush();
  if (out) return kExitOk;
  err << "error: " << text::kCannotWriteOutput << '\n';
  return kExitOutputFailed;
}

}  // namespace heteropipe::cli
