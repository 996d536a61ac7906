"""Python values to the doubles the core checks.

Only type rules live here (the reference's "M must be an int", no bools);
ranges are checked by the core. Every error is a HeteropipeError with a core
code, so its sentence is the core's.
"""

from __future__ import annotations

import math
import numbers
import sys

from . import _core
from ._errors import HeteropipeError

_REGIMES = {
    "asynchronous": "asynchronous", "async": "asynchronous", "async_": "asynchronous",
    "blocking": "blocking", "block": "blocking",
}


def batches(M) -> float:
    """M as the core's double. Like the reference, only an int is accepted."""
    if isinstance(M, bool) or not isinstance(M, numbers.Integral):
        if isinstance(M, float) and not math.isfinite(M):
            raise HeteropipeError("not_finite", "M", None, 0.0, repr(M))
        value = M if isinstance(M, float) else 0.0
        raise HeteropipeError("not_integer", "M", None, value, _token(M))
    M = int(M)
    if abs(M) <= _core.limits["max_batches"]:
        return float(M)
    # Past 2^53 an int need not be exact as a double (2^53 + 1 would read as
    # 2^53), so the core judges a double beyond the bound on the same side and
    # the error shows the int as given.
    try:
        _core.check_batches((2.0 if M > 0 else -2.0) * _core.limits["max_batches"])
    except HeteropipeError as e:
        raise HeteropipeError(e.code, e.field, e.index, _finite(M), _token(M), e.limit) from None
    raise AssertionError  # pragma: no cover (the core refuses every M past 2^53)


def real(x, field: str) -> float:
    """rho or T_real: a real number, or text read by the core's parser."""
    if isinstance(x, str):
        return _core.parse_number(x, field)
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise HeteropipeError("not_a_number", field, None, 0.0, _token(x))
    return _finite(x)


def regime(name) -> str:
    key = name.strip().lower() if isinstance(name, str) else None
    if key not in _REGIMES:
        raise ValueError(f"regime must be 'asynchronous' or 'blocking' (got {name!r})")
    return _REGIMES[key]


def _finite(x) -> float:
    """A real number as a double, an int too large for one as the largest
    finite double of its sign (which the core then refuses, naming the bound)."""
    try:
        return float(x)
    except OverflowError:
        return sys.float_info.max if x > 0 else -sys.float_info.max


def _token(x) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:40] + "..."
