#!/usr/bin/env python3
"""Hostile but valid file inputs near the readers' limits, each timed through the CLI.

A sibling of fuzz-cli.py: where that mutates small files, this writes large
files of shapes that could make a reader superlinear (deep nesting, ties, many
distinct names, patterns that keep many states alive, many tensors or keys)
and prints each run's seconds, exit status and first stderr line. The figures
of a run go in docs/benchmarks.md ("Hostile inputs of the file readers").

  scripts/hostile-cli.py [--cli build/native/cli/heteropipe] [--out /tmp/hostile-cli] [--scale 1.0] [SHAPE...]
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tests', 'data', 'gguf'))
import write_gguf as gguf  # noqa: E402  (the tests' independent GGUF writer)

MB = '^microbatch_([0-9]+)$'
# Sixty alternatives that each stay alive over every letter: a Pike VM's worst case.
HEAVY = '(' + '|'.join(['[a-z]*'] * 60) + ')*z'


def event(name, ts, dur, pid=0, tid=1, ph='X', cat=None):
    e = {'name': name, 'ph': ph, 'ts': ts, 'pid': pid, 'tid': tid}
    if ph == 'X':
        e['dur'] = dur
    if cat:
        e['cat'] = cat
    return e


def trace(path, events):
    with open(path, 'w') as f:
        json.dump({'traceEvents': events}, f, separators=(',', ':'))


def rows(path, lines):
    with open(path, 'w') as f:
        f.write('stage,microbatch,kind,start,end\n')
        f.writelines(lines)


def gguf_file(path, kv_bytes, kv_count, tensors):
    parts = [b'GGUF' + struct.pack('<IQQ', 3, len(tensors), kv_count)] + kv_bytes
    offset = 0
    for name, dims, type_name in tensors:
        parts.append(gguf._string(name) + struct.pack('<I', len(dims)) +
                     b''.join(struct.pack('<Q', d) for d in dims) + struct.pack('<IQ', gguf.TYPES[type_name][0], offset))
        offset += gguf.tensor_bytes(dims, type_name)
        offset += -offset % 32
    head = b''.join(parts)
    head += b'\0' * (-len(head) % 32)
    with open(path, 'wb') as f:
        f.write(head)
        f.truncate(len(head) + offset)  # the data region a hole: the reader never reads it


def kv_of(kv):
    return [gguf._string(k) + struct.pack('<I', t) + gguf._value(t, v) for k, t, v in kv]


def shapes(n):
    """name: (writer(path), file suffix, CLI words before the file)."""
    def names(p):
        trace(p, [event('k%07d' % i + 'a' * 4088, i * 10, 5) for i in range(n(20_000))])

    def nested(p):
        k = n(1_000_000)
        trace(p, [event('microbatch_%d' % i, i, 0, ph='B') for i in range(k)] +
              [event('x', 2 * k - i, 0, ph='E') for i in range(k)])

    def ranges(p):
        k = n(200_000)
        trace(p, [event('microbatch_%d' % i, i, 4 * k - 2 * i) for i in range(k)] +
              [event('gemm_%d' % i, k + i, 1, cat='kernel', pid=1, tid=7) for i in range(k)])

    def same(p):
        trace(p, [event('k', 1000, 5, cat='kernel') for _ in range(n(2_000_000))])

    def threads(p):
        trace(p, [event('k', i, 5, pid='p%d' % i, tid='t%d' % i, cat='kernel') for i in range(n(1_000_000))])

    def csv_rows(p):
        k = n(1_000_000)
        rows(p, ['0,%d,compute,%d,%d.5\n' % (i, i, i) for i in range(k)] +
             ['1,%d,compute,%d,%d.5\n' % (i, i + 1, i + 1) for i in range(k)] +
             ['0,%d,transfer,%d.5,%d\n' % (i, i, i + 1) for i in range(k)])

    def csv_ties(p):
        rows(p, ['%d,%d,compute,0,1\n' % (i % 4, i // 4) for i in range(n(2_000_000))])

    def tensors(p):
        layers = 4096
        kv = gguf.llama_kv('llama', 'Many Tensors', layers, 32, 4, 4, 64, 32)
        t = [('token_embd.weight', [32, 32], 'F32')]
        t += [('blk.%d.extra_%d.weight' % (k % layers, k), [32], 'F32') for k in range(n(1_000_000) - 1)]
        gguf_file(p, kv_of(kv), len(kv), t)

    def keys(p):
        kv = gguf.llama_kv('llama', 'Many Keys', 2, 32, 4, 4, 64, 32)
        blob = struct.pack('<IQ', gguf.I32, 1000) + b'\1\0\0\0' * 1000
        count = n(65_536)
        extra = [gguf._string('x.k%d' % i) + struct.pack('<I', gguf.ARRAY) + blob for i in range(count - len(kv))]
        t = [(name, [32, 32], 'F32') for name in ('token_embd.weight', 'blk.0.attn_q.weight', 'blk.1.attn_q.weight')]
        gguf_file(p, kv_of(kv) + extra, count, t)

    return {
        'names_heavy_pattern': (names, '.json', ['trace', '--compute', HEAVY]),
        'names_anchored_pattern': (names, '.json', ['trace', '--compute', '^k00']),
        'nested_be': (nested, '.json', ['trace', '--microbatch', MB]),
        'nested_ranges': (ranges, '.json', ['trace', '--microbatch', MB]),
        'same_instant': (same, '.json', ['trace']),
        'distinct_threads': (threads, '.json', ['trace']),
        'csv_rows': (csv_rows, '.csv', ['trace']),
        'csv_ties': (csv_ties, '.csv', ['trace']),
        'gguf_tensors': (tensors, '.gguf', ['model']),
        'gguf_keys': (keys, '.gguf', ['model']),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('shape', nargs='*')
    parser.add_argument('--cli', default=os.path.join(ROOT, 'build', 'native', 'cli', 'heteropipe'))
    parser.add_argument('--out', default='/tmp/hostile-cli')
    parser.add_argument('--scale', type=float, default=1.0, help='fraction of each shape\'s size near its limit')
    parser.add_argument('--timeout', type=float, default=120)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    table = shapes(lambda count: max(1, int(count * args.scale)))
    for name in args.shape or table:
        write, suffix, words = table[name]
        path = os.path.join(args.out, name + suffix)
        write(path)
        start = time.monotonic()
        try:
            run = subprocess.run([args.cli] + words + [path], capture_output=True, timeout=args.timeout)
            rc, err = run.returncode, run.stderr.decode('utf-8', 'replace').strip().split('\n')[0][:160]
        except subprocess.TimeoutExpired:
            rc, err = 'timeout', ''
        print('%-24s %8.1f MB %7.2f s  rc %s  %s' % (name, os.path.getsize(path) / 1e6, time.monotonic() - start, rc,
                                                      err), flush=True)
        os.remove(path)


if __name__ == '__main__':
    main()
