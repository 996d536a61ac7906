// The simulator's tables (--service-matrix, --link-matrix, --service-samples
// files): parse_rows, and parse_table at a width from the first byte.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "heteropipe/sim/text_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace heteropipe;
  if (size == 0) return 0;
  const std::uint8_t choice = data[0];
  const std::string_view text = fuzz::bytes(data + 1, size - 1);
  const Field fields[] = {Field::service_matrix, Field::link_matrix, Field::service_samples};
  const Field field = fields[choice % 3];
  const auto rows = sim::parse_rows(text, field);
  if (rows) {
    for (const auto& row : rows.value()) {
      for (double x : row) fuzz::finite(x, "parse_rows");
    }
  } else {
    fuzz::check_error(rows.error());
  }
  const std::size_t width = 1 + (choice / 3) % 8;
  const auto table = sim::parse_table(text, field, width, 1000);
  if (table) {
    if (table.value().size() % width != 0) fuzz::fail("a table of a ragged width", "parse_table");
    if (table.value().size() > 1000) fuzz::fail("a table past its most values", "parse_table");
    for (double x : table.value()) fuzz::finite(x, "parse_table");
  } else {
    fuzz::check_error(table.error());
  }
  return 0;
}
