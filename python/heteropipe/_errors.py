"""The error every bad input raises, with the core's code, field and position.

Its message is the core's one English sentence for the code (the text
library's ``describe``, which the native CLI prints too). Positions are 1-based
for people ("item 3"), 0-based in ``.index`` for programs.
"""

from __future__ import annotations

from typing import Optional

from . import _core

__all__ = ["HeteropipeError"]

_TOKEN_CHARACTERS = 40


class HeteropipeError(ValueError):
    """Bad input: ``code`` (the core's snake_case name), ``field`` ("tau", "d",
    "M", "rho" or "T_real", or one of the planner's, such as "layer_times" or
    "model"), ``index`` (0-based item, or None for the whole
    field), ``value`` (the offending value, always finite), ``token`` (the
    offending text, for parser errors) and ``limit`` (the bound the value
    broke, or the expected count for ``wrong_length``; 0 when the code has
    none). ``errors`` lists every error the call found, this one first (a
    list of one when it is alone): ``heteropipe.plan`` reports each bad key of
    its input. A plan that no split fits (``memory_short``,
    ``no_feasible_split``, ``device_too_small`` on field ``"memory"``, values
    in bytes) also says what would fit: ``fits_quant``, the largest catalog
    quantization of the same model that fits ("" when none does), and
    ``fits_with_device``, the 0-based device of which one more at the end of
    the chain fits (None when none does). An error about a matrix
    (``service_matrix``, ``link_matrix``) has ``index`` its row (the
    micro-batch) and ``column`` its 0-based column (the stage, or the link),
    None for a whole row or the whole matrix; ``column`` is None on every
    other error. A trace file's error has the file's label in ``token``, and
    ``typed`` holds its value as typed when it has the wrong type (its JSON
    text: ``'"NaN"'``, ``'null'``, cut to 40 bytes); "" on every other error."""

    def __init__(self, code: str, field: str, index: Optional[int] = None, value: float = 0.0,
                 token: str = "", limit: float = 0.0, fits_quant: str = "",
                 fits_with_device: Optional[int] = None, column: Optional[int] = None, typed: str = "") -> None:
        self.code = code
        self.field = field
        self.index = index
        self.value = value
        self.token = token
        self.limit = limit
        self.fits_quant = fits_quant
        self.fits_with_device = fits_with_device
        self.column = column
        self.typed = typed
        self.errors = [self]
        super().__init__(_core.describe(code, field, index, value, token, limit, fits_quant, fits_with_device,
                                        column, typed))

    def __reduce__(self):
        return (type(self), (self.code, self.field, self.index, self.value, self.token, self.limit,
                             self.fits_quant, self.fits_with_device, self.column, self.typed))


def token_of(x) -> str:
    """What an error quotes of a bad argument: its repr, cut to 40 characters.
    Never fails: an int too long for repr (sys.get_int_max_str_digits) shows
    its leading digits, and an object whose repr raises shows its type."""
    try:
        text = repr(x)
    except Exception:
        text = None
    if not isinstance(text, str):
        try:
            text = _leading_digits(x) if isinstance(x, int) else None
        except Exception:
            text = None
    if text is None:
        text = f"<{type(x).__name__} object>"
    return text if len(text) <= _TOKEN_CHARACTERS else text[:_TOKEN_CHARACTERS] + "..."


def _leading_digits(n: int) -> str:
    """The first digits of a long int, enough to fill a token."""
    magnitude = abs(int(n))
    digits = int(magnitude.bit_length() * 0.30102999566398)  # at most its digit count
    head = magnitude // 10 ** max(digits - 2 * _TOKEN_CHARACTERS, 0)
    return ("-" if n < 0 else "") + str(head)
