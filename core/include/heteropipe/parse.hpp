#pragma once

#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"

namespace heteropipe {

// Reads a list of decimal numbers typed by a person. Separators: ASCII comma,
// space, tab, newline, semicolon, and the full-width comma (U+FF0C) and
// ideographic comma (U+3001) of Chinese keyboards. Runs of blanks count as
// one separator; one trailing separator is fine. An empty item ("1,,2") or a
// non-decimal item ("1e", "0x10", "nan", "inf") is an error naming the item.
// Blank text is an empty list. The errors carry `field` so that a front end
// can say which input they belong to.
Result<std::vector<double>> parse_number_list(std::string_view text, Field field);

// One number (for M, rho, T_real typed as text), same grammar.
Result<double> parse_number(std::string_view text, Field field);

}  // namespace heteropipe
