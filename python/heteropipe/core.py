"""The reference's pure functions, same names and signatures, computed by the
C++ core.

Each call validates ``tau`` and ``d`` (S-1 link latencies, zero when omitted)
and raises :class:`heteropipe.HeteropipeError` (a ValueError) on bad input.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from . import _core, _inputs
from ._errors import HeteropipeError

__version__ = _core.version

__all__ = [
    "__version__",
    "HeteropipeError",
    "validate_pipeline",
    "blocking_sigma",
    "makespan_free",
    "makespan_async",
    "makespan_blocking",
    "gpipe_makespan",
    "homogeneity_bias",
    "full_bias_decomposition",
    "phase_transition",
    "overlap_gap",
    "effective_slope",
    "overlap_ratio",
    "asymptotic_throughput",
    "crossover_batches",
]

Numbers = Sequence[float]


def _pipeline(tau, d=None) -> _core.Pipeline:
    try:
        return _core.Pipeline(tau, d)
    except HeteropipeError as e:
        given = _inputs.items_as_given(e, {"tau": tau, "d": d})
        if given is e:
            raise
        raise given from None


def validate_pipeline(tau: Numbers, d: Optional[Numbers] = None) -> Tuple[List[float], List[float]]:
    """``(tau, d)`` as lists of floats, ``d`` zero-filled to S-1 values."""
    p = _pipeline(tau, d)
    return p.tau, p.d


def blocking_sigma(tau: Numbers, d: Optional[Numbers] = None) -> List[float]:
    """Per-stage busy time under blocking: ``tau[s] + d[s]``, last stage ``tau[S-1]``."""
    return _pipeline(tau, d).sigma


def makespan_free(tau: Numbers, M: int) -> float:
    """Theorem 1: ``(M-1)*tau_max + sum(tau)``."""
    p = _pipeline(tau)
    return p.makespan_free(_inputs.batches(M))


def makespan_async(tau: Numbers, M: int, d: Optional[Numbers] = None) -> float:
    """Theorem 2: ``sum(tau) + sum(d) + (M-1)*tau_max``."""
    p = _pipeline(tau, d)
    return p.makespan_async(_inputs.batches(M))


def makespan_blocking(tau: Numbers, M: int, d: Optional[Numbers] = None) -> float:
    """Theorem 3: ``(M-1)*sigma_max + sum(sigma)``."""
    p = _pipeline(tau, d)
    return p.makespan_blocking(_inputs.batches(M))


def gpipe_makespan(tau: Numbers, M: int) -> float:
    """The classic homogeneous GPipe formula ``(S+M-1)*tau_max``."""
    p = _pipeline(tau)
    return p.makespan_gpipe(_inputs.batches(M))


def homogeneity_bias(tau: Numbers) -> float:
    """Corollary 1: ``sum(tau_max - tau[j])``, constant in M."""
    return _pipeline(tau).homogeneity_bias()


def full_bias_decomposition(tau: Numbers, d: Optional[Numbers] = None) -> float:
    """Corollary 3: ``T_gpipe - T_async = sum(tau_max - tau[j]) - sum(d)``."""
    return _pipeline(tau, d).full_bias()


def phase_transition(tau: Numbers, d: Optional[Numbers] = None) -> bool:
    """Corollary 4: True iff some ``d[s] > tau_max - tau[s]``."""
    return _pipeline(tau, d).phase_transition()


def overlap_gap(tau: Numbers, M: int, d: Optional[Numbers] = None) -> float:
    """Corollary 5: ``T_block - T_async = (M-1)*(sigma_max - tau_max)``."""
    p = _pipeline(tau, d)
    return p.overlap_gap(_inputs.batches(M))


def effective_slope(tau: Numbers, rho: float = 1.0, d: Optional[Numbers] = None) -> float:
    """Steady-state slope ``tau_max + (1-rho)*(sigma_max - tau_max)``, rho in [0, 1]."""
    p = _pipeline(tau, d)
    return p.effective_slope(_inputs.real(rho, "rho"))


def overlap_ratio(tau: Numbers, T_real: float, M: int, d: Optional[Numbers] = None,
                  *, strict: bool = False) -> float:
    """Measured ``rho = (T_block - T_real) / (T_block - T_async)``.

    Like the reference, returns 1.0 when there is no overlap headroom
    (T_block == T_async); with ``strict=True`` that case raises
    HeteropipeError(code="no_overlap_headroom") instead.
    """
    p = _pipeline(tau, d)
    T = _inputs.real(T_real, "T_real")
    ratio = p.overlap_ratio(_inputs.batches(M), T)
    if ratio is not None:
        return ratio
    if strict:
        raise HeteropipeError("no_overlap_headroom", "T_real", None, T, "")
    return 1.0


def asymptotic_throughput(tau: Numbers, d: Optional[Numbers] = None, blocking: bool = False) -> float:
    """Proposition 1: ``1/tau_max`` (async) or ``1/sigma_max`` (blocking)."""
    p = _pipeline(tau, d)
    return p.asymptotic_throughput_blocking() if blocking else p.asymptotic_throughput_async()


def crossover_batches(tau: Numbers, d: Optional[Numbers] = None) -> float:
    """``M* = 1 + (sum(tau) + sum(d)) / tau_max``."""
    return _pipeline(tau, d).crossover_batches()
