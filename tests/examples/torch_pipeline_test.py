#!/usr/bin/env python3
"""A real run end to end: examples/torch-pipeline runs a 2-stage PyTorch
pipeline over gloo (blocking sends, then isend), a 3-stage one with isend
and a slow first stage, a 2-stage one whose last stage returns each output
to stage 0 (--return), a 2-stage one profiled by a schedule of two
recorded steps (--steps 2), a 2-stage GPipe training step (--train), and
a 2-stage 1F1B one with isend (--train --schedule 1f1b: the passes
interleave on every stage), a 2-stage one with isend written by
tensorboard_trace_handler, its stage 1 entering its profiler 300 ms late
and its files given last rank first (--trace-handler --start-delay-ms
0,300), a 2-stage one whose repeating profiler schedule writes a file per
rank per cycle (--steps 1 --cycles 2 --trace-handler, all four files
given at once, each cycle's window imported in turn), and `heteropipe
trace` imports its per-rank
traces with --microbatch alone (and --profiler-step for the second step;
each training step's forward pass by its forward ranges, its backward pass
by its backward ranges).
The run's own record holds the truth: its wall clock (each step's) and each
rank's profiler origin.

Usage: torch_pipeline_test.py HETEROPIPE_CLI [--keep DIR]"""
import json
import os
import statistics
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "torch-pipeline", "pipeline.py")
MICROBATCH = "^microbatch_([0-9]+)$"
BACKWARD = "^backward_([0-9]+)$"
MICROBATCHES = 16
# Issue 23's bound: each stage's clock offset within 2 ms of the truth. A
# link's offset comes from its tightest causal bound (lo) or, over gloo, from
# its rendezvous bound (hi), whichever more pairs support (docs/traces.md,
# "Clock offsets"); what is left is how late that side's best pair woke.
# Every offset in [lo, hi] agrees with every pair, so no rule can promise
# better than half that width. A quiet machine keeps the bounds narrow; on a
# loaded one a process is descheduled inside its sends, the bounds widen past
# 4 ms, and the trace itself cannot place the clock within 2 ms, at times
# twice in a row, though the truth stays inside the bounds. So a run that
# misses is run again, up to RERUNS_ON_OFFSET_MISS times, each miss printed,
# and the test fails if the last run misses too. The runs behind this, the
# rules tried against them and the misses that set the reruns are in
# docs/benchmarks.md ("Clock offsets of 2 stages: rules tried").
OFFSET_BOUND_US = 2000
RERUNS_ON_OFFSET_MISS = 2
# run.json's offsets are each rank's profiler origin from its ranges'
# entries, good to microseconds; the causal bounds hold it with this room.
TRUTH_US = 100
# The 3-stage run: its middle rank receives, computes and sends on one thread,
# with each isend's transport event lasting until the wait after the loop,
# across its later receives and compute. Stage 0 is the slowest, so every
# receiver waits and most links' offsets rest on many waiting pairs (stage
# 2's offset adds both links'); it is held to 2 ms with the reruns, as the
# 2-stage runs are.
CHAIN = ("chain", 3, ["--mode", "async", "--stage-layers", "6,3,3"], OFFSET_BOUND_US)
# --return: the last stage also isends each output back to stage 0, which
# receives them after its own sends; the returns are set aside, so the run is
# held to the 2-stage runs' bound.
RETURN = ("return", 2, ["--mode", "blocking", "--return"], OFFSET_BOUND_US)
# --steps 2: torch.profiler's schedule(wait=1, warmup=1, active=2), one file
# per rank holding two steps whose ranges repeat the names; each step is
# imported by itself (the first by default, the second by --profiler-step).
STEPS = ("steps", 2, ["--mode", "blocking", "--steps", "2"], OFFSET_BOUND_US)
# --train: a GPipe training step with blocking sends. Its backward pass
# takes about 1.5 times its forward, so 6 micro-batches (still M > S) keep
# its two passes near a 16-micro-batch forward run's time. Each pass is
# imported by its own ranges; the backward pass's stages are the ranks
# reversed.
TRAIN = ("train", 2, ["--train"], OFFSET_BOUND_US)
TRAIN_MICROBATCHES = 6
# --train --schedule 1f1b with isend: each stage alternates a forward with
# the oldest backward after S - 1 - s forwards, so each pass's ranges are
# interleaved with the other's and each range claims its own messages. A
# link's bounds rest on fewer pairs still than an isend forward run's: the
# last stage takes each activation after its backward, long after it was
# sent (no wait, so a loose lo), and an isend hands nothing over while the
# sender waits (no hi but gloo's rendezvous on a few pairs). Its bounds are
# hundreds of ms wide even on a quiet machine, and its runs erred by more
# than 2 ms there too (docs/benchmarks.md): this shape, beyond the issue's
# forward runs, is held to 40 ms.
TRAIN_1F1B = ("train-1f1b", 2, ["--train", "--schedule", "1f1b", "--mode", "async"], 40000)
# --trace-handler --start-delay-ms 0,300: tensorboard_trace_handler's
# HOST_PID files, given in reverse (as a directory may list them), and
# stage 1 entering its profiler 300 ms after stage 0, so the clocks are
# 300 ms apart. Stage 1, the slower, finds every isend queued (no receive
# waits, so lo is loose by the queue), and the sends still waiting at the
# final wait place the clock (gloo's rendezvous): the stages follow the
# messages, the offset within the 2-stage runs' bound (it was far early
# when the queued pairs outvoted the waiting ones).
HANDLER = ("handler", 2, ["--mode", "async", "--trace-handler", "--start-delay-ms", "0,300"],
           OFFSET_BOUND_US)
