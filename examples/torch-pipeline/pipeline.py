#!/usr/bin/env python3
"""A small pipeline-parallel run on CPU processes that writes profiler traces.

One process per stage, torch.distributed over gloo on 127.0.0.1, one thread per
process. Each stage runs a stack of matmuls per micro-batch inside
record_function("microbatch_N"), receives its input from the stage before and
sends its output to the stage after, with blocking send/recv, with isend, or
with batch_isend_irecv of P2POps (--mode). With --return the last stage also
sends each micro-batch's output back to stage 0 (isend), which receives them
after its own sends, as a driver on rank 0 collecting results does. With
--train it is a GPipe training step instead: every micro-batch forward, then
every one backward, each stage sending its input's gradient to the stage
before (ranges "backward_N"); with --schedule 1f1b the same step in 1F1B
order (stage s runs S - 1 - s forwards ahead, then alternates a forward with
the oldest backward), so the passes interleave; either way each pass
imports by its own ranges' pattern (--loss: the last stage's forward
range ends with an MSE loss; --optimizer: an SGD step after the step).
Other shapes a user profiles: --warmup-in-profile (iterations without
ranges inside the profiler), --busy-rank (a spinning thread beside one
stage), --with-flops, --measure-links (each link's time to move one
activation to a waiting receiver, measured before profiling), --start-delay-ms
(each rank enters its profiler that much after the others, so the clocks
differ by hundreds of ms), --trace-handler (torch.profiler's
tensorboard_trace_handler writes HOST_PID.MS.pt.trace.json[.gz] instead of
rank-N.json), --sender-thread (each stage's sends run on a Python thread
fed by a queue) and --all-reduce (an all_reduce across the stages after
the micro-batches, inside the profiler), --cycles (a repeating schedule,
a file per rank per cycle), --iterations (several iterations in one
profile, with --continuous, --step-range and --barrier), --broadcast,
--stage-modes, --any-source, --wrap-range, --outer-range,
--setup-in-profile, --stage-widths (each link's tensor its own size),
--two-tensors (a second, smaller tensor after each output: two messages a
micro-batch; with --fresh-buffers its buffer is made just before its
receive), --warmup-outside (whole iterations before the profiler) and
--late-rank with --late-after (one rank's profiler started after its first
messages).
It writes, into --out:
  rank-N.json   the torch.profiler Chrome trace of stage N
  run.json      the run's facts: stages, microbatches, mode, the wall clock
                (first micro-batch start of stage 0 to the last micro-batch end
                of the last stage, on the host's clock) and when each rank's
                profiler clock reads 0, in epoch microseconds, so the true
                offsets between the ranks' clocks are known; with --train,
                schedule, and pass_wall_clocks_us: the forward pass's wall
                clock (stage 0's first forward range start to the last
                stage's last forward range end) and the backward one's (the
                last stage's first backward range start to stage 0's last
                backward range end); with --measure-links,
                link_transfer_us: each link's median of 5 such moves.
Import with:  heteropipe trace --microbatch '^microbatch_([0-9]+)$' OUT/rank-*.json
"""
import argparse
import contextlib
import glob
import gzip
import json
import os
import queue as queues
import threading
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.profiler import ProfilerActivity, profile, record_function

# --two-tensors: the second tensor's columns.
TWO_TENSOR_COLUMNS = 16


