#!/usr/bin/env python3
"""Reproduces docs/planner.md's choice of the estimator's structure.

Usage: scripts/estimator_cv.py build/native/cli/heteropipe

Reads the fit set (tests/core/published_rows.hpp: six sources), the
held-out rows (tests/core/held_out_rows.hpp) and the catalog's facts
(core/src/plan/catalog.cpp), and for each candidate structure of
docs/planner.md#choosing-the-structure-cross-validation fits its constants
to the fit set and cross-validates them, leaving out one source at a time
(the criterion), and, beside it, one GPU configuration of one source at a
time. Single-stream decode is bound by bandwidth, so an estimated time is
linear in the constants and each fit is an exact least-squares solution.

This is an analysis aid, not the estimator: it restates the decode
arithmetic of core/src/plan/estimate.cpp for these rows only, and checks
that restatement against the CLI's own estimate of every row before it
prints anything.
"""
import json
import math
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTEXT = 512  # the rows' average position (tests/core/published_rows.hpp)
PCIE4 = (10e-6, 31.5e9)  # the default link's latency and bandwidth (catalog pcie4-x16)
CLASSES = {"nvidia_gddr": 0, "amd_gddr": 0, "intel_gddr": 0, "nvidia_hbm": 1, "amd_hbm": 1, "apple": 2}


def catalog():
    src = (ROOT / "core/src/plan/catalog.cpp").read_text()
    gpus = {m[0]: (m[1], float(m[2]) * 2**30, float(m[3]) * 1e9, float(m[4]) * 1e12) for m in re.findall(
        r'\{"([a-z0-9\-]+)", "[^"]*", DeviceClass::(\w+), ([\d.]+) \* GiB, ([\d.]+) \* GBps, ([\d.]+) \* TFLOPS', src)}
    models = {}
    for m in re.finditer(r'\{"([a-z0-9.\-]+)", "[^"]*", (\d+), (\d+), (\d+), (\d+), (\d+), (\d+), (?:true|false),'
                         r'\s*"(?:[^"\\]|\\.)*"(?:\s*"(?:[^"\\]|\\.)*")*,?\s*([\d, ]*)\}', src):
        extra = [int(x) for x in m[8].replace(" ", "").split(",") if x] + [0] * 5
        models[m[1]] = dict(zip(("L", "h", "inter", "heads", "kv", "vocab"), map(int, m.groups()[1:7])),
                            head=extra[0], E=extra[1], k=extra[2], win=extra[3], per=extra[4])
    quants = {}
    # Each entry: its ggml type, its bytes per weight and, last, any other_bytes_per_weight (QuantSpec).
    table = src[src.index("kQuants"):src.index("kLinks")]
    for q, t, num, den, rest in re.findall(r'\{"(\w+)", "(\w+)", ([\d.]+)(?: / ([\d.]+))?,(.*?)\},\n', table, re.S):
        other = re.search(r',\s*([\d.]+)(?: / ([\d.]+))?\s*$', rest)
        b = float(num) / float(den or 1)
        quants[q] = (b, float(other[1]) / float(other[2] or 1) if other else b, t)
    return gpus, models, quants


GPUS, MODELS, QUANTS = catalog()
# Cards on which llama.cpp launches no CUDA graphs (GpuSpec::cuda_graphs false: Pascal).
_GPU_TABLE = (ROOT / "core/src/plan/catalog.cpp").read_text()
NO_GRAPHS = {entry.split('"')[0] for entry in _GPU_TABLE[_GPU_TABLE.index("kGpus"):_GPU_TABLE.index("kModels")].split('    {"')
             if "\", false}," in entry}


def rows():
    """Fit and held-out rows as (source, model, quant, gpu, count, tokens/s, before_graphs):
    before_graphs marks an NVIDIA row whose CUDA build launched no CUDA graphs (a build before
    llama.cpp pull request #6766, or a Pascal card), by the same rule for fit and held-out rows."""
    text = (ROOT / "tests/core/published_rows.hpp").read_text()
    nvidia = lambda gpu: GPUS[gpu][0].startswith("nvidia")
    fit = [("dai", m, q, g, int(n), float(t), nvidia(g))
           for m, q, g, n, t in re.findall(r'\{"([^"]+)","([^"]+)","([^"]+)",(\d+),([\d.]+)\}', text)]
    fit += [(src, m, q, g, int(n), float(t), nvidia(g) and (graphs == "false" or g in NO_GRAPHS))
            for src, m, q, g, n, t, graphs in re.findall(
                r'\{"([^"]+)","([^"]+)","([^"]+)","([^"]+)",(\d+),([\d.]+),(true|false)\}', text)]
    held_text = (ROOT / "tests/core/held_out_rows.hpp").read_text()
    # A held-out source whose CUDA build predates CUDA graphs says so (cuda_graphs false), as the fit set's rows do.
    held_before = set(re.findall(r'\{"([^"]+)", "[^"]*", false,', held_text))
    held = [(src, m, q, g, int(n), float(t), nvidia(g) and (src in held_before or g in NO_GRAPHS))
            for src, m, q, g, n, t in re.findall(r'\{"([^"]+)","([^"]+)","([^"]+)","([^"]+)",(\d+),([\d.]+)\}',
                                                 held_text)]
    return fit, held