# --steps 1 --cycles 2 --trace-handler: schedule(wait=1, warmup=1,
# active=1, repeat=2), so the handler writes a file per rank per cycle,
# each cycle's clock from 0 again and its step numbered on (#1, then #4).
# All four files given at once (sorted by name, as a shell lists them: by
# pid, then time) import one cycle's window, the other's files left out
# (profiler_windows); before, each file was a rank of its own and the
# run no pipeline. Each window is held to its own cycle's truth.
# Its 4 iterations a cycle run 8 micro-batches each, to keep the test short.
CYCLES_MICROBATCHES = 8
CYCLES = ("cycles", 2, ["--mode", "blocking", "--steps", "1", "--cycles", "2", "--trace-handler"],
          OFFSET_BOUND_US)
# --two-tensors --fresh-buffers: each stage sends a second, smaller tensor
# after its output, which the receiver takes into a buffer it makes just
# before (torch.empty_like, as most code writes it): an op between a
# micro-batch's two receives. Imported by ranges and by the transfers, both
# read M micro-batches of one transfer each (before, by the transfers, 2M).
TWO_TENSORS = ("two tensors", 3, ["--mode", "blocking", "--two-tensors", "--fresh-buffers"], OFFSET_BOUND_US)
RUNS = [("blocking", 2, ["--mode", "blocking"], OFFSET_BOUND_US),
        ("async", 2, ["--mode", "async"], OFFSET_BOUND_US), CHAIN, RETURN, STEPS, TRAIN, TRAIN_1F1B,
        HANDLER, CYCLES, TWO_TENSORS]


class OffsetMiss(Exception):
    """A clock offset outside its bound: the one check a rerun may retry."""


def check(condition, what, miss=SystemExit):
    if not condition:
        raise miss("torch-pipeline: " + what)
    print("  ok:", what)


def range_medians(out, ranks, microbatches, step=0, prefix="microbatch_", names=None):
    """Each rank's median range in recorded step `step` (its M ranges in time
    order), from the end of the receives inside it (a backward range
    receives its gradient, c10d::recv_'s wait then gloo:recv, before its
    compute)."""
    medians = []
    for rank in ranks:
        with open(os.path.join(out, names[rank] if names else f"rank-{rank}.json")) as f:
            events = [e for e in json.load(f) if "dur" in e]
        receives = [(e["ts"], e["dur"]) for e in events if e.get("name") in ("gloo:recv", "c10d::recv_")]
        ranges = sorted((e["ts"], e["dur"]) for e in events if e.get("name", "").startswith(prefix))
        ranges = ranges[step * microbatches:(step + 1) * microbatches]
        medians.append(statistics.median(
            ts + d - max([ts] + [rt + rd for rt, rd in receives if ts <= rt and rt + rd <= ts + d])
            for ts, d in ranges))
    return medians


