#include <cstdint>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "format.hpp"
#include "report.hpp"

namespace heteropipe::cli {

void write_json(std::ostream& out, const Analysis& a, const std::optional<RecurrenceMakespans>& recurrence) {
  // ordered_json keeps visit_fields' order; its dump writes the shortest
  // text that reads back to the same double.
  nlohmann::ordered_json object = nlohmann::ordered_json::object();
  visit_fields(a, [&](std::string_view name, const auto& value) {
    using T = std::decay_t<decltype(value)>;
    const std::string key(name);
    if constexpr (std::is_same_v<T, std::string_view>) {
      object[key] = std::string(value);
    } else if constexpr (std::is_same_v<T, double>) {
      // M holds an integer; JSON readers should see one.
      if (name == "M") object[key] = as_count(value);
      else object[key] = value;
    } else {
      object[key] = value;
    }
  });
  if (recurrence) {
    object["T_async_recurrence"] = recurrence->asynchronous;
    object["T_block_recurrence"] = recurrence->blocking;
  }
  out << object.dump(2) << '\n';
}

}  // namespace heteropipe::cli
