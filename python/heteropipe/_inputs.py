"""Python values to the doubles the core checks.

Only type rules live here (the reference's "M must be an int", no bools);
ranges are checked by the core. Every error is a HeteropipeError with a core
code, so its sentence is the core's.
"""

from __future__ import annotations

import decimal
import math
import numbers
import operator
import sys

from . import _core
from ._errors import HeteropipeError, token_of

# "async" and "blocking", as every interface spells them; the former
# "asynchronous" and "block" (and the method name "async_") still read.
_REGIMES = {
    "async": "async", "asynchronous": "async", "async_": "async",
    "blocking": "blocking", "block": "blocking",
}

_TEXT = (str, bytes, bytearray)


def batches(M) -> float:
    """M as the core's double. Like the reference, only an int is accepted."""
    M = _whole(M, "M")
    if abs(M) <= _core.limits["max_batches"]:
        return float(M)
    # Past 2^53 an int need not be exact as a double (2^53 + 1 would read as
    # 2^53), so the core judges a double beyond the bound on the same side and
    # the error shows the int as given.
    try:
        _core.check_batches((2.0 if M > 0 else -2.0) * _core.limits["max_batches"])
    except HeteropipeError as e:
        raise HeteropipeError(e.code, e.field, e.index, _finite(M), token_of(M), e.limit) from None
    raise AssertionError  # pragma: no cover (the core refuses every M past 2^53)


def points(n) -> int:
    """The number of points of a curve: an int, judged by the core's rules for
    counts (the native CLI's --curve), so an int out of range is refused with
    the CLI's sentence rather than clamped."""
    n = _whole(n, "points")
    # An int of more than 20 digits is out of range whatever its digits; the
    # error then quotes it as given.
    text = str(n) if n.bit_length() <= 64 else ("-" if n < 0 else "") + "9" * 21
    try:
        return int(_core.parse_count(text, "points"))
    except HeteropipeError as e:
        raise HeteropipeError(e.code, e.field, e.index, e.value, token_of(n), e.limit) from None


def real(x, field: str) -> float:
    """rho or T_real: a real number (an int, a float, a Fraction, a Decimal),
    or text read by the core's parser (str, or UTF-8 bytes)."""
    if isinstance(x, _TEXT):
        return _core.parse_number(x, field)
    if _is_bool(x) or not (isinstance(x, (numbers.Real, decimal.Decimal)) or _is_number_like(x)):
        raise HeteropipeError("not_a_number", field, None, 0.0, token_of(x))
    try:
        value = float(x) + 0.0  # -0 is zero, as the core reads "-0"
    except OverflowError:
        raise _beyond_doubles(x, field, None) from None
    except Exception as e:  # a number type whose conversion fails (a signaling NaN, a broken __float__)
        raise HeteropipeError("not_a_number", field, None, 0.0, token_of(x)) from e
    # A subnormal, or a number other than 0 that float() turns into 0 (Decimal("1e-400")).
    if abs(value) < _core.limits["min_normal_number"] and (
            value != 0 or (isinstance(x, (numbers.Real, decimal.Decimal)) and x != 0)):
        raise _below_doubles(x, field, None)
    return value


def _is_bool(x) -> bool:
    """A bool, Python's or numpy's (which is no int subclass): never a number here."""
    return isinstance(x, bool) or (type(x).__module__ == "numpy" and type(x).__name__ in ("bool_", "bool"))


def _is_number_like(x) -> bool:
    """A number of a type the numbers ABCs do not know that says how it reads
    as a float or an int (a 0-d numpy array, an object with __float__ or
    __index__), as list items are read; no complex number (its real part alone
    is no value) and no array of more than one dimension's items."""
    if isinstance(x, numbers.Complex) or type(x).__name__.startswith(("complex", "clongdouble")):
        return False
    if getattr(x, "ndim", 0) != 0:
        return False
    return hasattr(type(x), "__float__") or hasattr(type(x), "__index__")


def _beyond_doubles(x, field: str, index) -> HeteropipeError:
    """The error for a number past the double range (an int such as 10**400):
    the core's for the same magnitude typed as text, quoting x as given."""
    try:
        _core.parse_number("-1e400" if x < 0 else "1e400", field)
    except HeteropipeError as e:
        return HeteropipeError(e.code, e.field, index, e.value, token_of(x), e.limit)
    raise AssertionError  # pragma: no cover (the core refuses 1e400 in every field)


