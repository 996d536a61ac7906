#include "json.hpp"

#include "report.hpp"

namespace heteropipe::cli {

void write_json(std::ostream& out, const Analysis& a, const std::optional<RecurrenceMakespans>& recurrence) {
  Json object = to_json(a);
  if (recurrence) {
    object["T_async_recurrence"] = recurrence->asynchronous;
    object["T_block_recurrence"] = recurrence->blocking;
  }
  out << object.dump(2) << '\n';
}

}  // namespace heteropipe::cli
