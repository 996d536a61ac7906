// A schedule CSV (stage,microbatch,kind,start,end), one or two files cut at
// "\n--\n" lines, read by read_schedule_csv, then the model recovered.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "heteropipe/text/trace_text.hpp"
#include "heteropipe/trace/events.hpp"
#include "heteropipe/trace/model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace heteropipe;
  if (size == 0) return 0;
  const std::uint8_t choice = data[0];
  const auto files = fuzz::parts(fuzz::bytes(data + 1, size - 1), 2);
  TraceEvents events;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (auto problem = read_schedule_csv(files[i], "schedule-" + std::to_string(i) + ".csv", events)) {
      fuzz::check_error(*problem);
      return 0;
    }
  }
  for (const ScheduleRow& r : events.rows) {
    fuzz::finite(r.start, "row start");
    fuzz::finite(r.end, "row end");
  }
  TraceOptions options;
  options.stat = static_cast<TraceStat>(choice % 3);
  options.unit = static_cast<TimeUnit>((choice / 3) % 3);
  const auto result = recover_model(events, options);
  if (result) fuzz::check_result(result.value());
  else fuzz::check_error(result.error());
  return 0;
}
