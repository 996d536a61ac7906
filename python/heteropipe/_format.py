"""Number formatting shared by the messages and the CLI, written to print
exactly what the native CLI prints (C++ std::to_chars and printf)."""

from __future__ import annotations

import math
from decimal import Decimal


def exact(x: float) -> str:
    """The shortest text that reads back to x, in the shorter of fixed and
    scientific notation (fixed on a tie), as std::to_chars(double) writes it."""
    if not math.isfinite(x):
        return repr(x)
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    sign, digits, exponent = Decimal(repr(x)).normalize().as_tuple()
    text = "".join(map(str, digits))
    minus = "-" if sign else ""
    # Fixed notation.
    if exponent >= 0:
        fixed = text + "0" * exponent
    elif -exponent < len(text):
        fixed = text[:exponent] + "." + text[exponent:]
    else:
        fixed = "0." + "0" * (-exponent - len(text)) + text
    # Scientific notation, with at least two exponent digits.
    power = exponent + len(text) - 1
    mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
    scientific = f"{mantissa}e{'-' if power < 0 else '+'}{abs(power):02d}"
    return minus + (fixed if len(fixed) <= len(scientific) else scientific)


def readable(x: float) -> str:
    """Ten significant digits, as printf("%.10g")."""
    return "%.10g" % x


def percent(fraction: float) -> str:
    return "%.1f %%" % (fraction * 100)


def grouped(n: int) -> str:
    return f"{int(n):,}"
