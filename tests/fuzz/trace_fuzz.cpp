// Trace files (Kineto/Chrome JSON or a schedule CSV, up to four ranks' files
// cut at "\n--\n" lines), read as `heteropipe trace` reads them, then the
// model recovered under options taken from the input's first byte.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "heteropipe/trace/events.hpp"
#include "heteropipe/trace/model.hpp"
#include "heteropipe/text/trace_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace heteropipe;
  if (size == 0) return 0;
  const std::uint8_t choice = data[0];
  const auto files = fuzz::parts(fuzz::bytes(data + 1, size - 1), 4);
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
  TraceOptions options;
  options.stat = static_cast<TraceStat>(choice % 3);
  options.unit = static_cast<TimeUnit>((choice / 3) % 3);
  if (choice & 0x40) options.profiler_step = (choice >> 4) & 1;
  const auto result = recover_model(events, options);
  if (result) fuzz::check_result(result.value());
  else fuzz::check_error(result.error());
  return 0;
}