# llama.cpp's quantizer (tensor_type_fallback in src/llama-quant.cpp; core/src/plan/ggml_types.cpp): a matrix
# whose rows (its input dimension) are no whole number of a K-quant's or i-quant's 256-weight blocks is stored in
# a 32-weight type instead, at these bytes per weight; the LM head in Q8_0. Every catalog dimension is a whole
# number of 32 (tests/core/plan_catalog_test.cpp), so no 32-weight format falls back.
FALLBACK = {"Q6_K": 34 / 32, "Q5_K": 24 / 32, "Q4_K": 22 / 32, "Q3_K": 18 / 32, "Q2_K": 18 / 32, "IQ4_XS": 18 / 32,
            "IQ2_XXS": 18 / 32}


def work(model, quant):
    """Per token: bytes read (every layer and the LM head), the quantized weights read, layers, hidden size.
    The feed-forward (expert) weights are at the format's bytes per weight b, the rest at o, each matrix at its
    format's fallback where its rows are no whole number of the format's blocks."""
    m, (b, o, qtype) = MODELS[model], QUANTS[quant]
    h = m["h"]
    head = m["head"] or h // m["heads"]
    qd, kvd = m["heads"] * head, m["kv"] * head
    moe = m["E"] > 0

    def rate(r, row):
        return FALLBACK[qtype] if qtype in FALLBACK and row % 256 else r

    # (weights, bytes per weight) of each matrix one token reads in a layer: Q, K and V, the router and two norms
    # (rows of h), the attention output (rows of q_dim), each expert's gate and up (h) and down (intermediate).
    shared = [(h * qd + 2 * h * kvd + (h * m["E"] if moe else 0) + 2 * h, rate(o, h)), (qd * h, rate(o, qd))]
    used = m["k"] if moe else 1
    ffn = [(used * 2 * h * m["inter"], rate(b, h)), (used * m["inter"] * h, rate(b, m["inter"]))]
    layer = shared + ffn
    lm_head = (m["vocab"] * h, 34 / 32 if qtype in FALLBACK and h % 256 else o)
    total = 0.0
    for j in range(m["L"]):
        slides = m["win"] > 0 and (m["per"] == 0 or (j + 1) % m["per"] != 0)
        total += sum(n * r for n, r in layer) + 2 * kvd * 2 * (min(CONTEXT, m["win"]) if slides else CONTEXT)
    total += lm_head[0] * lm_head[1]
    quantized = m["L"] * sum(n for n, r in layer if r < 2) + (lm_head[0] if lm_head[1] < 2 else 0.0)
    return total, quantized, m["L"], h


# Each candidate: the columns of its design matrix, for a row, beside the
# per-class 1 / e_bw columns (the constants' meaning in docs/planner.md).
# Letters: A per-class e_bw and per-layer o with kHopSync (always); Q
# kDequantFlops (unpacking at the fp16 rate); B the fixed cost per token, not
# per layer; G a per-layer cost of CUDA builds before graphs (one constant);
# H the same per class; K a K-quant super-block cost at the fp16 rate; W the
# same at the bandwidth; F a per-layer cost at the fp16 rate.
K_QUANTS = {"Q2_K", "Q3_K_M", "Q4_K_S", "Q4_K_M", "Q5_K_S", "Q5_K_M", "Q6_K"}


def columns(kind, row):
    _, model, quant, gpu, n, _, before_graphs = row
    cls, _, bw, flops = GPUS[gpu]
    k = CLASSES[cls]
    total, quantized, L, _ = work(model, quant)
    cols = [0.0] * 3
    cols[k] = total / bw
    fixed = [0.0] * 3
    fixed[k] = 1.0 if "B" in kind else float(L)
    extra = []
    if "Q" in kind:
        extra.append(quantized / flops)
    if "G" in kind:
        extra.append(float(L) if before_graphs else 0.0)
    if "H" in kind:
        per_class = [0.0] * 2
        if before_graphs:
            per_class[min(k, 1)] = float(L)
        extra += per_class
    if "K" in kind:
        extra.append(quantized / flops if quant in K_QUANTS else 0.0)
    if "W" in kind:
        extra.append(quantized / bw if quant in K_QUANTS else 0.0)
    if "F" in kind:
        extra.append(L / flops * 1e12)
    return cols + fixed + [n - 1.0] + extra


