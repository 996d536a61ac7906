"""Python values to the doubles the core checks.

Only type rules live here (the reference's "M must be an int", no bools);
ranges are checked by the core, which raises HeteropipeError.
"""

from __future__ import annotations

import math
import numbers
import sys

from . import _core
from ._errors import HeteropipeError

_MAX_BATCHES = 2 ** 53

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
    if abs(M) > _MAX_BATCHES:
        # Past 2^53 an int need not be exact as a double; report it as given.
        value = float(M) if abs(M) < 2 ** 1000 else (sys.float_info.max if M > 0 else -sys.float_info.max)
        text = str(M)
        raise HeteropipeError("out_of_range", "M", None, value, text if len(text) <= 40 else text[:40] + "...")
    return float(M)


def real(x, field: str) -> float:
    """rho or T_real: a real number, or text read by the core's parser."""
    if isinstance(x, str):
        return _core.parse_number(x, field)
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise HeteropipeError("not_a_number", field, None, 0.0, _token(x))
    try:
        return float(x)
    except OverflowError:
        return math.copysign(sys.float_info.max, x)


def regime(name) -> str:
    key = name.strip().lower() if isinstance(name, str) else None
    if key not in _REGIMES:
        raise ValueError(f"regime must be 'asynchronous' or 'blocking' (got {name!r})")
    return _REGIMES[key]


def _token(x) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:40] + "..."
