"""heteropipe: exact makespans, the GPipe homogeneity bias, the communication
phase transition and the async-blocking sandwich for heterogeneous
micro-batch pipelines, computed by a C++ core.

>>> from heteropipe import Pipeline
>>> Pipeline(tau=[1.13, 2.90, 2.62]).bias()
2.05

The API of the reference implementation (``Pipeline`` and the pure functions
of ``heteropipe.core``) works unchanged; bad input raises
:class:`HeteropipeError`, a ``ValueError`` that carries the core's error code,
field and position.
"""

from __future__ import annotations

import decimal
import json
import math
import numbers
import os
from collections import abc
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _core, _inputs, core
from ._errors import HeteropipeError, token_of
from .core import (
    __version__,
    asymptotic_throughput,
    blocking_sigma,
    crossover_batches,
    effective_slope,
    full_bias_decomposition,
    gpipe_makespan,
    homogeneity_bias,
    makespan_async,
    makespan_blocking,
    makespan_free,
    overlap_gap,
    overlap_ratio,
    phase_transition,
    validate_pipeline,
)
from .pipeline import Pipeline

#: An analysis's per-stage lists: read-only sequences of floats that read the
#: result's memory in place, equal to the lists of their values.
FloatSequence = _core.FloatSequence
abc.Sequence.register(FloatSequence)

#: The limits the core enforces (stages, values, batches, timeline cells, ...).
LIMITS: Dict[str, float] = dict(_core.limits)

__all__ = [
    "FloatSequence",
    "LIMITS",
    "Pipeline",
    "analyze",
    "catalog",
    "import_trace",
    "model_info",
    "plan",
    "parse_number_list",
    "parse_number",
    "read_request",
    *core.__all__,
]


def analyze(tau: Sequence[float], d: Optional[Sequence[float]] = None, M: int = 8,
            rho: float = 1.0, T_real: Optional[float] = None, *, lists: bool = True) -> Dict[str, Any]:
    """Every quantity at once, as ``heteropipe --json`` prints it
    (the five per-stage lists as :class:`FloatSequence` s; ``lists=False``:
    without them)."""
    measured = None if T_real is None else _inputs.real(T_real, "T_real")
    try:
        return _core.analyze(tau, d, _inputs.batches(M), _inputs.real(rho, "rho"), measured, bool(lists))
    except HeteropipeError as e:
        given = _inputs.items_as_given(e, {"tau": tau, "d": d})
        if given is e:
            raise
        raise given from None


def parse_number_list(text: str, field: str = "tau") -> List[float]:
    """The core's shared list parser: commas, blanks, semicolons, the
    full-width comma and semicolon and the ideographic comma; errors name the item. Text
    may be a str or UTF-8 bytes; a list, a tuple or a buffer of numbers is
    read as ``Pipeline`` reads it."""
    return _core.parse_number_list(text, field)


def parse_number(text: str, field: str) -> float:
    """One number typed as text (for M, rho or T_real), same grammar. A real
    number given as such is taken as it is (no range is checked here)."""
    if isinstance(text, (str, bytes, bytearray)):
        return _core.parse_number(text, field)
    _core.parse_number("0", field)  # an unknown field is refused first
    return _inputs.real(text, field)


def read_request(tau: str, d: str = "", M: str = "8", rho: str = "1",
                 T_real: Optional[str] = None) -> Dict[str, Any]:
    """A request as typed in the CLI or the pages: ``{"request": ..., "errors":
    [...]}`` with every error of the text (at most one per field), each with
    its code, field, index, value, limit, token and English message. Each
    argument is text (a str or UTF-8 bytes); T_real None means not given."""
    read = _core.read_request(tau, d, M, rho, T_real)
    for error in read["errors"]:  # a whole-field error has no item, as HeteropipeError.index says
        if error["index"] < 0:
            error["index"] = None
    return read


