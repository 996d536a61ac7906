"""Speed of the Python package against plain Python, in one run (stdlib only).

    build/python-venv/bin/python tests/bench/python_bench.py [--stages N] [--rounds R]

Each figure is the median of R rounds (time.perf_counter). Every round of a
call is paired with a round of the baseline, one plain sum() over the same
array('d'), run right before it, and the ratio is the median of the
per-round ratios, so a machine whose speed drifts (one shared with other
work) still gives a fair comparison. Prints a Markdown table
(docs/benchmarks.md, "Python package"). Nothing here is asserted; the tests
check values only.
"""

import argparse
import random
import statistics
import sys
import threading
import time
from array import array

import heteropipe
from heteropipe import Pipeline


def seconds(call):
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def median_ms(call, rounds):
    return statistics.median(seconds(call) for _ in range(rounds)) * 1e3


def against(baseline, call, rounds):
    """(median ms of call, median ratio to the baseline run just before it)."""
    pairs = [(seconds(baseline), seconds(call)) for _ in range(rounds)]
    return statistics.median(c for _, c in pairs) * 1e3, statistics.median(c / b for b, c in pairs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stages", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    S, rounds = args.stages, args.rounds

    rng = random.Random(2026)
    tau = array("d", (rng.uniform(0.5, 2.0) for _ in range(S)))
    d = array("d", (rng.uniform(0.0, 0.5) for _ in range(S - 1)))
    tau_list = tau.tolist()
    small = Pipeline([1.13, 2.90, 2.62])

    cases = [
        ("baseline: `sum(tau)` over the array('d')", lambda: sum(tau)),
        ("`Pipeline(tau)`", lambda: Pipeline(tau)),
        ("`Pipeline(tau).analyze(M=100, lists=False)` (construct + analyze)",
         lambda: Pipeline(tau).analyze(M=100, lists=False)),
        ("`heteropipe.analyze(tau, d, M=100, lists=False)`", lambda: heteropipe.analyze(tau, d, M=100, lists=False)),
        ("`Pipeline(tau).analyze(M=100)`: the default, with the five per-stage sequences",
         lambda: Pipeline(tau).analyze(M=100)),
        ("`heteropipe.analyze(tau, d, M=100)`: the default, with the five per-stage sequences",
         lambda: heteropipe.analyze(tau, d, M=100)),
        ("`Pipeline(tau).tau` (the reference's tuple, made on demand)", lambda: Pipeline(tau).tau),
        ("`Pipeline(tau_list)` (a list of floats)", lambda: Pipeline(tau_list)),
        ("`list(tau)` (for scale: a million float objects)", lambda: list(tau)),
    ]
    rows = []
    baseline = cases[0][1]
    for name, call in cases:
        call()  # warm up
        rows.append((name, *against(baseline, call, rounds)))

    print(f"Python {sys.version.split()[0]}, S = {S:,}, median of {rounds} rounds\n")
    print("| call | median | vs `sum` |")
    print("|---|---|---|")
    for name, ms, ratio in rows:
        print(f"| {name} | {ms:.1f} ms | {ratio:.1f}x |")

    small_us = median_ms(lambda: [small.analyze(100) for _ in range(1000)], rounds)
    print(f"| `Pipeline(S=3).analyze(100)` | {small_us:.1f} µs | |")

    p = Pipeline([1.0, 2.0, 0.5, 3.0] * 16)
    M = 1_000_000
    ms = median_ms(lambda: p.recurrence(M, "blocking"), max(3, rounds // 3))
    print(f"| `recurrence`, S = 64, M = 1e6 | {ms:.1f} ms = {64 * M / (ms / 1e3):.1e} cells/s | |")

    # The GIL: a counting thread runs on during a long recurrence.
    count = [0]
    stop = threading.Event()

    def counter():
        while not stop.is_set():
            count[0] += 1
            time.sleep(0)

    thread = threading.Thread(target=counter)
    thread.start()
    time.sleep(0.01)
    before = count[0]
    p.recurrence(10 * M, "blocking")
    during = count[0] - before
    stop.set()
    thread.join()
    print(f"\nA counting thread advanced {during:,} steps during `recurrence` at M = 1e7 (GIL released).")


if __name__ == "__main__":
    main()
