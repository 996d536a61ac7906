"""``Pipeline``: the reference's object API over the C++ core, plus the exact
schedule engine (recurrence and timeline)."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple

from . import _core, _inputs
from ._errors import HeteropipeError
from ._timeline import Timeline


class Pipeline:
    """A chain of ``S`` stages with service times ``tau`` and optional link
    latencies ``d`` (S-1 values, zero when omitted). Immutable; validated once.

    ``tau`` and ``d`` may be sequences of numbers, buffers of numbers
    (``array('d')``, numpy arrays, ``memoryview``: read without a Python
    object per item), or text such as ``"0.5, 1, 1, 5"``, as ``str`` or as
    UTF-8 ``bytes`` (read by the core's shared parser).
    """

    __slots__ = ("_core", "_tau", "_d")

    def __init__(self, tau: Sequence[float], d: Optional[Sequence[float]] = None) -> None:
        try:
            core = _core.Pipeline(tau, d)
        except HeteropipeError as e:
            given = _inputs.items_as_given(e, {"tau": tau, "d": d})
            if given is e:
                raise
            raise given from None
        object.__setattr__(self, "_core", core)
        # The tuples are made on first use: a million stages cost no Python
        # objects until someone asks for them.
        object.__setattr__(self, "_tau", None)
        object.__setattr__(self, "_d", None)

    def __setattr__(self, name, value):
        raise AttributeError(f"Pipeline is immutable; cannot set {name!r}")

    # ---- structure ------------------------------------------------------
    @property
    def tau(self) -> Tuple[float, ...]:
        if self._tau is None:
            object.__setattr__(self, "_tau", tuple(self._core.tau))
        return self._tau

    @property
    def d(self) -> Tuple[float, ...]:
        if self._d is None:
            object.__setattr__(self, "_d", tuple(self._core.d))
        return self._d

    @property
    def S(self) -> int:
        return self._core.S

    @property
    def tau_max(self) -> float:
        return self._core.tau_max

    @property
    def sigma(self) -> Tuple[float, ...]:
        return tuple(self._core.sigma)

    @property
    def sigma_max(self) -> float:
        return self._core.sigma_max

    @property
    def bottleneck_stage(self) -> int:
        return self._core.bottleneck_stage

    @property
    def blocking_bottleneck_stage(self) -> int:
        return self._core.blocking_bottleneck_stage

    # ---- makespans ------------------------------------------------------
    def free(self, M: int) -> float:
        """Theorem 1: communication-free makespan."""
        return self._core.makespan_free(_inputs.batches(M))

    def async_(self, M: int) -> float:
        """Theorem 2: asynchronous-communication makespan."""
        return self._core.makespan_async(_inputs.batches(M))

    def blocking(self, M: int) -> float:
        """Theorem 3: blocking-communication makespan."""
        return self._core.makespan_blocking(_inputs.batches(M))

    def block(self, M: int) -> float:
        """The former name of ``blocking``, still read."""
        return self.blocking(M)

    def gpipe(self, M: int) -> float:
        """The classic homogeneous formula ``(S+M-1)*tau_max``."""
        return self._core.makespan_gpipe(_inputs.batches(M))

    # ---- corollaries and propositions ---------------------------------
    def bias(self) -> float:
        """Corollary 1: the constant GPipe homogeneity bias."""
        return self._core.homogeneity_bias()

    def full_bias(self) -> float:
        """Corollary 3: homogeneity bias minus total link latency."""
        return self._core.full_bias()

    def phase(self) -> bool:
        """Corollary 4: True iff communication enters the blocking slope."""
        return self._core.phase_transition()

    def overlap_gap(self, M: int) -> float:
        """Corollary 5: ``T_block - T_async``, the most overlap can gain."""
        return self._core.overlap_gap(_inputs.batches(M))

    def slope(self, rho: float = 1.0) -> float:
        """Effective steady-state slope under overlap ratio ``rho``."""
        return self._core.effective_slope(_inputs.real(rho, "rho"))

    def throughput(self, blocking: bool = False) -> float:
        """Proposition 1: asymptotic micro-batches per time unit."""
        if blocking:
            return self._core.asymptotic_throughput_blocking()
        return self._core.asymptotic_throughput_async()

    def crossover(self) -> float:
        """``M*``: below it the pipeline fill dominates the makespan."""
        return self._core.crossover_batches()

    def overestimate(self, M: int) -> float:
        """GPipe's relative overestimate ``(T_gpipe - T_async) / T_async``."""
        return self._core.gpipe_overestimate(_inputs.batches(M))

    def overlap_ratio(self, T_real: float, M: int, *, strict: bool = False) -> float:
        """Measured overlap ratio from an observed makespan ``T_real``.

        Returns 1.0 when T_block == T_async, as the reference does; with
        ``strict=True`` that case raises (code ``no_overlap_headroom``).
        """
        T = _inputs.real(T_real, "T_real")
        ratio = self._core.overlap_ratio(_inputs.batches(M), T)
        if ratio is not None:
            return ratio
        if strict:
            raise HeteropipeError("no_overlap_headroom", "T_real", None, T, "")
        return 1.0

    def sandwich_position(self, T_real: float, M: int) -> str:
        """Where T_real sits: "below_async", "inside" or "above_block"."""
        return self._core.sandwich_position(_inputs.batches(M), _inputs.real(T_real, "T_real"))

    # ---- everything at once -------------------------------------------
    def analyze(self, M: int, rho: Optional[float] = None, T_real: Optional[float] = None, *,
                lists: bool = True) -> Dict[str, Any]:
        """Every quantity at ``M``, keyed and ordered as the CLI's ``--json``.

        ``rho`` (default 1) sets the effective slope; with ``T_real`` the dict
        also holds ``T_real``, ``overlap_ratio`` (absent without overlap
        headroom) and ``T_real_position``. The five per-stage lists (``tau``,
        ``d``, ``sigma``, ``link_slack``, ``link_margin``) are read-only
        :class:`heteropipe.FloatSequence` s over the result's memory (the
        derived three computed from the pipeline as they are read), equal to
        the lists of their values; ``lists=False`` leaves them out, as the JS
        API's ``{lists: false}`` does.
        """
        batches = _inputs.batches(M)
        ratio = 1.0 if rho is None else _inputs.real(rho, "rho")
        measured = None if T_real is None else _inputs.real(T_real, "T_real")
        return self._core.analyze(batches, ratio, measured, bool(lists))

    # ---- exact schedule engine ----------------------------------------
    def recurrence(self, M: int, regime: str = "async") -> float:
        """Makespan by the exact recurrence (O(S) memory), for checking the closed forms.

        Runs without the GIL, as do ``timeline`` and building a large pipeline:
        other Python threads go on meanwhile."""
        return self._core.recurrence_makespan(_inputs.batches(M), _inputs.regime(regime))

    def timeline(self, M: int, regime: str = "async") -> Timeline:
        """Start and finish of every cell and transfer; arrays support memoryview and ``tolist()``.

        Cell (m, s) is at ``m*S + s``; transfer (m, s) -> s+1 at ``m*(S-1) + s``.
        """
        return Timeline(self._core.timeline(_inputs.batches(M), _inputs.regime(regime)))

    def curve(self, M: int, points: int = 200) -> Dict[str, Any]:
        """Closed-form makespans over M = 1 .. max(M, 2*M*): about ``points``
        values of M, evenly spaced, plus M and the first integer at or above
        M*. ``points`` is an int in [2, 10,000], as the CLI's ``--curve``
        takes; outside that range it is refused (code ``out_of_range``),
        never clamped."""
        return self._core.curve(_inputs.batches(M), _inputs.points(points))

    # ---- beyond the closed forms ----------------------------------------
    def simulate(self, M: int = 8, *, links: str = "async", shared=None, buffers=None,
                 service="deterministic", link_service="deterministic", service_matrix=None,
                 link_matrix=None, service_samples=None, quantiles: bool = False, service_probabilities=None,
                 scaled: bool = False, reps: int = 1,
                 seed: int = 0, timeline: bool = False) -> Dict[str, Any]:
        """The exact simulation with bounded buffers, link servers, shared links and
        random service times, over ``reps`` replications (docs/simulation.md).

        Keyed and ordered as ``heteropipe simulate --json``, with the same numbers
        for the same arguments (the same seed gives the same bits).

        ``links``: "async", "blocking" or "serial" ("delay" and "block", the former
        names, are still read). ``shared``: groups of links on one
        medium, as ``[[0, 1], [2, 3]]`` or the CLI's text ``"0,1;2,3"``.
        ``buffers``: None (all infinite), one number for every link, or S-1 values
        (an empty list or text is refused, not read as none);
        ``float('inf')`` or ``"inf"`` in a text list is infinite. ``service`` and
        ``link_service``: "deterministic", "exponential", "lognormal:cv=X",
        "gamma:cv=X" or "uniform:spread=X", or a list of them, one per stage (or
        link), a CV or spread below ``LIMITS["min_cv"]`` drawing exactly the mean.
        ``service_matrix``: M rows of S measured times, replayed (an empty one is refused).
        ``link_matrix``: M rows of S-1 measured transfer times, replayed in place of
        ``link_service`` (an empty one is refused; a time may be 0).
        ``service_samples``: S lists of measured times, drawn with equal chance
        (``quantiles=True``: quantiles at evenly spaced probabilities,
        interpolated linearly; ``service_probabilities``: the probabilities of
        every stage's quantiles instead, one per value, strictly increasing
        within [0, 1], the quantile function flat outside them);
        ``scaled=True`` scales each stage's to mean tau.
        ``timeline=True`` adds replication 0's schedule, its arrays as
        ``Float64Array`` buffers (and so every array of the result).
        """
        try:
            return self._core.simulate(_inputs.batches(M), _inputs.name(links, "link_mode"), shared, buffers,
                                       service, link_service, service_matrix, link_matrix, service_samples,
                                       bool(quantiles),
                                       service_probabilities, bool(scaled), _inputs.whole(reps, "reps"),
                                       _inputs.whole(seed, "seed"), bool(timeline))
        except HeteropipeError as e:
            given = _inputs.as_given(e, {"reps": reps, "seed": seed})
            given = _inputs.items_as_given(given, {
                "buffers": buffers, "shared": shared, "service_matrix": service_matrix, "link_matrix": link_matrix,
                "service_samples": service_samples, "service_probabilities": service_probabilities})
            if given is e:
                raise
            raise given from None

    # ---- value semantics ------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pipeline):
            return NotImplemented
        return self._core.same_stages(other._core)

    def __hash__(self) -> int:
        return hash((self.tau, self.d))

    def __repr__(self) -> str:
        return (f"Pipeline(S={self.S}, tau={list(self.tau)}, d={list(self.d)}, "
                f"tau_max={self.tau_max}, sigma_max={self.sigma_max})")
