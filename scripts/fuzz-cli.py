#!/usr/bin/env python3
"""Mutation fuzzing of the command line's file readers, under the sanitizer build.

Mutates the valid and bad inputs the CLI goldens use -- plan JSON, llama-bench
calibration JSON, GGUF files, Chrome/Kineto traces (plain and .json.gz, one
file or three ranks), schedule CSVs, service and link matrices, sample
columns -- and runs each through the CLI. A run is a problem when it crashes
or exits other than 0 or 2, when ASan/UBSan/LSan reports anything, when it
takes over 5 s (timed twice, the least kept: a busy machine is not the CLI's
fault), when stderr holds a line that is not a coded "error: " line, or when a
successful run prints NaN or Infinity. Each problem's input and report stay in
OUT; passing inputs are deleted.

  cmake --preset native-sanitize && cmake --build --preset native-sanitize --target heteropipe
  scripts/fuzz-cli.py FAMILY ITERATIONS [SEED] [--cli build/sanitize/cli/heteropipe] [--out /tmp/fuzz-cli]

FAMILY: plan, calib, gguf, trace, tracegz, trace3, csv, linkcsv, samples, argv, or all.
argv mutates the golden cases' command lines (tests/cli/cases.txt): options
repeated, given values or none, cut, swapped, abbreviated, unknown ones and
stray words; any line of CLI11's own words on stderr is a problem.
"""
import argparse
import glob
import gzip
import os
import random
import re
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GGUF_DIR = os.path.join(ROOT, 'tests', 'data', 'gguf') + os.sep
INTERESTING = [b'0', b'-0', b'1e308', b'1e309', b'-1e309', b'1e-400', b'5e-324', b'2.2250738585072014e-308',
               b'9007199254740993', b'18446744073709551616', b'-9223372036854775809', b'1' * 400,
               b'0.' + b'0' * 400 + b'1', b'NaN', b'Infinity', b'-Infinity', b'nan', b'inf', b'1e15',
               b'1.0000000000000001e15', b'1e-15', b'9.999e-16', b'1e16', b'4294967296', b'2147483648', b'-1',
               b'0.5', b'1,5', b'"1"', b'null', b'true', b'[]', b'{}', b'[[[[[[[[[[', b']]]]', b'"\\ud800"',
               b'"\\u0000"', b'"\xff\xfe"', b'"\xc3\xa9"', b'1e', b'-', b'+1', b'.5', b'0x10', b'1_000', b'\x00',
               b'9' * 30, b'1e-320', b'1E+2', b'  ', b'\t', b'\r\n', b',', b';', b'"', b'\\']
# CLI11's own words: a usage error must reach the user worded as the CLI's others.
CLI11_WORDS = re.compile(rb'At Most|At Least|not expected|required but|required [A-Z.:{}a-z,]+ missing|not in \{|'
                         rb'flag override|Could not convert|^error: arguments: ')
NUMBER = re.compile(rb'-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?')
NON_FINITE = re.compile(rb'(?<![A-Za-z_])(nan|-?inf|-?infinity)(?![A-Za-z_])', re.IGNORECASE)


