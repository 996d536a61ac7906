"""The exact schedule as ``Pipeline.timeline`` returns it."""

from __future__ import annotations

from typing import Any, Dict


class Timeline:
    """Start and finish of every cell and transfer, as attributes named by
    the core's visitor (the same names as the JSON and the JS objects): ``S``,
    ``M``, ``regime``, ``makespan``, and the arrays ``utilization`` (per
    stage, the share of the makespan it is busy), ``compute_start``,
    ``compute_finish``, ``transfer_start``, ``transfer_finish``. Cell (m, s) is
    at ``m*S + s``; transfer (m, s) -> s+1 at ``m*(S-1) + s``. The arrays are
    read-only float64 buffers (memoryview, ``numpy.asarray``) with
    ``tolist()``. ``as_dict()`` gives every field in the visitor's order."""

    __slots__ = ("_fields",)

    def __init__(self, fields: Dict[str, Any]) -> None:
        object.__setattr__(self, "_fields", dict(fields))

    def __getattr__(self, name: str) -> Any:
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError(f"Timeline has no field {name!r}") from None

    def __setattr__(self, name, value):
        raise AttributeError(f"Timeline is immutable; cannot set {name!r}")

    def __dir__(self):
        return list(self._fields) + ["as_dict"]

    def as_dict(self) -> Dict[str, Any]:
        return dict(self._fields)

    def __repr__(self) -> str:
        f = self._fields
        return f"<Timeline {f['regime']} S={f['S']} M={f['M']}>"
