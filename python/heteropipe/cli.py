"""``heteropipe`` / ``python -m heteropipe``: the native CLI's options and
output (table, --json, --T-real, --recurrence, --timeline, --curve), computed
by the C++ core. Bad input: one "error:" line per bad field on stderr,
nothing on stdout, exit status 2."""

from __future__ import annotations

import argparse
import io
import sys
from typing import List, Optional, Sequence

from . import _core, _json
from ._errors import HeteropipeError
from ._report import write_curve_csv, write_table, write_timeline_csv

EXIT_OK, EXIT_OUTPUT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
_VALUE_OPTIONS = {"--tau", "--d", "--M", "--rho", "--T-real", "--T_real", "--timeline", "--curve"}

_FOOTER = """\
Lists accept commas, blanks, semicolons and the Chinese commas (U+FF0C, U+3001):
  --tau 1.13,2.90,2.62   --tau "0.5 1 1 5"   --tau "0.5，1，1，5"
Values: tau and d in [0, 1e15] (one time unit for all), the largest tau at least
1e-15, at most 10,000,000 stages; M a whole number in [1, 2^53]; rho in [0, 1]; T_real in (0, 1e15].
--timeline holds at most 2,000,000 cells (M x S); --recurrence visits at most
10,000,000,000.

Exit status: 0 success; 2 bad input or usage (one "error:" line per bad field on
stderr, nothing on stdout); 1 the output could not be written.

Examples:
  heteropipe --tau 1.13,2.90,2.62 --M 100
  heteropipe --tau 0.5,1,1,5 --d 0.2,0.1,0.3 --M 32 --rho 0.8 --json
  heteropipe --tau 0.5,1,1,5 --d 0.2,0.1,0.3 --M 16 --T-real 42
  heteropipe --tau 0.5,1,1,5 --M 3 --timeline blocking
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors: one line, exit 2, as the native CLI
        sys.stderr.write(f"error: {message}\n")
        raise SystemExit(EXIT_BAD_INPUT)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="heteropipe",
                description="Exact makespans, GPipe homogeneity bias, phase transition and async-blocking "
                            "sandwich for heterogeneous micro-batch pipelines.",
                epilog=_FOOTER, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"heteropipe {_core.version}")
    p.add_argument("--tau", required=True, metavar="LIST",
                   help="service time of each stage per micro-batch (S values)")
    p.add_argument("--d", default="", metavar="LIST",
                   help="latency of each link s -> s+1 (S-1 values; all 0 when omitted)")
    p.add_argument("--M", default="8", metavar="INT", help="number of micro-batches (default 8)")
    p.add_argument("--rho", default="1", metavar="X",
                   help="overlap ratio for the effective slope: 1 async, 0 blocking (default 1)")
    p.add_argument("--T-real", "--T_real", dest="T_real", default=None, metavar="X",
                   help="measured makespan: report the overlap ratio and where it sits in the sandwich")
    p.add_argument("--json", action="store_true", help="print every field as one JSON object instead of the table")
    p.add_argument("--recurrence", action="store_true",
                   help="also compute both makespans by the exact recurrence (O(M x S) time)")
    p.add_argument("--timeline", choices=("async", "blocking"), metavar="REGIME",
                   help="print the exact schedule of every (micro-batch, stage) cell as CSV (async or blocking)")
    p.add_argument("--curve", type=int, metavar="N",
                   help="print the closed-form makespans as CSV at about N values of M from 1 to "
                        "max(M, 2 ceil(M*)), always including 1, M and ceil(M*)")
    return p


def _glue_values(argv: Sequence[str]) -> List[str]:
    """``--tau -1,2``: the value of a value option is the next word, even when
    it starts with '-' (argparse would take it for an option)."""
    out, i = [], 0
    while i < len(argv):
        word = argv[i]
        if word in _VALUE_OPTIONS and i + 1 < len(argv):
            out.append(f"{word}={argv[i + 1]}")
            i += 2
            continue
        out.append(word)
        i += 1
    return out


def _read_request(args):
    """The typed options as the core reads them: the request and every error,
    at most one per field, in field order."""
    return _core.read_request(args.tau, args.d, args.M, args.rho, args.T_real)


def _print_errors(errors: Sequence[HeteropipeError]) -> int:
    for e in errors:
        sys.stderr.write(f"error: {e}\n")
    return EXIT_BAD_INPUT


def _run(args) -> int:
    request, errors = _read_request(args)
    if errors:
        return _print_errors(errors)
    pipeline = _core.Pipeline(request["tau"], request["d"])
    M, out = request["M"], io.StringIO()
    try:
        if args.timeline:
            regime = "blocking" if args.timeline == "blocking" else "asynchronous"
            write_timeline_csv(out, pipeline.timeline(M, regime))
        elif args.curve is not None:
            write_curve_csv(out, pipeline.makespan_curve(pipeline.curve_batches(M, args.curve)))
        else:
            recurrence = None
            if args.recurrence:
                recurrence = (pipeline.recurrence_makespan(M, "asynchronous"),
                              pipeline.recurrence_makespan(M, "blocking"))
            analysis = pipeline.analyze(M, request["rho"], request["T_real"])
            if args.json:
                if recurrence:
                    analysis["T_async_recurrence"], analysis["T_block_recurrence"] = recurrence
                out.write(_json.dumps(analysis) + "\n")
            else:
                write_table(out, analysis, recurrence)
    except HeteropipeError as e:
        return _print_errors([e])
    try:
        sys.stdout.write(out.getvalue())
        sys.stdout.flush()
    except OSError:
        sys.stderr.write("error: could not write the output\n")
        return EXIT_OUTPUT_FAILED
    return EXIT_OK


def _clash(args) -> Optional[str]:
    """--timeline and --curve replace the report with CSV, so the options
    that shape the report make no sense beside them."""
    csv = "--timeline" if args.timeline else "--curve" if args.curve is not None else None
    if csv is None:
        return None
    other = ("--curve" if args.timeline and args.curve is not None else "--json" if args.json
             else "--recurrence" if args.recurrence else "--T-real" if args.T_real is not None else None)
    return None if other is None else f"{csv} prints CSV and cannot be combined with {other}"


def _repeated(argv: Sequence[str]) -> Optional[str]:
    seen = set()
    for word in argv:
        name = word.split("=", 1)[0]
        name = "--T-real" if name == "--T_real" else name
        if name in _VALUE_OPTIONS:
            if name in seen:
                return f"{name}: given more than once"
            seen.add(name)
    return None


def main(argv: Optional[Sequence[str]] = None) -> int:
    words = _glue_values(sys.argv[1:] if argv is None else list(argv))
    args = build_parser().parse_args(words)
    problem = _repeated(words) or _clash(args)
    if problem is None and args.curve is not None and not 2 <= args.curve <= _core.limits["max_curve_points"]:
        problem = f"--curve: {args.curve} not in [2 - {_core.limits['max_curve_points']}]"
    if problem:
        return _print_errors_text(problem)
    return _run(args)


def _print_errors_text(text: str) -> int:
    sys.stderr.write(f"error: {text}\n")
    return EXIT_BAD_INPUT


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
