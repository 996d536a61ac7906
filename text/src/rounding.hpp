#pragma once

#include <string>

#include "heteropipe/decimal.hpp"

// A double's exact decimal (heteropipe::exact_decimal) rounded by its digits,
// so that numbers are printed without printf: the same text under every
// locale and natively and in WebAssembly, and no printf linked into the
// calculator's module.
namespace heteropipe::text::detail {

// d with its digits cut after the one of power 10^last (toward zero) and,
// when `up`, one unit of 10^last added.
Decimal cut(const Decimal& d, int last, bool up);

// d rounded to a multiple of 10^last, halfway cases to even, as printf does.
Decimal rounded(const Decimal& d, int last);

// The digits of d from the power 10^high down to 10^low, zeros filled in.
std::string digits_between(const Decimal& d, int high, int low);

}  // namespace heteropipe::text::detail
