#!/usr/bin/env python3
"""A real run end to end: examples/torch-pipeline runs a 2-stage PyTorch
pipeline over gloo (blocking sends, then isend) and a 3-stage one with isend
and a slow first stage, and `heteropipe trace` imports its per-rank traces
with --microbatch alone. The run's own record holds the truth: its wall clock
and each rank's profiler origin.

Usage: torch_pipeline_test.py HETEROPIPE_CLI [--keep DIR]"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "torch-pipeline", "pipeline.py")
MICROBATCH = "^microbatch_([0-9]+)$"
MICROBATCHES = 16
# Issue 23 asks for 2 ms. A link's offset comes from its tightest causal
# bound (lo) or, over gloo, from its rendezvous bound (hi), whichever more
# pairs support (docs/traces.md, "Clock offsets"); what is left is how late
# that side's best pair woke. Every offset in [lo, hi] agrees with every
# pair, so no rule can promise better than half that width, the two sides'
# best latencies (a message's crossing plus a wake-up) together. Here stage 1
# runs one matmul more than stage 0, so about as many pairs support either
# side and a late wake-up on one side is not outvoted: 21 blocking runs at a
# load average of 3-11 erred by up to 3.4 ms, their bounds 1.0-7.4 ms wide,
# hence 5 ms. With isend the receiver waits on one to six messages, often
# micro-batch 0 alone, and the senders only in their final waits, so both
# bounds rest on a pair or two: 22 runs at 3-12 erred by up to 7.0 ms, their
# bounds 3-66 ms wide, and five earlier ones at 10-13 by up to 14.8 ms; the
# bound keeps room for a loaded machine. The rules tried against these runs
# are in docs/benchmarks.md ("Clock offsets of 2 stages: rules tried").
OFFSET_BOUND_US = {"blocking": 5000, "async": 25000}
# run.json's offsets are each rank's profiler origin from its ranges'
# entries, good to microseconds; the causal bounds hold it with this room.
TRUTH_US = 100
# The 3-stage run: its middle rank receives, computes and sends on one thread,
# with each isend's transport event lasting until the wait after the loop,
# across its later receives and compute. Stage 0 is the slowest, so every
# receiver waits and most links' offsets rest on many waiting pairs: 14 runs
# at a load average of 5-11 came within 1.9 ms on every stage (stage 2's
# offset adds both links'), but one, beside a busy loop (load 7-9), by 2.6 ms:
# its receivers woke at best 2 ms after a send began (its middle rank was
# descheduled for 7-46 ms inside its sends). Hence 5 ms, as for blocking on 2
# stages.
CHAIN = ("chain", 3, ["--mode", "async", "--stage-layers", "6,3,3"], 5000)
RUNS = [("blocking", 2, ["--mode", "blocking"], OFFSET_BOUND_US["blocking"]),
        ("async", 2, ["--mode", "async"], OFFSET_BOUND_US["async"]), CHAIN]


def check(condition, what):
    if not condition:
        raise SystemExit("torch-pipeline: " + what)
    print("  ok:", what)


def range_medians(out, stages):
    medians = []
    for s in range(stages):
        with open(os.path.join(out, f"rank-{s}.json")) as f:
            spans = [e["dur"] for e in json.load(f) if e.get("name", "").startswith("microbatch_")]
        medians.append(statistics.median(spans))
    return medians


def run_mode(cli, mode, stages, flags, bound, out):
    subprocess.run([sys.executable, EXAMPLE, *flags, "--stages", str(stages), "--microbatches",
                    str(MICROBATCHES), "--width", "384", "--batch", "384", "--out", out],
                   check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "run.json")) as f:
        truth = json.load(f)
    files = [os.path.join(out, f"rank-{s}.json") for s in range(stages)]
    done = subprocess.run([cli, "trace", "--json", "--unit", "us", "--microbatch", MICROBATCH, *files],
                          check=True, capture_output=True, text=True)
    r = json.loads(done.stdout)
    print(f"{mode}: T_real {r['T_real']:.0f} us, wall clock {truth['wall_clock_us']:.0f} us, "
          f"offsets {r['clock_offsets']} (true {truth['clock_offsets_us']}), tau {r['tau']}")
    check(r["pipeline"] and len(r["stages"]) == stages and r["M"] == MICROBATCHES,
          f"{mode}: {stages} stages and {MICROBATCHES} micro-batches")
    # Causality holds on every run, loaded or not: each link's true offset
    # lies within its clock_offset_bounds, up to TRUTH_US.
    for link, (lo, hi) in enumerate(r["clock_offset_bounds"]):
        true = truth["clock_offsets_us"][link + 1] - truth["clock_offsets_us"][link]
        check(lo - TRUTH_US <= true and (hi is None or true <= hi + TRUTH_US),
              f"{mode}: link {link}'s true offset within its clock_offset_bounds [{lo:.0f}, {hi}] us")
    # OFFSET_BOUND_US and CHAIN say why each bound is what it is.
    for s in range(stages):
        check(abs(r["clock_offsets"][s] - truth["clock_offsets_us"][s]) <= bound,
              f"{mode}: stage {s}'s clock offset within {bound / 1000:g} ms of the truth")
    check(abs(r["T_real"] - truth["wall_clock_us"]) <= 0.02 * truth["wall_clock_us"],
          f"{mode}: T_real within 2% of the wall clock")
    for s, median in enumerate(range_medians(out, stages)):
        check(abs(r["tau"][s] - median) <= 0.05 * median,
              f"{mode}: stage {s}'s tau within 5% of its micro-batch ranges' median")
    check(r["sandwich"]["min"]["T_async"] <= r["sandwich"]["p50"]["T_async"],
          f"{mode}: the sandwich at min lies below the one at p50")
    causes = [part["cause"] for part in r["explain"]]
    total = sum(part["time"] for part in r["explain"])
    print(f"{mode}: replay {r['replay']}, explain {[(p['cause'], round(p['time'])) for p in r['explain']]}")
    check(causes == ["model", "variability", "blocking", "other"] and abs(total - r["T_real"]) <= 1e-9 * r["T_real"],
          f"{mode}: explain's model, variability, blocking and other sum to T_real")
    check(r["explain"][0]["time"] == r["analysis"]["T_async"], f"{mode}: explain's model is T_async at p50")
    check(r["replay"]["async"] <= r["replay"]["blocking"], f"{mode}: replay.async <= replay.blocking")


def main():
    cli = sys.argv[1]
    keep = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--keep" else None
    with tempfile.TemporaryDirectory() as scratch:
        for mode, stages, flags, bound in RUNS:
            run_mode(cli, mode, stages, flags, bound, os.path.join(keep or scratch, mode))


if __name__ == "__main__":
    main()
