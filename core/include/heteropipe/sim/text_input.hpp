#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"
#include "heteropipe/sim/input.hpp"

// The simulator's options as a person types them, read by the same rules in
// every interface (lists as heteropipe/parse.hpp reads them).
namespace heteropipe::sim {

// "deterministic", "exponential", "lognormal:cv=X", "gamma:cv=X" or
// "uniform:spread=X". unknown_name (token: the text) for anything else; X is
// read as parse_number reads a number, and a missing X is empty (token: the
// text, e.g. "lognormal:cv=").
Result<Distribution> parse_distribution(std::string_view text, Field field);

// Buffer sizes: a list whose items may also be "inf".
Result<std::vector<double>> parse_buffers(std::string_view text);

// Shared groups: link lists separated by ';' (within a group, the list
// separators other than ';'), e.g. "0,1;2,3". Each link as shared_link reads it.
Result<std::vector<std::vector<std::int64_t>>> parse_shared(std::string_view text);

// One link of shared group `group`, as every front end reads it from a
// number: not_finite (token nan, inf or -inf), not_integer (a fraction), or
// out_of_range past 2^53 either way (limit 2^53; no pipeline has that many
// links, and an int64 holds no larger double exactly); the range against S
// is check_options' (no_such_link).
Result<std::int64_t> shared_link(double link, std::int64_t group);

// A table of numbers, one row per line (blank lines skipped); a first line
// that starts with a letter or a quote is a header and skipped. A matrix's
// errors carry the row (0-based, counting data rows) as their index and the
// column as their column; service_samples' carry the column (the stage) as
// their index.
Result<std::vector<std::vector<double>>> parse_rows(std::string_view text, Field field);

// The same table read as the CLI takes a matrix or a samples file: every row
// `width` values, flattened row by row, refused at the first row of another
// width (wrong_length: a matrix's at its row, service_samples' as a whole)
// and as soon as it holds more than `max_values` (too_many), so that a file
// of millions of rows costs its values' memory, not a list per row, and a
// samples file past limits::kMaxServiceSamples is not read to its end.
Result<std::vector<double>> parse_table(std::string_view text, Field field, std::size_t width, double max_values);

}  // namespace heteropipe::sim
