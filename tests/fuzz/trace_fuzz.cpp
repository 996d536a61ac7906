// Trace files (Kineto/Chrome JSON or a schedule CSV, up to four ranks' files
// cut at "\n--\n" lines), read as `heteropipe trace` reads them, then the
// model recovered under options taken from the input's first byte. With its
// bit 5 set, the first part is the typed options instead, one a line:
// --compute, --transfer, --microbatch, --stage-order, --clock-offsets.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "fuzz_support.hpp"
#include "heteropipe/parse.hpp"
#include "heteropipe/trace/events.hpp"
#include "heteropipe/trace/model.hpp"
#include "heteropipe/text/trace_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace heteropipe;
  if (size == 0) return 0;
  const std::uint8_t choice = data[0];
  auto files = fuzz::parts(fuzz::bytes(data + 1, size - 1), 5);
  TraceOptions options;
  options.stat = static_cast<TraceStat>(choice % 3);
  options.unit = static_cast<TimeUnit>((choice / 3) % 3);
  if (choice & 0x40) options.profiler_step = (choice >> 4) & 1;
  if (choice & 0x20) {
    std::string_view typed = files.front();
    files.erase(files.begin());
    options.compute_regex = std::string(next_line(typed));
    options.transfer_regex = std::string(next_line(typed));
    options.microbatch_regex = std::string(next_line(typed));
    const std::string_view order = next_line(typed);
    const auto ranks = parse_number_list(order, Field::stage_order);
    if (!ranks) {
      fuzz::check_error(ranks.error());
      return 0;
    }
    auto stage_order = stage_order_of(ranks.value());
    if (!stage_order) {
      fuzz::check_error(stage_order.error());
      return 0;
    }
    options.stage_order = std::move(stage_order).value();
    auto offsets = clock_offsets_of_text(next_line(typed), options.unit);
    if (!offsets) {
      fuzz::check_error(offsets.error());
      return 0;
    }
    options.clock_offsets = std::move(offsets).value();
  }
  TraceEvents events;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string label = "rank-" + std::to_string(i) + ".json";
    // Bit 7: the files come from a directory, where JSON without traceEvents is no trace.
    if (choice & 0x80) {
      auto read = read_directory_trace_text(files[i], label, events);
      if (!read) {
        fuzz::check_error(read.error());
        return 0;
      }
    } else if (auto problem = read_trace_text(files[i], label, events)) {
      fuzz::check_error(*problem);
      return 0;
    }
  }
  const auto result = recover_model(events, options);
  if (result) fuzz::check_result(result.value());
  else fuzz::check_error(result.error());
  return 0;
}
