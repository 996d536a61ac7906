"""The error every bad input raises, with the core's code, field and position.

The core reports codes; this module is where they become English (the same
wording as the other English front ends). Positions are 1-based for people
("item 3"), 0-based in ``.index`` for programs.
"""

from __future__ import annotations

import math
from typing import Optional

from ._format import exact, grouped

__all__ = ["HeteropipeError"]

_MAX_STAGES_TEXT = "10,000,000"


def _number(value: float) -> str:
    return exact(value)


def _count(value: float) -> str:
    return grouped(int(value)) if math.isfinite(value) else repr(value)


def _what(code: str, field: str, index: Optional[int], value: float, token: str,
          stages: Optional[int], cell_limit: Optional[float]) -> str:
    got_value = f"(got {_number(value)})"
    scalar = field in ("M", "rho", "T_real")
    if code == "empty":
        return "is empty" if scalar else "needs at least one value"
    if code == "too_many":
        return f"at most {_MAX_STAGES_TEXT} values"
    if code == "not_finite":
        return f"must be a finite number (got {token or _number(value)})"
    if code == "negative":
        return f"must be >= 0 {got_value}"
    if code == "all_zero":
        return "at least one stage time must be > 0"
    if code == "too_small":
        return f"the largest stage time must be at least 1e-15 {got_value}"
    if code == "too_large":
        limit = "2^53" if field == "M" else "1e15"
        return f"must be at most {limit} (got {token or _number(value)})"
    if code == "wrong_length":
        links = "S-1" if stages is None else f"S-1 = {stages - 1}"
        return f"needs {links} link latencies, one per link, or none {got_value}"
    if code == "not_integer":
        return f"must be a whole number (got {token or _number(value)})"
    if code == "out_of_range":
        bounds = "between 1 and 2^53" if field == "M" else "between 0 and 1"
        return f"must be {bounds} (got {token or _number(value)})"
    if code == "not_positive":
        return f"must be > 0 {got_value}"
    if code == "empty_item":
        return "empty item between separators"
    if code == "not_a_number":
        if index is None and not scalar:
            return f"must be a list of numbers or a text list like '1, 2.5, 3' (got {token})"
        return f"'{token}' is not a number"
    if code == "no_overlap_headroom":
        return "no overlap headroom: T_block equals T_async, so the overlap ratio is undefined"
    if code == "too_many_cells":
        cells = f"{_count(value)} cells"
        limit = _count(cell_limit) if cell_limit else "the limit"
        return f"M x S = {cells} is over the limit of {limit}"
    return code.replace("_", " ")


class HeteropipeError(ValueError):
    """Bad input: ``code`` (the core's snake_case name), ``field`` ("tau", "d",
    "M", "rho" or "T_real"), ``index`` (0-based item, or None for the whole
    field), ``value`` (the offending value, always finite) and ``token`` (the
    offending text, for parser errors)."""

    def __init__(self, code: str, field: str, index: Optional[int] = None, value: float = 0.0,
                 token: str = "", *, stages: Optional[int] = None,
                 cell_limit: Optional[float] = None) -> None:
        self.code = code
        self.field = field
        self.index = index
        self.value = value
        self.token = token
        where = field if index is None else f"{field}, item {index + 1}"
        super().__init__(f"{where}: {_what(code, field, index, value, token, stages, cell_limit)}")

    def __reduce__(self):
        return (_rebuild, (self.code, self.field, self.index, self.value, self.token, str(self)))


def _rebuild(code, field, index, value, token, message):
    error = HeteropipeError(code, field, index, value, token)
    error.args = (message,)
    return error
