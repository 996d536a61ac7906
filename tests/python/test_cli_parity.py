"""The Python CLI and API against the native CLI: seeded random cases agree
bit for bit with its --json, and every case of tests/cli/cases.txt gives the
same exit status, stdout and stderr."""

import contextlib
import io
import json
import random
import shlex
import struct
import sys
import unittest
from pathlib import Path

from heteropipe import Pipeline, analyze
from heteropipe.cli import main
from support import REPO, native_cli, run

SEED = 20260
CASES = 200

# Cases whose text comes from the argument parser itself (CLI11 natively,
# argparse here): same exit status, different wording.
PARSER_WORDED = {"help", "version", "bad_unknown_option", "bad_missing_tau", "bad_tau_twice",
                 "bad_timeline_regime", "bad_curve_points", "bad_curve_with_json"}


def random_case(rng: random.Random):
    """The paper's randomized check: S in 1..8, tau log-uniform over two
    decades, d from 1e-2x to 20x the compute (or none), assorted M and rho."""
    S = rng.randint(1, 8)
    tau = [10 ** rng.uniform(-1, 1) for _ in range(S)]
    d = [t * 10 ** rng.uniform(-2, 1.3) for t in tau[:-1]] if rng.random() < 0.8 else []
    M = rng.choice([1, 2, 3, 8, 16, 100, 1000, rng.randint(1, 10 ** 6), 2 ** 53])
    rho = rng.choice([1.0, 0.0, rng.random()])
    case = dict(tau=tau, d=d, M=M, rho=rho)
    if rng.random() < 0.5:  # near the sandwich, within the 1e15 limit
        case["T_real"] = min(sum(tau) * (M + S) * rng.uniform(0.5, 1.5), 1e15)
    return case


def argv_of(case):
    argv = ["--tau", ",".join(map(repr, case["tau"])), "--M", str(case["M"]), "--rho", repr(case["rho"]), "--json"]
    if case["d"]:
        argv += ["--d", ",".join(map(repr, case["d"]))]
    if "T_real" in case:
        argv += ["--T-real", repr(case["T_real"])]
    return argv


def python_cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code
    return code, out.getvalue(), err.getvalue()


def bits(value):
    """Exact identity of a JSON value: floats by their bits, other types kept."""
    if isinstance(value, float):
        return ("float", struct.pack("<d", value).hex())
    if isinstance(value, list):
        return [bits(v) for v in value]
    return (type(value).__name__, value)


class RandomCasesAgainstNativeJson(unittest.TestCase):
    def test_bit_for_bit(self):
        cli = native_cli(self)
        rng = random.Random(SEED)
        for i in range(CASES):
            case = random_case(rng)
            argv = argv_of(case)
            with self.subTest(case=i, argv=" ".join(argv)):
                native = run([cli] + argv)
                self.assertEqual(native.returncode, 0, native.stderr)
                expected = json.loads(native.stdout)
                mine = analyze(case["tau"], case["d"] or None, case["M"], case["rho"], case.get("T_real"))
                self.assertEqual(list(mine), list(expected))
                self.assertEqual({k: bits(v) for k, v in mine.items()},
                                 {k: bits(v) for k, v in expected.items()})
                self.assertEqual(Pipeline(case["tau"], case["d"]).analyze(
                    case["M"], case["rho"], case.get("T_real")), mine)
                # Same keys, order, types and bits. The text may differ in a
                # digit: nlohmann's Grisu2 does not always pick the shortest
                # of the digit strings that read back to the same double.
                code, out, err = python_cli(argv)
                self.assertEqual((code, err), (0, ""))
                printed = json.loads(out)
                self.assertEqual(list(printed), list(expected))
                self.assertEqual({k: bits(v) for k, v in printed.items()},
                                 {k: bits(v) for k, v in expected.items()})


class GoldenCasesAgainstNativeCli(unittest.TestCase):
    def cases(self):
        for line in (REPO / "tests" / "cli" / "cases.txt").read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                name, command = line.split(":", 1)
                yield name.strip(), shlex.split(command)[1:]

    def test_same_exit_stdout_stderr(self):
        cli = native_cli(self)
        cases = list(self.cases())
        self.assertGreater(len(cases), 40)
        for name, argv in cases:
            with self.subTest(case=name):
                native = run([cli] + argv)
                code, out, err = python_cli(argv)
                self.assertEqual(code, native.returncode)
                if name in PARSER_WORDED:
                    if code != 0:
                        self.assertEqual(out, "")
                        self.assertTrue(err.startswith("error: "), err)
                    continue
                self.assertEqual(out, native.stdout)
                self.assertEqual(err, native.stderr)


class CommandLineEntryPoints(unittest.TestCase):
    def test_python_dash_m(self):
        result = run([sys.executable, "-m", "heteropipe", "--tau", "1.13,2.90,2.62", "--M", "100", "--json"])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertAlmostEqual(json.loads(result.stdout)["homogeneity_bias"], 2.05, places=12)

    def test_console_script(self):
        script = Path(sys.executable).with_name("heteropipe")
        if not script.exists():
            self.skipTest(f"no console script next to {sys.executable} (package not installed with pip)")
        result = run([str(script), "--tau", "0.5,1,1,5", "--M", "8"])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("T_gpipe  homogeneous GPipe, (S+M-1) tau_max       55", result.stdout)

    def test_bad_input_exits_2_with_nothing_on_stdout(self):
        result = run([sys.executable, "-m", "heteropipe", "--tau", "1,,2", "--M", "0"])
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stdout, "")
        self.assertEqual(result.stderr, "error: tau, item 2: empty item between separators\n"
                                        "error: M: must be between 1 and 2^53 (got 0)\n")


if __name__ == "__main__":
    unittest.main()