def mutate_text(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        k = rng.random()
        if k < 0.35:
            numbers = list(NUMBER.finditer(data))
            if numbers:
                m = rng.choice(numbers)
                data[m.start():m.end()] = rng.choice(INTERESTING)
                continue
        if k < 0.5 and data:
            data.insert(rng.randrange(len(data)), rng.randrange(256))
        elif k < 0.6 and data:
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif k < 0.7 and data:
            i = rng.randrange(len(data))
            del data[i:i + rng.randint(1, 40)]
        elif k < 0.8 and data:
            i = rng.randrange(len(data))
            chunk = data[i:i + rng.randint(1, 200)]
            p = rng.randrange(len(data) + 1)
            data[p:p] = chunk * rng.randint(1, 3)
        elif k < 0.9:
            p = rng.randrange(len(data) + 1)
            data[p:p] = rng.choice(INTERESTING)
        elif data:
            del data[rng.randrange(len(data)):]
    return bytes(data)


def mutate_binary(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        k = rng.random()
        i = rng.randrange(len(data)) if data else 0
        if k < 0.3 and len(data) > 8:
            width = rng.choice([1, 2, 4, 8])
            value = rng.choice([0, 1, 0xff, 0x7f, 0x80, 2**31 - 1, 2**31, 2**32 - 1, 2**63, 2**64 - 1, rng.randrange(2**64)])
            data[i:i + width] = (value % (2 ** (8 * width))).to_bytes(width, 'little')
        elif k < 0.6 and data:
            data[i] ^= 1 << rng.randrange(8)
        elif k < 0.7 and data:
            del data[i:i + rng.randint(1, 64)]
        elif k < 0.8 and data:
            del data[i:]
        else:
            data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    return bytes(data)


def golden_argvs():
    argvs = []
    for line in open(os.path.join(ROOT, 'tests', 'cli', 'cases.txt'), encoding='utf-8'):
        if line.strip() and not line.startswith('#') and ':' in line:
            words = shlex.split(line.split(':', 1)[1])[1:]
            if not any(w[:1] in '<>' for w in words):
                argvs.append(words)
    return argvs


def mutate_argv(rng, argv):
    argv = list(argv)
    options = [w for w in argv if w.startswith('--')] or ['--json']
    for _ in range(rng.randint(1, 3)):
        k = rng.random()
        i = rng.randrange(len(argv) + 1)
        if k < 0.2:
            argv.insert(i, rng.choice(options))  # an option again, maybe without its value
        elif k < 0.3:
            argv.insert(i, rng.choice(options) + '=' + rng.choice(INTERESTING).decode('latin-1'))
        elif k < 0.4 and argv:
            del argv[rng.randrange(len(argv)):]
        elif k < 0.5 and len(argv) > 1:
            j = rng.randrange(len(argv) - 1)
            argv[j], argv[j + 1] = argv[j + 1], argv[j]
        elif k < 0.6:
            argv.insert(i, rng.choice(['--', '-', '-x', '--js', '--ta', '--T_real', '---tau', '--tau=', '=', '',
                                       'plan', 'trace', 'model', 'simulate', '--help', '--version', '-h']))
        elif k < 0.7:
            argv.insert(i, rng.choice(INTERESTING).decode('latin-1'))
        elif k < 0.8 and argv:
            w = rng.randrange(len(argv))
            argv[w] = argv[w][:rng.randrange(len(argv[w]) + 1)]
        else:
            argv[i:i] = argv[i:i + rng.randint(1, 3)]
    return [a.replace('\x00', '') for a in argv]  # an argv cannot hold a NUL


def seeds(pattern):
    return sorted(glob.glob(os.path.join(ROOT, pattern)))


def load(path):
    data = open(path, 'rb').read()
    if path.endswith('.gz'):
        data = gzip.decompress(data)
    return data.replace(b'../../data/gguf/', GGUF_DIR.encode())  # plan inputs name GGUF files relative to themselves


def families(rng):
    text = lambda p: mutate_text(rng, load(p))
    ranks = [os.path.join(ROOT, 'tests', 'data', 'traces', 'synthetic', f'rank-{i}.json.gz') for i in range(3)]
    calibrate = os.path.join(ROOT, 'tests', 'cli', 'plans', 'calibrate_4080.json')
    matrix = ['simulate', '--tau', '1,1', '--M', '3', '--service-matrix', '{0}']
    return {
        'plan': (seeds('tests/cli/plans/*.json'), lambda s: [('.json', text(s))],
                 [['plan', '{0}'], ['plan', '--json', '{0}']]),
        'calib': (seeds('tests/cli/plans/*bench*.json'), lambda s: [('.json', load(calibrate)), ('.json', text(s))],
                  [['plan', '{0}', '--calibrate', '{1}']]),
        'gguf': (seeds('tests/data/gguf/*.gguf'), lambda s: [('.gguf', mutate_binary(rng, load(s)))],
                 [['model', '{0}'], ['model', '--json', '{0}']]),
        'trace': (seeds('tests/cli/traces/*.json') + seeds('tests/data/traces/synthetic/*.gz') + seeds('tests/cli/traces/*.csv'),
                  lambda s: [('.csv' if s.endswith('.csv') else '.json', text(s))], [['trace', '{0}'], ['trace', '--json', '{0}']]),
        'tracegz': (seeds('tests/data/traces/synthetic/*.gz'),
                    lambda s: [('.json.gz', mutate_binary(rng, open(s, 'rb').read()) if rng.random() < 0.3
                                else gzip.compress(text(s), mtime=0))], [['trace', '{0}']]),
        'trace3': (ranks[:1], lambda s: [('.json', text(r) if rng.random() < 0.5 else load(r)) for r in ranks],
                   [['trace', '--json', '{0}', '{1}', '{2}']]),
        'csv': (seeds('tests/cli/sims/matrix_blocking.csv') + seeds('tests/cli/sims/matrix_bom_cr.csv'),
                lambda s: [('.csv', text(s))], [matrix + ['--timeline'], matrix + ['--buffers', '0', '--json']]),
        'linkcsv': (seeds('tests/cli/sims/links_three.csv'), lambda s: [('.csv', text(s))],
                    [['simulate', '--tau', '1,1', '--M', '3', '--link-matrix', '{0}', '--links', 'blocking', '--json']]),
        'samples': (seeds('tests/cli/sims/samples.csv'), lambda s: [('.csv', text(s))],
                    [['simulate', '--tau', '1.16,2.9', '--M', '8', '--service-samples', '{0}', '--reps', '50', '--json']]),
        # No files: the seed is a command line, and the arguments are its mutation.
        'argv': (golden_argvs(), lambda s: mutate_argv(rng, s), None),
    }


def problems_of(rc, out, err, seconds):
    found = []
    if seconds > 5:
        found.append(f'slow {seconds:.1f} s')
    if rc not in (0, 2):
        found.append(f'exit {rc}')
    if b'Sanitizer' in err or b'runtime error' in err:
        found.append('sanitizer report')
    for line in err.splitlines():
        if not line.startswith((b'error: ', b'warning: ', b'note: ', b'  ')) or CLI11_WORDS.search(line):
            found.append('uncoded stderr: ' + line[:120].decode('utf-8', 'replace'))
            break
    if rc == 0 and b'\nUsage: ' not in b'\n' + out and NON_FINITE.search(out):  # help names inf as a choice
        found.append('non-finite number printed: ' + NON_FINITE.search(out).group(0).decode())
    return found


def run_one(cli, out_dir, name, args, blobs):
    paths = []
    for i, (suffix, data) in enumerate(blobs):
        path = os.path.join(out_dir, f'{name}.{i}{suffix}')
        open(path, 'wb').write(data)
        paths.append(path)
    command = [cli] + ([a.format(*paths) for a in args] if paths else list(args))

    def timed():
        start = time.monotonic()
        try:
            r = subprocess.run(command, capture_output=True, timeout=30, cwd=ROOT)
            return r.returncode, r.stdout, r.stderr, time.monotonic() - start
        except subprocess.TimeoutExpired:
            return 'timeout', b'', b'', time.monotonic() - start

    rc, out, err, seconds = timed()
    if seconds > 5 and rc != 'timeout':
        seconds = min(seconds, timed()[3])
    found = problems_of(rc, out, err, seconds)
    if found:
        print('PROBLEM', name, found, ' '.join(command), flush=True)
        open(os.path.join(out_dir, f'{name}.report'), 'wb').write(err[-4000:] + b'\n---\n' + out[-2000:])
    else:
        for path in paths:
            os.unlink(path)
    return bool(found)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('family')
    parser.add_argument('iterations', type=int)
    parser.add_argument('seed', type=int, nargs='?', default=1)
    parser.add_argument('--cli', default=os.path.join(ROOT, 'build', 'sanitize', 'cli', 'heteropipe'))
    parser.add_argument('--out', default='/tmp/fuzz-cli')
    a = parser.parse_args()
    rng = random.Random(a.seed)
    every = families(rng)
    chosen = list(every) if a.family == 'all' else [a.family]
    total = 0
    for family in chosen:
        seed_files, make, argument_sets = every[family]
        out_dir = os.path.join(a.out, family)
        os.makedirs(out_dir, exist_ok=True)
        start, bad = time.monotonic(), 0
        for k in range(a.iterations):
            seed = rng.choice(seed_files)
            if argument_sets is None:
                bad += run_one(a.cli, out_dir, str(k), make(seed), [])
            else:
                bad += run_one(a.cli, out_dir, str(k), rng.choice(argument_sets), make(seed))
        print(f'{family}: {a.iterations} runs, {bad} problems, {time.monotonic() - start:.0f} s', flush=True)
        total += bad
    return 1 if total else 0


if __name__ == '__main__':
    sys.exit(main())
