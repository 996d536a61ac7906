#!/usr/bin/env python3
"""Seed corpora for the libFuzzer targets of tests/fuzz, from the repository's fixtures.

Writes OUT/TARGET/ for each target (default OUT: /tmp/heteropipe-fuzz/seeds),
and OUT/TARGET.dict (libFuzzer's -dict) for the JSON readers: every short
quoted word of their sources (keys, names, catalog ids), as JSON strings.
the inputs in the form each target reads (see its file's comment): files of
several ranks joined by "\\n--\\n" lines, an options byte first where the
target takes one. Nothing here is committed; the fixtures are the seeds.

  scripts/fuzz-seeds.py [OUT]
"""
import gzip
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEP = b"\n--\n"


def text_of(path):
    data = path.read_bytes()
    if path.suffix != ".gz":
        return data
    try:
        return gzip.decompress(data)
    except EOFError:  # cut.json.gz, cut on purpose: the CLI's inflater refuses it first
        return b""


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/heteropipe-fuzz/seeds")
    seeds = {}

    def add(target, name, data):
        seeds.setdefault(target, {})[name] = data

    plans = ROOT / "tests/cli/plans"
    for p in sorted(plans.glob("*.json")):
        if p.name.startswith("bench_") or p.name.startswith("bad_bench"):
            add("calibration_json", p.name, p.read_bytes())
        else:
            add("plan_json", p.name, p.read_bytes())
    for p in sorted((ROOT / "tests/data/gguf").glob("*.gguf")):
        data = p.read_bytes()
        head = data.rstrip(b"\0")  # the header; the zeros after it are the weights' (write_gguf.py)
        add("gguf", p.name, (len(data) - len(head)).to_bytes(8, "little") + head)

    traces = ROOT / "tests/cli/traces"
    for p in sorted(traces.glob("*.json*")):
        add("trace", p.name, b"\x01" + text_of(p))
    for group in ("torch_1f1b_rank", "kineto_peers_rank", "cpu_gloo_rank"):
        files = sorted(traces.glob(group + "-*.json*"))
        add("trace", group, b"\x01" + SEP.join(text_of(f) for f in files))
    for d in sorted((ROOT / "tests/data/traces").iterdir()):
        if d.is_dir():
            files = sorted(d.glob("rank-*.json*"))
            add("trace", d.name, b"\x01" + SEP.join(text_of(f) for f in files))
            # Bit 7: read as a directory, its run.json among the files.
            add("trace", d.name + "_dir", b"\x81" + SEP.join(text_of(f) for f in sorted(d.glob("*.json*"))))
    # Bit 5: typed options first (docs/traces.md#patterns; the example's micro-batch ranges).
    short = ROOT / "tests/data/traces/torch_short_run"
    ranks = SEP.join(text_of(f) for f in sorted(short.glob("rank-*.json")))
    add("trace", "options_patterns", b"\x21" + b"gemm|addmm\nnccl.*Send|gloo\nmicrobatch_(\\d+)\n1,0\n" + SEP + ranks)
    add("trace", "options_offsets", b"\x21" + b"\n\n\n\n0,-0.5\n" + SEP + ranks)
    for p in sorted(traces.glob("*.csv")):
        add("schedule_csv", p.name, b"\x01" + p.read_bytes())
        add("trace", p.name, b"\x01" + p.read_bytes())

    for p in sorted((ROOT / "tests/cli/sims").glob("*.csv")):
        add("sim_table", p.name, b"\x06" + p.read_bytes())

    add("request", "paper", b"10,20,30,40\n--\n1,1,1\n--\n8\n--\n1\n--\n300")
    add("request", "no_d", b"1 2 3\n--\n\n--\n1000\n--\n0.5")
    add("request", "fullwidth", "１，２；３\n--\n0.5、0.5\n--\n16".encode())
    add("simulate", "async", b"1,2,3\n--\n0.5,0.5\n--\n8")
    add("simulate", "serial_shared", b"1,2,3,4\n--\n1,1,1\n--\n16\n--\nserial\n--\n0,1\n--\n1\n--\nlognormal:cv=0.3\n--\n"
        b"gamma:cv=1\n--\n3\n--\n7")
    add("simulate", "buffers_uniform", b"2,1\n--\n0.1\n--\n4\n--\nblocking\n--\n\n--\ninf\n--\nuniform:spread=0.5\n--\n"
        b"exponential\n--\n2\n--\n1")
    add("simulate", "matrix", b"1,2\n--\n1\n--\n2\n--\nasync\n--\n\n--\n\n--\n\n--\n\n--\n\n--\n\n--\n"
        b"stage0,stage1\n1,2\n3,4\n--\n0.5\n0.25")
    for pattern, text in ((b"^nccl.*SendRecv", b"ncclDevKernel_SendRecv(x)"), (b"microbatch_(\\d+)", b"microbatch_12"),
                          (b"(?:fwd|bwd)[_ ]mb(\\d{1,3})\\b", b"fwd_mb7 x"), (b"[^a-z]+$", b"abc123"),
                          (b"a|b|c*?d", b"cccd"), (b"\\bGEMM\\B", b"GEMMx")):
        add("pattern", pattern.decode(errors="replace").replace("/", "_")[:40], pattern + b"\0" + text)

    dict_sources = {
        "plan_json": ["core/src/plan/read_json.cpp", "core/src/plan/catalog.cpp", "core/src/plan/estimate.cpp"],
        "calibration_json": ["core/src/plan/read_json.cpp", "core/src/plan/calibration.cpp"],
        "trace": ["core/src/trace/chrome_reader.cpp", "core/src/trace/classify.cpp", "core/src/trace/csv_reader.cpp"],
        "schedule_csv": ["core/src/trace/csv_reader.cpp"],
    }
    out.mkdir(parents=True, exist_ok=True)
    for target, sources in dict_sources.items():
        words = set()
        for source in sources:
            words.update(re.findall(r'"([A-Za-z_][A-Za-z0-9_#.:-]{1,30})"', (ROOT / source).read_text()))
        (out / (target + ".dict")).write_text("".join(f'"\\"{w}\\""\n' for w in sorted(words)))

    for target, files in seeds.items():
        folder = out / target
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in name)
            (folder / safe).write_bytes(data)
        print(f"{target}: {len(files)} seeds in {folder}")


if __name__ == "__main__":
    main()