def _json_key(key: Any) -> str:
    """A dict key as json.dumps writes it."""
    if isinstance(key, str):
        return key
    if key is True or key is False or key is None or isinstance(key, (int, float)):
        return json.dumps(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _rational_digits(item: numbers.Rational) -> str:
    """A fraction float() cannot hold (past the double range, or turned into 0) as 17 significant digits, with
    no bound on the exponent, for the core to judge as typed."""
    context = decimal.Context(prec=17, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)
    quotient = context.divide(decimal.Decimal(item.numerator), decimal.Decimal(item.denominator))
    return str(quotient.normalize(context))


def _json_text(value: Any) -> str:
    """The value as JSON text, as json.dumps writes it, but by a loop, not
    recursion, so that a value nested any depth becomes text (and the core
    names the field it is in) rather than a RecursionError. JSON has no NaN or
    infinity: they travel as "NaN", "Infinity" and "-Infinity", which the
    core's reader takes as those values and its checks then refuse, naming the
    field. A container inside itself is json.dumps's ValueError."""
    parts: List[str] = []
    open_ids = set()
    todo: List[Tuple[int, Any]] = [(0, value)]  # 0: a value, 1: text as it is, 2: a container's end
    while todo:
        kind, item = todo.pop()
        if kind == 1:
            parts.append(item)
        elif kind == 2:
            open_ids.discard(item)
        elif isinstance(item, (bool, str)) or item is None:
            parts.append(json.dumps(item))
        elif _inputs._is_bool(item):  # numpy's bool, no int
            parts.append("true" if item else "false")
        elif isinstance(item, numbers.Integral):  # numpy's integers too, which json cannot write
            parts.append(str(int(item)))
        elif isinstance(item, decimal.Decimal) and item.is_finite():
            # Its own digits, which JSON's grammar takes (1E-400, -0, 1.50): the core reads and judges them as
            # typed, where float() would turn 1E-400 into 0 and 1E+400 into infinity before any check.
            parts.append(str(item))
        elif isinstance(item, numbers.Real) or _inputs._is_number_like(item):
            try:
                x = float(item)
            except Exception as e:  # a number type whose conversion fails: named by its key as the wrong type,
                # but a fraction past the double range (Fraction(10**400)) as its digits, too_large as a Decimal's.
                rational = isinstance(e, OverflowError) and isinstance(item, numbers.Rational)
                parts.append(_rational_digits(item) if rational else json.dumps(token_of(item)))
                continue
            if x == 0 and isinstance(item, numbers.Rational) and item != 0:
                # A fraction float() turns into 0 (1/10**400): as its digits, which the core refuses as too small.
                parts.append(_rational_digits(item))
                continue
            parts.append(json.dumps(x) if math.isfinite(x) else
                         '"NaN"' if x != x else ('"Infinity"' if x > 0 else '"-Infinity"'))
        elif getattr(item, "ndim", 0) >= 1 and hasattr(item, "tolist"):  # a numpy array: its items as a list
            todo.append((0, item.tolist()))
        elif isinstance(item, (dict, list, tuple, FloatSequence)):
            if id(item) in open_ids:
                raise ValueError("Circular reference detected")
            open_ids.add(id(item))
            steps: List[Tuple[int, Any]] = [(2, id(item))]
            if isinstance(item, dict):
                steps.append((1, "}"))
                for k, (key, member) in enumerate(reversed(list(item.items()))):
                    steps += [(0, member), (1, ("" if k == len(item) - 1 else ", ") + json.dumps(_json_key(key)) + ": ")]
                steps.append((1, "{"))
            else:
                steps.append((1, "]"))
                members = list(item)
                for k, member in enumerate(reversed(members)):
                    steps += [(0, member)] + ([(1, ", ")] if k < len(members) - 1 else [])
                steps.append((1, "["))
            todo += steps
        else:
            # What JSON has no form for (a Decimal, a class): its text as a string, which the core refuses
            # as the wrong type of value, naming the key it is under.
            try:
                parts.append(json.dumps(item))
            except (TypeError, ValueError):
                parts.append(json.dumps(token_of(item)))
    return "".join(parts)


def plan(input: Union[str, bytes, Dict[str, Any]]) -> Dict[str, Any]:
    """The planner's report, as ``heteropipe plan --json`` prints it, for its
    JSON input given as text or as a dict: the explicit form ``{devices:
    [{layer_times, memory_capacity}], layer_memory, links, cut_bytes, M,
    objective, order, allow_idle_devices}`` or the estimate form ``{model,
    quant, devices, links, phase, tokens, context, M, objective, order,
    allow_idle_devices}`` (docs/planner.md), where ``"model"`` may
    also be the dict :func:`model_info` returns, or ``"gguf": PATH`` (from the
    current directory) may stand for model and quant. Bad input raises
    :class:`HeteropipeError` naming the field; its ``errors`` list every bad
    key of the input."""
    text = input if isinstance(input, (str, bytes, bytearray)) else _json_text(input)
    return _core.plan(text)


def model_info(path: Union[str, "os.PathLike[str]"]) -> Dict[str, Any]:
    """A GGUF file's facts, as ``heteropipe model --json`` prints them, read
    from its header and tensor table alone (never its weights): architecture,
    name, layers, nextn_predict_layers, n_embd, n_head, n_head_kv, context_length, expert_count,
    expert_used_count, key_length, value_length, feed_forward_length,
    vocab_size, sliding_window, the per-layer lists sliding_layers,
    attention_layers, kv_layers, recurrent_layers, layer_bytes,
    active_layer_bytes and
    active_layer_params, embedding_bytes, output_bytes,
    kv_bytes_per_token and recurrent_bytes_per_sequence (docs/planner.md#gguf-files). The dict is what
    :func:`plan` takes as ``"model"``. A file that is no GGUF file, or is cut
    short, raises :class:`HeteropipeError` with the byte offset as ``index``;
    one that cannot be read raises :class:`OSError`."""
    return _core.model_info(os.fspath(path))


def catalog() -> Dict[str, Any]:
    """The estimator's catalog: ``{gpus, models, quants, links}``, each entry
    a dict of its facts and its ``source``."""
    return _core.catalog()


TraceSource = Union[str, "os.PathLike[str]", "os.PathLike[bytes]", bytes, bytearray, memoryview]


def import_trace(sources: Union[TraceSource, Sequence[TraceSource]], *, stat: str = "p50", unit: str = "ms",
                 stage_order: Union[None, str, Sequence[int]] = None, compute: str = "", transfer: str = "",
                 microbatch: str = "", clock_offsets: Union[None, str, Sequence[float]] = None,
                 profiler_step: Optional[int] = None) -> Dict[str, Any]:
    """tau, d, M and T_real recovered from profiler traces (Chrome trace-event
    JSON, ``.json.gz``, one file per rank) or a schedule CSV, as
    ``heteropipe trace --json`` prints them. ``sources``: a path, the bytes of
    one file, or a list of either (docs/traces.md). A directory's path stands
    for its ``*.json`` and ``*.json.gz`` files in sorted name order, JSON
    that is no trace (a run's own record beside them) left out; one that
    holds none is a coded ``HeteropipeError`` (``empty`` on ``trace``). ``stage_order`` and
    ``clock_offsets``: lists of numbers, or text as the CLI's ``--stage-order``
    and ``--clock-offsets`` take it (``"2,1,0"``); a bad item is a coded
    ``HeteropipeError``. ``profiler_step``: the N of the ``ProfilerStep#N``
    to import when the files hold several (``None``: the first; the warning
    ``profiler_steps`` says how many there were), as ``--profiler-step``; a
    step of another profiler window (a repeating schedule's file per rank per
    cycle, the warning ``profiler_windows``) imports that window's files.

    With a pipeline, ``replay`` holds the exact makespans of the run's own
    spans and transfer times under async and blocking links, ``explain`` the
    parts of T_real (a list of ``{"cause", "time"}``: model, variability,
    blocking, other, summing to T_real) and ``overlap_ratio_replay`` the
    overlap ratio net of variability (absent when the replays are equal).
    ``clock_offset_bounds`` is a list indexed by link of ``[lo, hi]``: the
    receiver's clock offset against the sender's lies at least at ``lo`` and at
    most at ``hi``, which is ``None`` when nothing bounds it from above.
    Without a pipeline, ``reason`` and ``reason_message`` say why; with
    ``no_microbatch_ranges`` (``microbatch`` matched no range of some stage),
    ``range_names`` lists the names those stages' ranges go by, the most
    frequent forms first (``{"name", "count"}``, digits aside), which the
    message ends with."""
    # A name or pattern of another type is refused by its keyword, not by the binding's signature.
    for keyword, value in (("stat", stat), ("unit", unit), ("compute", compute), ("transfer", transfer),
                           ("microbatch", microbatch)):
        if not isinstance(value, str):
            raise TypeError(f"import_trace: {keyword} must be a str (got {value!r})")
    if isinstance(sources, (str, os.PathLike, bytes, bytearray, memoryview)):
        sources = [sources]

    def read(path: str) -> bytes:
        with open(path, "rb") as f:
            try:
                # Up to one byte past the limit, which the core refuses as too_long: an endless
                # file (/dev/zero, a FIFO) was read into all of memory, as the CLI's was.
                return f.read(int(LIMITS["max_trace_bytes"]) + 1)
            except OSError as e:
                # A read that fails once the file is open (EIO) names no file, where open's failures
                # and the CLI's "FILE: cannot be read (...)" do; a directory's member was then unnamed.
                raise OSError(e.errno, e.strerror, path) from e

    # Each path's label is its file-system bytes (os.fsencode), as the CLI's is the bytes it was given:
    # a name that is no UTF-8 (a str of os.listdir's surrogate escapes, or a path given as bytes by
    # an os.PathLike) is read, and an error's token gives it back as os.fsdecode gives it.
    files: List[Any] = []
    for number, source in enumerate(sources):
        if isinstance(source, (bytes, bytearray, memoryview)):
            files.append((f"(bytes {number + 1})", bytes(source)))
            continue
        path = os.fsdecode(os.fspath(source))
        if not os.path.isdir(path):
            files.append((os.fsencode(path), read(path)))
            continue
        # A directory stands for its trace files, as the CLI's does: the core
        # picks and orders them by name and leaves out JSON that is no trace.
        names = [name for name in os.listdir(path) if os.path.isfile(os.path.join(path, name))]
        members = [os.path.join(path, name) for name in _core.trace_directory_files(names)]
        files.append((os.fsencode(path), [(os.fsencode(member), read(member)) for member in members]))
    try:
        return _core.import_trace(files, stat, unit, stage_order, compute, transfer, microbatch, clock_offsets,
                                  profiler_step)
    except HeteropipeError as e:
        given = _inputs.items_as_given(e, {"stage_order": stage_order, "clock_offsets": clock_offsets})
        if given is e:
            raise
        raise given from None
