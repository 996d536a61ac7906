"""The CLI's table and CSV views of what the core computed, laid out as the
native CLI lays them out."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, TextIO, Tuple

from . import _core
from ._format import exact, percent, readable

_LABEL_WIDTH = 50


def _row(out: TextIO, label: str, value: str) -> None:
    pad = " " * (_LABEL_WIDTH - len(label)) if len(label) < _LABEL_WIDTH else " "
    out.write(f"  {label}{pad}{value}\n")


def _list(values: Sequence[float]) -> str:
    return ", ".join(readable(v) for v in values) or "(none)"


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def _header(out: TextIO, a: Dict[str, Any]) -> None:
    stages = "stage" if a["S"] == 1 else "stages"
    batches = "micro-batch" if a["M"] == 1 else "micro-batches"
    out.write(f"heteropipe {_core.version}: S = {a['S']} {stages}, M = {a['M']} {batches}, "
              f"rho = {readable(a['rho'])}\n")
    out.write(f"  tau = {_list(a['tau'])}\n")
    out.write(f"  d   = {_list(a['d'])}\n")


def _makespans(out: TextIO, a: Dict[str, Any], recurrence: Optional[Tuple[float, float]]) -> None:
    out.write("\nMakespans (in the time unit of tau)\n")
    _row(out, "T_free   communication-free (Theorem 1)", readable(a["T_free"]))
    _row(out, "T_async  asynchronous sends (Theorem 2)", readable(a["T_async"]))
    _row(out, "T_block  blocking sends (Theorem 3)", readable(a["T_block"]))
    _row(out, "T_gpipe  homogeneous GPipe, (S+M-1) tau_max", readable(a["T_gpipe"]))
    if recurrence:
        _row(out, "T_async  by the exact recurrence", readable(recurrence[0]))
        _row(out, "T_block  by the exact recurrence", readable(recurrence[1]))
    _row(out, "GPipe overestimate (T_gpipe - T_async)/T_async", percent(a["gpipe_overestimate"]))


def _bias(out: TextIO, a: Dict[str, Any]) -> None:
    out.write("\nBias, phase transition, sandwich\n")
    _row(out, "homogeneity bias T_gpipe - T_free (Cor. 1)", readable(a["homogeneity_bias"]))
    note = "  (negative: GPipe underestimates)" if a["full_bias"] < 0 else ""
    _row(out, "full bias T_gpipe - T_async (Cor. 3)", readable(a["full_bias"]) + note)
    _row(out, "phase transition (Cor. 4)",
         "yes: communication enters the blocking slope" if a["phase_transition"] else "no")
    _row(out, "overlap gap T_block - T_async (Cor. 5)", readable(a["overlap_gap"]))
    _row(out, "overlap headroom (T_block > T_async)", _yes_no(a["overlap_headroom"]))
    _row(out, f"effective slope at rho = {readable(a['rho'])}", readable(a["effective_slope"]))


def _throughput(out: TextIO, a: Dict[str, Any]) -> None:
    out.write("\nThroughput and crossover\n")
    _row(out, "tau_max / sigma_max", f"{readable(a['tau_max'])} / {readable(a['sigma_max'])}")
    s, b = a["bottleneck_stage"], a["blocking_bottleneck_stage"]
    _row(out, "bottleneck stage, asynchronous", f"tau[{s}] = {readable(a['tau'][s])}")
    _row(out, "bottleneck stage, blocking", f"sigma[{b}] = {readable(a['sigma'][b])}")
    _row(out, "asymptotic throughput, async (Prop. 1)", readable(a["asymptotic_throughput_async"]) + " per time unit")
    _row(out, "asymptotic throughput, blocking (Prop. 1)",
         readable(a["asymptotic_throughput_blocking"]) + " per time unit")
    _row(out, "crossover M* (fill cost dominates below it)", readable(a["crossover_batches"]))


def _links(out: TextIO, a: Dict[str, Any]) -> None:
    out.write("\nLinks (slack = tau_max - tau[s], margin = slack - d[s]; margin < 0: past the phase transition)\n")
    if not a["link_slack"]:
        out.write("  none: a single stage\n")
        return

    def line(cells: Sequence[str], margin: str, past: bool) -> None:
        text = "  " + "".join(c + " " * (16 - len(c) if len(c) < 15 else 1) for c in cells) + margin
        out.write(text + ("   past the phase transition" if past else "") + "\n")

    line(("link", "d", "slack"), "margin", False)
    for s, (slack, margin) in enumerate(zip(a["link_slack"], a["link_margin"])):
        line((f"{s} -> {s + 1}", readable(a["d"][s]), readable(slack)), readable(margin), margin < 0)


def _measured(out: TextIO, a: Dict[str, Any]) -> None:
    if "T_real" not in a:
        return
    position = a["T_real_position"]
    out.write("\nMeasured makespan\n")
    _row(out, "T_real", readable(a["T_real"]))
    if position == "below_async":
        _row(out, "position", f"below T_async = {readable(a['T_async'])}")
    elif position == "inside":
        _row(out, "position", "inside the sandwich T_async <= T_real <= T_block")
    else:
        _row(out, "position", f"above T_block = {readable(a['T_block'])}")
    if "overlap_ratio" in a:
        note = ("  (1 = fully asynchronous, 0 = fully blocking)" if position == "inside"
                else "  (outside [0, 1]: T_real is outside the sandwich)")
        _row(out, "overlap ratio (T_block-T_real)/(T_block-T_async)", readable(a["overlap_ratio"]) + note)
    else:
        out.write("  No overlap headroom: T_block equals T_async, so the overlap ratio is undefined.\n")
    if position == "below_async":
        out.write("  No run of this pipeline can finish before T_async, so the inputs overstate the stage\n"
                  "  times (or the link latencies).\n")
    if position == "above_block":
        out.write("  The run broke the model's assumptions (for example bounded buffers, backpressure or\n"
                  "  contention on shared links): no schedule of this model is slower than T_block.\n")


def write_table(out: TextIO, a: Dict[str, Any], recurrence: Optional[Tuple[float, float]] = None) -> None:
    _header(out, a)
    _makespans(out, a, recurrence)
    _bias(out, a)
    _throughput(out, a)
    _links(out, a)
    _measured(out, a)


def write_timeline_csv(out: TextIO, t) -> None:
    out.write("micro_batch,stage,compute_start,compute_finish,transfer_start,transfer_finish\n")
    start, finish = t.compute_start.tolist(), t.compute_finish.tolist()
    sent, arrived = t.transfer_start.tolist(), t.transfer_finish.tolist()
    cell = transfer = 0
    for m in range(t.M):
        for s in range(t.S):
            row = f"{m},{s},{exact(start[cell])},{exact(finish[cell])},"
            if s + 1 < t.S:
                row += f"{exact(sent[transfer])},{exact(arrived[transfer])}"
                transfer += 1
            else:
                row += ","
            out.write(row + "\n")
            cell += 1


def write_curve_csv(out: TextIO, curve: Dict[str, Any]) -> None:
    out.write("M,T_free,T_async,T_block,T_gpipe,gpipe_overestimate\n")
    columns = [curve[k].tolist() for k in ("M", "T_free", "T_async", "T_block", "T_gpipe", "gpipe_overestimate")]
    for M, *values in zip(*columns):
        out.write(",".join([str(int(M))] + [exact(v) for v in values]) + "\n")