def stage_main(rank, args, queue):
    torch.set_num_threads(1)
    torch.manual_seed(rank)
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(args.port)
    dist.init_process_group("gloo", rank=rank, world_size=args.stages)
    last = args.stages - 1
    # Stage s runs layers + s matmuls, so the stages differ and the last is
    # slowest, unless --stage-layers gives each stage's count.
    count = args.stage_layers[rank] if args.stage_layers else args.layers + rank
    # --stage-widths: stage s's output is batch x widths[s] (its link's
    # message), its input batch x widths[s - 1] (stage 0's --width).
    width_in = args.width if not args.stage_widths or rank == 0 else args.stage_widths[rank - 1]
    width_out = args.stage_widths[rank] if args.stage_widths else args.width
    layers = [torch.randn(width_in if i == 0 else width_out, width_out) / width_out ** 0.5 for i in range(count)]
    x = torch.randn(args.batch, args.width)
    target = torch.randn(args.batch, args.width)
    # --optimizer: the layers are parameters, and an SGD step follows each
    # training step, outside every range.
    optimizer = None
    if args.optimizer:
        for w in layers:
            w.requires_grad_()
        optimizer = torch.optim.SGD(layers, lr=1e-3)
    buf = torch.empty(args.batch, width_in)
    # --two-tensors: a second, smaller tensor follows each output on its link
    # (a mask, a residual): its first `TWO_TENSOR_COLUMNS` columns.
    side = torch.empty(args.batch, TWO_TENSOR_COLUMNS)
    result = torch.empty(args.batch, args.width)

    def forward(h):
        for w in layers:
            h = torch.tanh(h @ w)
        return h

    # Warm up the kernels and the gloo connections outside the profiler.
    out_x = forward(x if rank == 0 else torch.randn(args.batch, width_in))
    if rank > 0:
        dist.recv(buf, src=rank - 1)
        if args.two_tensors:
            dist.recv(side, src=rank - 1)
    if rank < last:
        dist.send(out_x, dst=rank + 1)
        if args.two_tensors:
            dist.send(out_x[:, :TWO_TENSOR_COLUMNS].contiguous(), dst=rank + 1)
    if args.returns and rank == last:
        dist.send(x, dst=0)
    if args.returns and rank == 0:
        dist.recv(result, src=last)
    dist.barrier()
    # --measure-links: each link's time to move one activation to a receiver
    # already waiting, on the host's clock (both ranks read it): the sender
    # sleeps so that the receive is surely posted, then sends; the receiver
    # notes when it returns. One link at a time, 5 times each.
    link_times = {"sent": [], "got": []}
    if args.measure_links:
        for link in range(args.stages - 1):
            for _ in range(5):
                dist.barrier()
                if rank == link:
                    time.sleep(0.05)
                    link_times["sent"].append(time.time_ns() / 1e3)
                    dist.send(x, dst=link + 1)
                elif rank == link + 1:
                    dist.recv(buf, src=link)
                    link_times["got"].append(time.time_ns() / 1e3)
        dist.barrier()
    if rank == args.busy_rank:
        # A noisy host: a Python thread spinning beside the stage takes the
        # GIL between its ops (and a core of 2), so its spans vary.
        threading.Thread(target=lambda: [None for _ in iter(int, 1)], daemon=True).start()

    warming = False
    pending = []
    inputs, outputs = [], []  # --train: each micro-batch's, for its backward pass
    entered = []  # epoch microseconds just before each range opens
    ends = []  # epoch microseconds after each iteration's last send
    done_iterations = [0]  # --continuous numbers each iteration's ranges on from the last
    name = lambda m: args.range_name.format(
        m=m + (done_iterations[0] * args.microbatches if args.continuous else 0), s=rank)
    send_mode = args.stage_modes[rank] if args.stage_modes else args.mode

    def forward_step(m, deferred=None):
        """Micro-batch m forward: its input in before its range, its output
        out after. `deferred`, a gradient's send held back, goes out once
        the input is in. --wrap-range: the range holds the receive and the
        send too; --outer-range: a second range around it, named by s."""
        if late and not warming and m == args.late_after:
            # --late-rank: this rank's profiler starts only now, after its
            # first late_after micro-batches and their messages.
            prof.start()
        if args.wrap_range and not warming:
            entered.append(time.time_ns() / 1e3)
            with record_function(name(m)):
                forward_body(m, deferred, ranged=False)
        elif args.outer_range and not warming:
            with record_function(args.outer_range.format(s=rank, m=m)):
                forward_body(m, deferred)
        else:
            forward_body(m, deferred)

    def forward_body(m, deferred=None, ranged=True):
        if rank > 0:
            if args.mode == "p2pop":
                for p in dist.batch_isend_irecv([dist.P2POp(dist.irecv, buf, rank - 1)]):
                    p.wait()
            else:
                # --any-source: the receive names no peer (gloo's recvAnysource).
                dist.recv(buf, src=None if args.any_source else rank - 1)
            if deferred:
                deferred()
            if args.two_tensors:
                # --fresh-buffers: the second tensor's buffer made just before its receive.
                dist.recv(torch.empty_like(side) if args.fresh_buffers else side, src=rank - 1)
            h = buf.clone()
        else:
            h = x.clone() if args.train else x
        if args.train:
            h.requires_grad_()
            inputs.append(h)
        if warming or not ranged:
            h = forward(h)  # --warmup-in-profile: no range, no entry
        else:
            entered.append(time.time_ns() / 1e3)
            with record_function(name(m)):
                h = forward(h)
                if args.loss and rank == last:
                    # --loss: the last stage's forward range ends with the
                    # loss against a target, which its backward starts from.
                    h = torch.nn.functional.mse_loss(h, target)
        if args.train:
            outputs.append(h)
            h = h.detach()
        if args.returns and rank == last:
            pending.append(dist.isend(h, dst=0))
        if rank < last:
            send(h, rank + 1)
            if args.two_tensors:
                send(h[:, :TWO_TENSOR_COLUMNS].contiguous(), rank + 1)

    def send(tensor, dst):
        if sender is not None:
            # --sender-thread: the send runs on the sender thread, in order.
            sender.put((tensor.clone(), dst))
            return
        if send_mode == "async":
            pending.append(dist.isend(tensor, dst=dst))
        elif send_mode == "p2pop":
            pending.extend(dist.batch_isend_irecv([dist.P2POp(dist.isend, tensor, dst)]))
        else:
            dist.send(tensor, dst=dst)

    def backward_step(m, defer=False):
        """Micro-batch m backward: its output's gradient comes from the stage
        after (the last stage's own loss) inside its range, and its input's
        gradient goes to the stage before after it, or, with `defer`, is
        returned to send later."""
        with record_function(f"backward_{m}"):
            if rank < last:
                grad = torch.empty(args.batch, args.width)
                dist.recv(grad, src=rank + 1)
                outputs[m].backward(grad)
            elif args.loss:
                outputs[m].backward()
            else:
                outputs[m].sum().backward()
        if rank > 0:
            out = lambda: send(inputs[m].grad, rank - 1)
            if defer:
                return out
            out()
        return None

    def sending():
        while True:
            item = outbox.get()
            if item is None:
                return
            tensor, dst = item
            if args.mode == "async":
                dist.isend(tensor, dst=dst).wait()
            else:
                dist.send(tensor, dst=dst)

    def iteration():
        if args.schedule == "1f1b":
            # 1F1B (PipeDream-Flush): stage s runs S - 1 - s forwards ahead,
            # then alternates a forward with the oldest backward, then drains
            # the backwards, so each stage holds at most S - s activations.
            # With blocking sends a stage receives its next forward's input
            # before it sends the last backward's gradient: the stage before
            # sends that input before it receives the gradient, and two
            # blocking sends facing each other on a link would wait forever.
            ahead = min(args.stages - 1 - rank, args.microbatches)
            for m in range(ahead):
                forward_step(m)
            deferred = None
            for m in range(args.microbatches - ahead):
                forward_step(m + ahead, deferred)
                deferred = backward_step(m, defer=args.mode == "blocking")
            if deferred:
                deferred()
            for m in range(args.microbatches - ahead, args.microbatches):
                backward_step(m)
            ends.append(time.time_ns() / 1e3)
        else:
            for m in range(args.microbatches):
                forward_step(m)
            ends.append(time.time_ns() / 1e3)
            if args.train:
                # GPipe's backward pass: every micro-batch, after every forward.
                for m in range(args.microbatches):
                    backward_step(m)
        if args.returns and rank == 0:
            for m in range(args.microbatches):
                dist.recv(result, src=last)
        if sender is not None:
            sender.put(None)
            thread.join()
        for p in pending:
            p.wait()
        pending.clear()
        if args.all_reduce:
            # --all-reduce: a collective across the stages after the step
            # (as a loss or a gradient norm is reduced), outside every range.
            dist.all_reduce(torch.ones(args.width))

    sender = outbox = thread = None
    if args.sender_thread:
        if args.train or args.steps or args.returns:
            raise SystemExit("--sender-thread runs forward-only, one step")
        sender = outbox = queues.Queue()
        thread = threading.Thread(target=sending, daemon=True)
    # --steps: the usual way to profile, a schedule of one skipped and one
    # warm-up iteration, then `steps` recorded ones (ProfilerStep#2, #3, ...),
    # prof.step() after each; every recorded iteration repeats the range names.
    # --cycles: the schedule repeats, and the handler writes one file per
    # cycle of one skipped, one warm-up and `steps` recorded iterations.
    cycle = 2 + args.steps
    iterations = cycle * args.cycles if args.steps else args.iterations
    schedule = torch.profiler.schedule(wait=1, warmup=1, active=args.steps,
                                       repeat=args.cycles if args.cycles > 1 else 0) if args.steps else None
    extras = dict(record_shapes=True, with_stack=True, profile_memory=True) if args.record_all else {}
    if args.with_flops:
        extras["with_flops"] = True
    if args.trace_handler:
        extras["on_trace_ready"] = torch.profiler.tensorboard_trace_handler(args.out, use_gzip=args.gzip)
    if args.profiler == "legacy":
        prof = torch.autograd.profiler.profile(**extras)
    else:
        prof = profile(activities=[ProfilerActivity.CPU], schedule=schedule, **extras)
    if args.start_delay_ms:
        # --start-delay-ms: this rank enters its profiler later than the
        # barrier that every rank left together.
        time.sleep(args.start_delay_ms[rank] / 1e3)
    if thread is not None:
        thread.start()
    late = args.late_rank == rank

    def warm_up(count):
        # Whole forward iterations without ranges, their messages sent as
        # the ranged ones are and waited on.
        nonlocal warming
        warming = True
        for _ in range(count):
            for m in range(args.microbatches):
                forward_step(m)
            for p in pending:
                p.wait()
            pending.clear()
        warming = False

    # --warmup-outside: whole forward iterations, messages and all, before
    # the profiler starts (as a user warms up before profiling).
    warm_up(args.warmup_outside)
    with contextlib.nullcontext() if late else prof:
        # --warmup-in-profile: forward-only iterations inside the profiler,
        # without ranges, their messages sent as the ranged ones are.
        warm_up(args.warmup_in_profile)
        if args.setup_in_profile:
            # --setup-in-profile: each rank's own warm-up forward (model
            # set-up, a first call), compute with no message, in no range.
            forward(x)
        if args.broadcast:
            # --broadcast: stage 0 hands every stage a tensor first (a seed,
            # a config), a collective inside the profiler before the ranges.
            dist.broadcast(x, src=0)
        for i in range(iterations):
            done_iterations[0] = i
            if args.step_range:
                with record_function(f"step_{i}"):
                    iteration()
            else:
                iteration()
            if args.barrier:
                dist.barrier()
            if optimizer:
                optimizer.step()
                optimizer.zero_grad()
            if args.steps:
                prof.step()
        if late:
            prof.stop()
    def load(path):
        with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
            events = json.load(f)
        return events["traceEvents"] if isinstance(events, dict) else events
    names = set()
    for i in range(iterations):
        done_iterations[0] = i
        names |= {name(m) for m in range(args.microbatches)}
    if args.cycles > 1:
        # One file per cycle, in the order written (the handler's MS names
        # sort by time only within a second, so by modification time); each
        # file's own clock origin from its recorded iterations' ranges.
        paths = sorted(glob.glob(os.path.join(args.out, f"*_{os.getpid()}.*.pt.trace.json*")), key=os.path.getmtime)
        m = args.microbatches
        cycles = []
        for c, path in enumerate(paths):
            recorded = [c * cycle + 2 + k for k in range(args.steps)]
            entries = [t for i in recorded for t in entered[i * m:(i + 1) * m]]
            starts = sorted(e["ts"] for e in load(path) if e.get("name") in names and "dur" in e)
            origin = max(t - ts for t, ts in zip(entries, starts))
            cycles.append({"file": os.path.basename(path), "origin": origin,
                           "starts": [origin + starts[k * m] for k in range(args.steps)],
                           "ends": [ends[i] for i in recorded]})
        queue.put((rank, cycles))
        dist.barrier()
        dist.destroy_process_group()
        return
    recorded = slice(2 * args.microbatches, None) if args.steps else slice(None)
    entered, ends = entered[recorded], ends[2:] if args.steps else ends
    if late:
        entered = entered[args.late_after:]  # those ranges ran before the profiler
    if args.trace_handler:
        # tensorboard_trace_handler named it HOST_PID.MILLISECONDS.pt.trace.json(.gz).
        path, = glob.glob(os.path.join(args.out, f"*_{os.getpid()}.*.pt.trace.json*"))
    else:
        path = os.path.join(args.out, f"rank-{rank}.json")
        prof.export_chrome_trace(path)
    # The profiler's clock reads 0 at an epoch time found from the ranges: a
    # range's event starts just after the time taken before it opens, so the
    # largest (entered - ts) is the closest estimate (the first is late by the
    # profiler's warm-up, the others agree within microseconds). Ranges are
    # matched to their entries in time order, as names repeat across steps.
    starts = sorted(e["ts"] for e in load(path) if e.get("name") in names and "dur" in e)
    origin = max(t - ts for t, ts in zip(entered, starts))
    # The wall clock starts where the trace does, at micro-batch 0's range: a
    # time taken before the loop would add the profiler's warm-up on its
    # first range (400 ms once, on a loaded machine). One per recorded step.
    m = args.microbatches
    # --train: each pass's span on this rank, from its first range's start
    # to its last range's end, on the host's clock.
    passes = None
    if args.train:
        spans = {e["name"]: (origin + e["ts"], origin + e["ts"] + e["dur"]) for e in load(path)
                 if e.get("name") in (name(0), name(m - 1), "backward_0", f"backward_{m - 1}") and "dur" in e}
        passes = {"forward": (spans[name(0)][0], spans[name(m - 1)][1]),
                  "backward": (spans["backward_0"][0], spans[f"backward_{m - 1}"][1])}
    queue.put((rank, [origin + starts[k * m] for k in range(len(ends))], ends, origin, passes, link_times,
               os.path.basename(path)))
    dist.barrier()
    dist.destroy_process_group()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stages", type=int, default=2)
    parser.add_argument("--microbatches", type=int, default=16)
    parser.add_argument("--mode", choices=["blocking", "async", "p2pop"], default="blocking",
                        help="send/recv, isend, or batch_isend_irecv of P2POps")
    parser.add_argument("--layers", type=int, default=6, help="matmuls of stage 0 (stage s runs layers + s)")
    parser.add_argument("--stage-layers", type=lambda v: [int(n) for n in v.split(",")], default=None,
                        help="matmuls of each stage, comma-separated (overrides --layers)")
    parser.add_argument("--width", type=int, default=512)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--return", dest="returns", action="store_true",
                        help="the last stage sends each output back to stage 0")
    parser.add_argument("--train", action="store_true", help="a training step: forward and backward passes")
    parser.add_argument("--schedule", choices=["gpipe", "1f1b"], default="gpipe",
                        help="--train's order: every forward then every backward (gpipe), or each stage "
                             "alternating a forward with the oldest backward after S - 1 - s forwards (1f1b)")
    parser.add_argument("--steps", type=int, default=0,
                        help="profile with schedule(wait=1, warmup=1, active=STEPS), prof.step() after each iteration")
    parser.add_argument("--record-all", action="store_true",
                        help="record_shapes, with_stack and profile_memory")
    parser.add_argument("--profiler", choices=["kineto", "legacy"], default="kineto",
                        help="torch.profiler.profile, or torch.autograd.profiler.profile")
    parser.add_argument("--range-name", default="microbatch_{m}",
                        help="each range's name, a format of m (the micro-batch) and s (the stage)")
    parser.add_argument("--loss", action="store_true",
                        help="--train: the last stage's forward range ends with an MSE loss, its backward starts there")
    parser.add_argument("--optimizer", action="store_true",
                        help="--train: the layers are parameters, an SGD step after the training step")
    parser.add_argument("--with-flops", action="store_true", help="the profiler's with_flops")
    parser.add_argument("--warmup-in-profile", type=int, default=0,
                        help="forward-only iterations without ranges inside the profiler, before the recorded one")
    parser.add_argument("--measure-links", action="store_true",
                        help="before profiling, time each link moving one activation to a waiting receiver "
                             "(run.json's link_transfer_us)")
    parser.add_argument("--busy-rank", type=int, default=-1,
                        help="this rank runs a spinning Python thread beside its stage (a noisy host)")
    parser.add_argument("--start-delay-ms", type=lambda v: [float(n) for n in v.split(",")], default=None,
                        help="each rank's sleep before entering its profiler, comma-separated ms "
                             "(the ranks' clocks then differ by about as much)")
    parser.add_argument("--trace-handler", action="store_true",
                        help="write each trace with tensorboard_trace_handler (HOST_PID.MS.pt.trace.json), "
                             "run.json's files naming each rank's")
    parser.add_argument("--gzip", action="store_true", help="--trace-handler's use_gzip")
    parser.add_argument("--sender-thread", action="store_true",
                        help="each stage's sends run on a Python thread fed by a queue")
    parser.add_argument("--all-reduce", action="store_true",
                        help="an all_reduce across the stages after the micro-batches, inside the profiler")
    parser.add_argument("--cycles", type=int, default=1,
                        help="--steps with --trace-handler: the schedule repeats this many cycles, a file per cycle")
    parser.add_argument("--iterations", type=int, default=1,
                        help="forward iterations in one profile, without prof.step(): the range names repeat "
                             "(--continuous numbers them on)")
    parser.add_argument("--continuous", action="store_true",
                        help="--iterations: iteration i's ranges are numbered from i * microbatches")
    parser.add_argument("--step-range", action="store_true", help="a range step_I around each iteration")
    parser.add_argument("--barrier", action="store_true", help="a dist.barrier() after each iteration")
    parser.add_argument("--broadcast", action="store_true",
                        help="a dist.broadcast from stage 0 inside the profiler, before the first iteration")
    parser.add_argument("--wrap-range", action="store_true",
                        help="each micro-batch's range holds its receive and its send too")
    parser.add_argument("--outer-range", default=None,
                        help="a second range around each micro-batch's, a format of s and m (e.g. 'stage{s}')")
    parser.add_argument("--stage-modes", type=lambda v: v.split(","), default=None,
                        help="each stage's send mode, comma-separated (overrides --mode for sends)")
    parser.add_argument("--any-source", action="store_true", help="each forward receive names no source")
    parser.add_argument("--setup-in-profile", action="store_true",
                        help="each rank runs one forward of its own inside the profiler before the ranges, "
                             "no message, no range")
    parser.add_argument("--stage-widths", type=lambda v: [int(n) for n in v.split(",")], default=None,
                        help="each stage's output width, comma-separated: link s carries batch x widths[s] "
                             "(the last one's is unused)")
    parser.add_argument("--two-tensors", action="store_true",
                        help="each stage sends a second, smaller tensor after each output (two messages a "
                             "micro-batch on every link)")
    parser.add_argument("--fresh-buffers", action="store_true",
                        help="with --two-tensors, the second tensor is received into a buffer made just before "
                             "its receive (torch.empty_like), an op between a micro-batch's two receives")
    parser.add_argument("--warmup-outside", type=int, default=0,
                        help="whole forward iterations, messages and all, before the profiler starts")
    parser.add_argument("--late-rank", type=int, default=-1,
                        help="this rank's profiler starts just before its micro-batch --late-after, after the "
                             "first messages")
    parser.add_argument("--late-after", type=int, default=2, help="--late-rank's first profiled micro-batch")
    parser.add_argument("--port", type=int, default=29517)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.start_delay_ms and len(args.start_delay_ms) != args.stages:
        parser.error("--start-delay-ms needs one delay per stage")
    if args.gzip and not args.trace_handler:
        parser.error("--gzip is --trace-handler's")
    if args.stage_layers and len(args.stage_layers) != args.stages:
        parser.error("--stage-layers needs one count per stage")
    if (args.loss or args.optimizer) and not args.train:
        parser.error("--loss and --optimizer are --train's")
    if args.train and (args.returns or args.steps):
        parser.error("--train runs without --return or --steps")
    if args.schedule != "gpipe" and not args.train:
        parser.error("--schedule is --train's")
    if args.steps and args.profiler == "legacy":
        parser.error("--steps needs torch.profiler's schedule, not the legacy profiler")
    if args.cycles > 1 and not (args.steps and args.trace_handler):
        parser.error("--cycles needs --steps and --trace-handler")
    if args.iterations > 1 and args.steps:
        parser.error("--iterations runs without --steps")
    if args.stage_widths and len(args.stage_widths) != args.stages:
        parser.error("--stage-widths needs one width per stage")
    if args.fresh_buffers and not args.two_tensors:
        parser.error("--fresh-buffers goes with --two-tensors")
    if (args.stage_widths or args.two_tensors) and (args.train or args.returns):
        parser.error("--stage-widths and --two-tensors run forward-only, without --return")
    if args.late_rank >= 0 and (args.steps or args.iterations > 1 or args.profiler == "legacy" or args.train
                                or not 0 < args.late_after < args.microbatches):
        parser.error("--late-rank runs one forward iteration under torch.profiler, 0 < --late-after < M")
    os.makedirs(args.out, exist_ok=True)
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    procs = [ctx.Process(target=stage_main, args=(r, args, queue)) for r in range(args.stages)]
    for p in procs:
        p.start()
    facts = sorted(queue.get(timeout=600) for _ in procs)
    for p in procs:
        p.join()
        if p.exitcode != 0:
            raise SystemExit(f"a stage failed (exit code {p.exitcode})")
    if args.cycles > 1:
        # Per cycle: each rank's file, the true offsets, each step's wall clock.
        run = {"stages": args.stages, "microbatches": args.microbatches, "mode": args.mode, "steps": args.steps,
               "cycles": [{"files": [f[1][c]["file"] for f in facts],
                           "clock_offsets_us": [f[1][c]["origin"] - facts[0][1][c]["origin"] for f in facts],
                           "step_wall_clocks_us": [e - s for s, e in zip(facts[0][1][c]["starts"],
                                                                         facts[-1][1][c]["ends"])]}
                          for c in range(args.cycles)]}
        with open(os.path.join(args.out, "run.json"), "w") as f:
            json.dump(run, f, indent=1)
        print(json.dumps(run))
        return
    origins = [f[3] for f in facts]
    run = {
        "stages": args.stages,
        "microbatches": args.microbatches,
        "mode": args.mode,
        "returns": args.returns,
        "train": args.train,
        "steps": args.steps,
        "wall_clock_us": facts[-1][2][0] - facts[0][1][0],
        # From the first recorded iteration's micro-batch 0 on stage 0 to the
        # last one's end on the last stage (--iterations: all of them).
        "total_wall_clock_us": facts[-1][2][-1] - facts[0][1][0],
        # --steps: each recorded step's, from its micro-batch 0 on stage 0.
        "step_wall_clocks_us": [end - start for start, end in zip(facts[0][1], facts[-1][2])],
        "profiler_start_epoch_us": origins,
        # Adding clock_offsets_us[s] to stage s's times puts them on stage 0's clock.
        "clock_offsets_us": [o - origins[0] for o in origins],
        # Each rank's trace file, by rank.
        "files": [f[6] for f in facts],
    }
    if args.measure_links:
        # Link s: rank s's sends against rank s + 1's returns, the median.
        run["link_transfer_us"] = [
            sorted(got - sent for sent, got in zip(facts[s][5]["sent"], facts[s + 1][5]["got"][-5:]))[2]
            for s in range(args.stages - 1)]
    if args.train:
        # The forward pass runs from stage 0's first forward range to the last
        # stage's last one; the backward pass from the last stage's first
        # backward range to stage 0's last one. Under 1F1B the two overlap.
        run["schedule"] = args.schedule
        run["pass_wall_clocks_us"] = {"forward": facts[-1][4]["forward"][1] - facts[0][4]["forward"][0],
                                      "backward": facts[0][4]["backward"][1] - facts[-1][4]["backward"][0]}
    with open(os.path.join(args.out, "run.json"), "w") as f:
        json.dump(run, f, indent=1)
    print(json.dumps(run))


if __name__ == "__main__":
    main()
