"""JSON text exactly as the native CLI writes it (nlohmann::json dump(2)):
shortest round-trip floats, integral floats with ".0", and scientific
notation from 1e15 up (Python's repr switches only at 1e16)."""

from __future__ import annotations

import json
import math
from decimal import Decimal
from typing import Any, Dict, List


def number(x: float) -> str:
    text = repr(x)
    if "e" in text or abs(x) < 1e15:
        return text
    sign, digits, exponent = Decimal(text).normalize().as_tuple()
    mantissa = "".join(map(str, digits))
    power = exponent + len(mantissa) - 1
    body = mantissa[0] + ("." + mantissa[1:] if len(mantissa) > 1 else "")
    return ("-" if sign else "") + f"{body}e+{power:02d}"


def _value(v: Any, indent: str) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError("the core never returns NaN or infinity")
        return number(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, (list, tuple)):
        return _list(list(v), indent)
    raise TypeError(f"cannot write {type(v).__name__} as JSON")


def _list(values: List[Any], indent: str) -> str:
    if not values:
        return "[]"
    inner = indent + "  "
    return "[\n" + ",\n".join(inner + _value(v, inner) for v in values) + "\n" + indent + "]"


def dumps(obj: Dict[str, Any]) -> str:
    if not obj:
        return "{}"
    lines = [f"  {json.dumps(k)}: {_value(v, '  ')}" for k, v in obj.items()]
    return "{\n" + ",\n".join(lines) + "\n}"