def warning(r, code):
    found = [w for w in r["warnings"] if w["code"] == code]
    return found[0] if found else None


def run_mode(cli, mode, stages, flags, bound, out):
    microbatches = TRAIN_MICROBATCHES if "--train" in flags else CYCLES_MICROBATCHES if "--cycles" in flags \
        else MICROBATCHES
    subprocess.run([sys.executable, EXAMPLE, *flags, "--stages", str(stages), "--microbatches",
                    str(microbatches), "--width", "384", "--batch", "384", "--out", out],
                   check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "run.json")) as f:
        truth = json.load(f)
    if "cycles" in truth:
        cycles = truth["cycles"]
        files = sorted(name for cycle in cycles for name in cycle["files"])
        for c, cycle in enumerate(cycles):
            # The window's first step: the default import's warning names
            # the first window's, and the second's is one cycle on.
            chosen = ["--profiler-step", str(first_step + c * (2 + truth["steps"]))] if c else []
            done = subprocess.run([cli, "trace", "--json", "--unit", "us", "--microbatch", MICROBATCH, *chosen,
                                   *[os.path.join(out, name) for name in files]],
                                  check=True, capture_output=True, text=True)
            r = json.loads(done.stdout)
            w = warning(r, "profiler_windows")
            check(w is not None and w["value"] == len(cycles) and w["limit"] == stages * (len(cycles) - 1),
                  f"{mode} {c}: profiler_windows names {len(cycles)} windows and {stages} files left out")
            if not c:
                first_step = w["index"]
            # File i of the list is rank order[i] of its cycle.
            order = {i: cycles_rank for i, name in enumerate(files)
                     for cycles_rank, own in enumerate(cycle["files"]) if own == name}
            truth_c = dict(truth, clock_offsets_us=cycle["clock_offsets_us"], files=cycle["files"], train=False,
                           returns=False)
            check_import(r, f"{mode} {c}", stages, bound, out, truth_c, 0, microbatches, "microbatch_",
                         cycle["step_wall_clocks_us"][0], order)
        return
    files = [os.path.join(out, f"rank-{s}.json") for s in range(stages)]
    order = None
    if "--trace-handler" in flags:
        # The handler's files, given last rank first: file i is rank order[i].
        order = list(reversed(range(stages)))
        files = [os.path.join(out, truth["files"][rank]) for rank in order]
    if truth["train"]:
        for name, pattern, prefix in (("forward", MICROBATCH, "microbatch_"), ("backward", BACKWARD, "backward_")):
            done = subprocess.run([cli, "trace", "--json", "--unit", "us", "--microbatch", pattern, *files],
                                  check=True, capture_output=True, text=True)
            r = json.loads(done.stdout)
            # The other pass's messages: M each way on each link, both sides.
            w = warning(r, "other_pass_set_aside")
            check(w is not None and w["value"] == 2 * (stages - 1) * microbatches,
                  f"{mode} {name}: other_pass_set_aside counts the other pass's {2 * (stages - 1) * microbatches}")
            check((warning(r, "stages_reversed") is not None) == (name == "backward"),
                  f"{mode} {name}: stages_reversed {'names' if name == 'backward' else 'is not'} the reversed chain")
            check_import(r, f"{mode} {name}", stages, bound, out, truth, 0, microbatches, prefix,
                         truth["pass_wall_clocks_us"][name])
        return
    steps = truth["steps"]
    for step in range(max(steps, 1)):
        # --profiler-step names a step by torch's N: the first recorded step's
        # N is in the warning of the default import.
        chosen = ["--profiler-step", str(first_step + step)] if step else []
        done = subprocess.run([cli, "trace", "--json", "--unit", "us", "--microbatch", MICROBATCH, *chosen, *files],
                              check=True, capture_output=True, text=True)
        r = json.loads(done.stdout)
        if steps:
            w = warning(r, "profiler_steps")
            check(w is not None and w["value"] == steps and w["limit"] == w["index"] + steps - 1 - step,
                  f"{mode}: step {step} imported alone, profiler_steps names it and counts {steps}")
            first_step = w["index"] - step
        if order:
            check(warning(r, "stages_reordered") is not None, f"{mode}: stages_reordered says the files were not in order")
        check_import(r, mode if not steps else f"{mode} {step}", stages, bound, out, truth, step, MICROBATCHES,
                     "microbatch_", truth["step_wall_clocks_us"][step], order)
    if "--two-tensors" in flags:
        imported = {}
        for chosen in ([], ["--microbatch", MICROBATCH]):
            done = subprocess.run([cli, "trace", "--json", "--unit", "us", *chosen, *files],
                                  check=True, capture_output=True, text=True)
            r = imported[bool(chosen)] = json.loads(done.stdout)
            how = "by ranges" if chosen else "by the transfers"
            check(r["M"] == MICROBATCHES and all(link["pairs"] == MICROBATCHES for link in r["links"]),
                  f"{mode} {how}: {MICROBATCHES} micro-batches, each link's two messages one transfer")
        # By the transfers a span also holds the loop's host time around the
        # ranges (a few %); the allocation between two receives is in none.
        for s, (plain, ranged) in enumerate(zip(imported[False]["tau"], imported[True]["tau"])):
            check(abs(plain - ranged) <= 0.1 * ranged, f"{mode}: stage {s}'s tau by the transfers within 10% of "
                                                       f"the ranges' ({plain:.0f} and {ranged:.0f} us)")


