#!/usr/bin/env python3
"""Writes core/src/sim/exp_table.cpp: 2^(j/128) for j = 0..127 as two doubles
each, the nearest double and the nearest double to what it leaves, from 60
decimal digits (the standard library's decimal module, so anyone can check
the table without trusting a C library). Run from the repository root."""
from decimal import Decimal, getcontext

getcontext().prec = 60
LN2 = Decimal(2).ln()
SIZE = 128

rows = []
for j in range(SIZE):
    exact = (LN2 * j / SIZE).exp()
    high = float(exact)  # Decimal to float rounds to nearest
    low = float(exact - Decimal(high))
    rows.append(f"    {{{high.hex()}, {low.hex()}}},")

with open("core/src/sim/exp_table.cpp", "w") as out:
    out.write(f"""// Written by scripts/exp-table.py; do not edit.
#include "heteropipe/sim/elementary.hpp"

namespace heteropipe::sim::elementary_detail {{

const double kPowersOfTwo[kExpTableSize][2] = {{
{chr(10).join(rows)}
}};

}}  // namespace heteropipe::sim::elementary_detail
""")
