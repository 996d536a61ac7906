#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"

namespace heteropipe {

// Reads a list of decimal numbers typed by a person. Separators: ASCII comma,
// semicolon, any Unicode white space, and the full-width comma (U+FF0C),
// full-width semicolon (U+FF1B) and ideographic comma (U+3001) of Chinese
// keyboards. Full-width digits, signs, period and e are read as their ASCII
// forms. Runs of blanks count as
// one separator; one trailing separator is fine. An empty item ("1,,2") or a
// non-decimal item ("1e", "0x10", "nan", "inf") is an error naming the item.
// Blank text is an empty list. The errors carry `field` so that a front end
// can say which input they belong to.
Result<std::vector<double>> parse_number_list(std::string_view text, Field field);

// Item `index` (0-based) of such a list as typed, or "" past its end: what a
// value check's error about that item quotes (2e15, not the 2e+15 it reads as).
std::string_view list_item(std::string_view text, std::int64_t index);

// An error about an item of `field`'s list `text` (e.index), when it quotes
// nothing yet, quotes that item as typed: the one place every front end and
// reader turns a value check's number back into the user's text.
void quote_list_item(Error& e, Field field, std::string_view text);

// The same list in which the item "inf" stands for +infinity (buffer sizes).
Result<std::vector<double>> parse_number_list_or_inf(std::string_view text, Field field);

// A number given as a double (a binding's float, an item of a buffer) other
// than 0 and below limits::kMinNormalNumber, a subnormal: the too_small error
// that the same number typed as text gets (lost_below_normal), item `index`
// of `field`, quoting `token` as the caller's language writes the number
// (or, with no token, showing `value` in its shortest digits); nullopt for any
// other value. The core's checks apply it to every double a front end passes
// (Pipeline::create, check_rho, check_T_real, the simulator's and the trace
// import's checks), so that no binding's reader repeats it.
std::optional<Error> subnormal_error(double value, Field field, std::int64_t index, std::string_view token);

// One number (for rho, T_real typed as text), same grammar, with Unicode
// white space trimmed on both sides.
Result<double> parse_number(std::string_view text, Field field);

// A count (M, curve points) typed as text: a whole number in [low, high],
// decided from the digits themselves before any rounding, so that
// 9007199254740993 is out of range and 0.99999999999999999 is not whole.
// Errors: not_integer, out_of_range (limit: the bound broken; a number past
// the double range too, as one far out inside it), and those of parse_number;
// each keeps the text as typed in its token.
Result<double> parse_count(std::string_view text, Field field, double low, double high);

// The text without Unicode white space at either end.
std::string_view trim_blanks(std::string_view text);

// A typed value as every reader takes it, a number or a name (a link mode, a
// unit, an objective): without the blanks around it nor a UTF-8 byte-order
// mark before it (a pasted value), so that --reps ' 5' and --links ' serial'
// are read alike.
std::string_view typed_value(std::string_view text);

// The first line of `text`, taken off it: a line ends at "\n", "\r\n" or a
// lone "\r" (old Mac and some spreadsheet exports), which is not in the line.
std::string_view next_line(std::string_view& text);

// A CSV cell trimmed, without the double quotes a spreadsheet may put around
// it ("stage" is stage).
std::string_view csv_cell(std::string_view cell);

// Where a CSV row's first cell ends: its first comma outside double quotes
// (RFC 4180: "1,5" is one cell), or npos.
std::size_t csv_cell_end(std::string_view row);

}  // namespace heteropipe