def check_import(r, mode, stages, bound, out, truth, step, microbatches, prefix, wall_clock, order=None):
    # Stage s's rank (a backward pass runs the ranks reversed; files given
    # out of rank order are ranked by their place, file i being rank
    # order[i]), and the true offsets on stage 0's clock.
    ranks = [stage["rank"] if order is None else order[stage["rank"]] for stage in r["stages"]]
    check(ranks == sorted(ranks) or truth["train"], f"{mode}: stage s is rank s")
    true_offsets = [truth["clock_offsets_us"][rank] - truth["clock_offsets_us"][ranks[0]] for rank in ranks]
    print(f"{mode}: T_real {r['T_real']:.0f} us, wall clock {wall_clock:.0f} us, "
          f"offsets {r['clock_offsets']} (true {true_offsets}), tau {r['tau']}")
    check(r["pipeline"] and len(r["stages"]) == stages and r["M"] == microbatches,
          f"{mode}: {stages} stages and {microbatches} micro-batches")
    check(not warning(r, "repeated_microbatch_names"), f"{mode}: no micro-batch name repeats")
    if truth["returns"]:
        w = warning(r, "returns_to_first_stage")
        check(w is not None and w["value"] == microbatches and w["limit"] == microbatches,
              f"{mode}: returns_to_first_stage counts {microbatches} sends and {microbatches} receives")
    # Causality holds on every run, loaded or not: each link's true offset
    # lies within its clock_offset_bounds, up to TRUTH_US.
    for link, (lo, hi) in enumerate(r["clock_offset_bounds"]):
        true = true_offsets[link + 1] - true_offsets[link]
        check(lo - TRUTH_US <= true and (hi is None or true <= hi + TRUTH_US),
              f"{mode}: link {link}'s true offset within its clock_offset_bounds [{lo:.0f}, {hi}] us")
    # OFFSET_BOUND_US and CHAIN say why each bound is what it is.
    for s in range(stages):
        check(abs(r["clock_offsets"][s] - true_offsets[s]) <= bound,
              f"{mode}: stage {s}'s clock offset within {bound / 1000:g} ms of the truth", OffsetMiss)
    check(abs(r["T_real"] - wall_clock) <= 0.02 * wall_clock, f"{mode}: T_real within 2% of the wall clock")
    for s, median in enumerate(range_medians(out, ranks, microbatches, step, prefix, truth.get("files"))):
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
            out = os.path.join(keep or scratch, mode)
            for attempt in range(RERUNS_ON_OFFSET_MISS + 1):
                try:
                    run_mode(cli, mode, stages, flags, bound, out)
                    break
                except OffsetMiss as miss:
                    if attempt == RERUNS_ON_OFFSET_MISS:
                        raise SystemExit(f"{miss} (and on {attempt} reruns)")
                    print(f"  MISS: {miss}; the machine's load average is {os.getloadavg()[0]:.1f}: "
                          f"running {mode} once more")
                    shutil.rmtree(out)


if __name__ == "__main__":
    main()