def link_time(row):
    h = MODELS[row[1]]["h"]
    return (row[4] - 1) * (PCIE4[0] + h * 4 / PCIE4[1])


def solve(a, v):
    n = len(v)
    m = [a[i][:] + [v[i]] for i in range(n)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[p] = m[p], m[i]
        if m[i][i] == 0:
            continue
        for r in range(n):
            if r != i:
                f = m[r][i] / m[i][i]
                m[r] = [x - f * y for x, y in zip(m[r], m[i])]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def fit(kind, train):
    """Least squares of (estimated time / measured time - 1)."""
    x = [[c * r[5] for c in columns(kind, r)] for r in train]
    y = [1 - link_time(r) * r[5] for r in train]
    p = len(x[0])
    a = [[sum(xi[i] * xi[j] for xi in x) for j in range(p)] for i in range(p)]
    return solve(a, [sum(xi[i] * yi for xi, yi in zip(x, y)) for i in range(p)])


def estimate(kind, theta, row):
    return 1 / (sum(c * t for c, t in zip(columns(kind, row), theta)) + link_time(row))


def determined(kind, train, row):
    """Whether every constant the row uses is fitted from some training row."""
    c = columns(kind, row)
    return all(any(columns(kind, t)[i] for t in train) for i in range(len(c)) if c[i])


def cross_validate(kind, fit_rows, key):
    """Refit without each group of rows in turn and estimate the group; rows whose constants no
    training row determines (the layer splits' when Dai's table is left out) are skipped."""
    errors = []
    for group in sorted({key(r) for r in fit_rows}):
        train = [r for r in fit_rows if key(r) != group]
        theta = fit(kind, train)
        errors += [estimate(kind, theta, r) / r[5] for r in fit_rows if key(r) == group and determined(kind, train, r)]
    absolute = sorted(abs(e - 1) for e in errors)
    return (math.sqrt(sum(math.log(e) ** 2 for e in errors) / len(errors)), statistics.median(absolute), absolute[-1],
            len(errors))


# The shipped structure (AQG) with the shipped constants (class_efficiency in
# core/src/plan/estimate.cpp; kHopSync, kDequantFlops and kPreGraphLayerCost
# in plan/estimate.hpp).
SHIPPED = [1 / 0.91, 1 / 0.63, 1 / 0.86, 30e-6, 57e-6, 130e-6, 160e-6, 6.4, 51e-6]


def check_against_cli(cli, all_rows):
    for row in all_rows:
        plan = {"model": row[1], "quant": row[2], "devices": [row[3]] * row[4], "context": CONTEXT}
        out = subprocess.run([cli, "plan", "-", "--json"], input=json.dumps(plan), capture_output=True, text=True,
                             check=True)
        cli_tps = json.loads(out.stdout)["tokens_per_second"]
        now = row[:6] + (row[3] in NO_GRAPHS,)  # the estimate describes current builds
        if abs(estimate("AQG", SHIPPED, now) / cli_tps - 1) > 1e-9:
            sys.exit(f"the restatement disagrees with the CLI on {row}: {estimate('AQG', SHIPPED, now)} vs {cli_tps}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    fit_rows, held = rows()
    # The models whose rows are no whole number of 256-weight blocks, in every format on two B200s: no fit-set or
    # held-out row has them, and the fallback's restatement is checked on them too.
    fallback = [("fallback", m, q, "b200", 2, 0.0, False) for m in ("qwen2.5-72b", "gpt-oss-20b", "gpt-oss-120b")
                for q in QUANTS]
    check_against_cli(sys.argv[1], fit_rows + held + fallback)
    print("| candidate | constants | left-out source: RMS log | median | worst | rows | "
          "left-out configuration: RMS log | median |")
    print("|---|---|---|---|---|---|---|---|")
    for kind in ("A", "AQ", "AB", "AQF", "AG", "AQG", "AQH", "AQGK", "AQGW", "AQGF"):
        c = cross_validate(kind, fit_rows, lambda r: r[0])
        g = cross_validate(kind, fit_rows, lambda r: (r[0], r[3], r[4]))
        print(f"| {kind} | {len(fit(kind, fit_rows))} | {c[0]:.4f} | {100 * c[1]:.1f} % | {100 * c[2]:.0f} % | {c[3]} "
              f"| {g[0]:.3f} | {100 * g[1]:.1f} % |")
    theta = fit("AQG", fit_rows)
    print("AQG fitted on every fit-set row: e_bw", [round(1 / t, 4) for t in theta[:3]], "o (us)",
          [round(t * 1e6, 1) for t in theta[3:6]], "kHopSync (us)", round(theta[6] * 1e6, 1),
          "kDequantFlops", round(theta[7], 3), "kPreGraphLayerCost (us)", round(theta[8] * 1e6, 1))


if __name__ == "__main__":
    main()