def _below_doubles(x, field: str, index) -> HeteropipeError:
    """The error for a number other than 0 that reads as 0 or a subnormal (5e-324, Decimal("1e-400")): the
    core's for the same number typed as text (too_small, limit min_normal_number), quoting x as given."""
    try:
        _core.parse_number("1e-400", field)
    except HeteropipeError as e:
        return HeteropipeError(e.code, e.field, index, e.value, token_of(x), e.limit)
    raise AssertionError  # pragma: no cover (the core refuses 1e-400 in every field)


def regime(name) -> str:
    key = name.strip().lower() if isinstance(name, str) else None
    if key not in _REGIMES:
        raise ValueError(f"regime must be 'async' or 'blocking' (got {token_of(name)})")
    return _REGIMES[key]


def whole(x, field: str) -> float:
    """A count (reps, seed) as the core's double: an int, whose range the core judges.
    Past 2^53 an int need not be exact as a double (a seed of 2^53 + 1 read as
    2^53, which the core takes), so the core judges a double beyond the bound on
    the same side, and as_given() puts the int back in its error."""
    n = _whole(x, field)
    if abs(n) <= _core.limits["max_batches"]:
        return float(n)
    return (2.0 if n > 0 else -2.0) * _core.limits["max_batches"]


def as_given(e: HeteropipeError, counts: dict) -> HeteropipeError:
    """The core's error about one of `counts` (field: the value given), quoting
    an int past 2^53 as given, not as the double whole() passed for it."""
    if e.field not in counts or e.index is not None or e.code != "out_of_range":
        return e
    n = counts[e.field]
    try:
        n = _whole(n, e.field)
    except HeteropipeError:
        return e
    if abs(n) <= _core.limits["max_batches"]:
        return e
    return HeteropipeError(e.code, e.field, e.index, _finite(n), token_of(n), e.limit)


def items_as_given(e: HeteropipeError, lists: dict) -> HeteropipeError:
    """The core's error about an item of one of `lists` (field: the value given), quoting an int past 2^53 as
    given (10**16 + 1), not as the double it was read as (1e+16): the item is found again where the error
    points (an item, a matrix's cell, a stage's samples or a group, a stage order's rank) in the list or tuple
    given; an iterator, read once, cannot be read again, and its error stays as it is."""
    if e.token or e.field not in lists:
        return e
    for item in _items_at(lists[e.field], e.index, e.column):
        if _is_bool(item) or not isinstance(item, numbers.Integral):
            continue
        n = int(item)
        if abs(n) > _core.limits["max_batches"] and _finite(n) == e.value:
            given = HeteropipeError(e.code, e.field, e.index, e.value, token_of(n), e.limit, e.fits_quant,
                                    e.fits_with_device, e.column, e.typed)
            given.errors = [given, *e.errors[1:]]
            return given
    return e


def _items_at(x, index, column) -> tuple:
    """The items of `x` that an error at `index` (and `column`) may be about."""
    if isinstance(x, numbers.Integral):
        return (x,) if index in (None, 0) else ()  # one number for a list of one (buffers=...)
    if not isinstance(x, (list, tuple)):
        return ()
    if index is None:
        return tuple(x)  # a stage order's rank, named by its value
    if not 0 <= index < len(x):
        return ()
    item = x[index]
    if not isinstance(item, (list, tuple)):
        return (item,)
    # A matrix's row (its cell at column), or a stage's samples or a shared group, which name no item.
    return tuple(item) if column is None else tuple(item[column:column + 1])


def name(x, field: str) -> str:
    """One of a field's names (a link mode): a str, which the core judges."""
    if isinstance(x, str):
        return x
    raise HeteropipeError("unknown_name", field, None, 0.0, token_of(x))


def _whole(x, field: str) -> int:
    """A count as a Python int: an int (not a bool), as the reference asks of
    M; numpy's integers and any object with __index__ (a 0-d integer array) too."""
    if not _is_bool(x) and (isinstance(x, numbers.Integral) or
                            (not isinstance(x, numbers.Real) and _is_number_like(x) and hasattr(type(x), "__index__"))):
        try:
            # int() of an Integral calls its __int__ (an int subclass's too); __index__ for the rest.
            return int(x) if isinstance(x, numbers.Integral) else operator.index(x)
        except Exception as e:
            raise HeteropipeError("not_integer", field, None, 0.0, token_of(x)) from e
    if isinstance(x, float) and not math.isfinite(x):
        raise HeteropipeError("not_finite", field, None, 0.0, repr(x))
    value = x if isinstance(x, float) else 0.0
    raise HeteropipeError("not_integer", field, None, value, token_of(x))


def _finite(x) -> float:
    """A real number as a double, an int too large for one as the largest
    finite double of its sign (which the core then refuses, naming the bound)."""
    try:
        return float(x)
    except OverflowError:
        return sys.float_info.max if x > 0 else -sys.float_info.max
