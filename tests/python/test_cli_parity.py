"""The Python command line against the native binary: every case of
tests/cli/cases.txt, plus the argument parser's own cases (abbreviations,
"--", help, version, usage errors), gives the same bytes on stdout and
stderr and the same exit status; seeded random cases agree bit for bit with
--json; the Python API's analyze dict has the keys of --json, in order."""

import contextlib
import io
import json
import random
import shlex
import struct
import sys
import unittest
from pathlib import Path

from heteropipe import FloatSequence, Pipeline, analyze
from heteropipe.cli import main
from support import REPO, native_cli, run, run_bytes

SEED = 20260
CASES = 200

# What the argument parser decides, beyond the golden cases: options are
# never abbreviated (--js, --ta), "--" ends the options (so what follows is
# an unexpected argument), "=" joins an option to its value.
PARSER_CASES = """
abbreviated_flag: heteropipe --tau 1,2 --js
abbreviated_option: heteropipe --ta 1
joined_value: heteropipe --tau 0.5,1,1,5 --M=3 --json
negative_joined: heteropipe --tau=-1,2 --M=-3
end_of_options_first: heteropipe -- --tau 1
end_of_options_last: heteropipe --tau 1,2 -- --json
help_with_options: heteropipe --tau 1 --help
version_with_options: heteropipe --M 2 --version
usage_missing_value: heteropipe --tau
usage_stray_argument: heteropipe --tau 1,2 extra
usage_flag_with_bad_value: heteropipe --tau 1,2 --json=maybe
usage_curve_not_a_number: heteropipe --tau 1,2 --curve many
non_ascii_token: heteropipe --tau "1，x，é" --d "é"
"""


def cases_of(text):
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            name, command = line.split(":", 1)
            yield name.strip(), shlex.split(command)[1:]


def is_redirect(word):
    """A shell redirection in a case's line (<&-, >/dev/full): such a case
    runs through /bin/sh, for both binaries, as run_case.cmake runs it."""
    return word[:1] in "<>"


def shell_line(program, argv):
    return " ".join([program] + [w if is_redirect(w) else shlex.quote(w) for w in argv])


def golden_cases():
    return list(cases_of((REPO / "tests" / "cli" / "cases.txt").read_text(encoding="utf-8")))


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
    """main(argv) in this process, with sys.stdout and sys.stderr standing in
    for the terminal: (exit status, stdout bytes, stderr bytes)."""
    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    out.flush()
    err.flush()
    return code, out.buffer.getvalue(), err.buffer.getvalue()


def bits(value):
    """Exact identity of a JSON value: floats by their bits, other types kept."""
    if isinstance(value, float):
        return ("float", struct.pack("<d", value).hex())
    if isinstance(value, (list, FloatSequence)):
        return [bits(v) for v in value]
    return (type(value).__name__, value)


class SameBytesAsNative(unittest.TestCase):
    def check(self, cases):
        cli = native_cli(self)
        for name, argv in cases:
            with self.subTest(case=name):
                if any(map(is_redirect, argv)):
                    native = run_bytes(["/bin/sh", "-c", shell_line(shlex.quote(cli), argv)], cwd=REPO)
                    mine = run_bytes(["/bin/sh", "-c", shell_line(shlex.quote(sys.executable) + " -m heteropipe",
                                                                  argv)], cwd=REPO)
                    self.assertEqual((mine.returncode, mine.stdout, mine.stderr),
                                     (native.returncode, native.stdout, native.stderr))
                    continue
                native = run_bytes([cli] + argv)
                self.assertEqual(python_cli(argv), (native.returncode, native.stdout, native.stderr))

    def test_golden_cases(self):
        cases = golden_cases()
        self.assertGreater(len(cases), 40)
        self.check(cases)

    def test_argument_parser_cases(self):
        cases = list(cases_of(PARSER_CASES))
        self.check(cases)
        # The cases mean what their names say.
        cli = native_cli(self)
        status = {name: run_bytes([cli] + argv).returncode for name, argv in cases}
        self.assertEqual({name for name, code in status.items() if code == 0},
                         {"joined_value", "help_with_options", "version_with_options"})
        self.assertEqual(set(status.values()), {0, 2})
        self.assertEqual(python_cli(["--tau", "1", "--js"])[2],
                         b"error: argument 3: '--js' is no option here, did you mean --json? (see --help)\n")
        self.assertEqual(python_cli(["--version"]), (0, b"heteropipe 0.1.0\n", b""))


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
                self.assertEqual(python_cli(argv), (0, native.stdout.encode("utf-8"), b""))


class AnalyzeKeysAreTheJsonKeys(unittest.TestCase):
    def test_same_keys_in_the_same_order(self):
        cli = native_cli(self)
        for argv, kwargs in (
                (["--tau", "0.5,1,1,5", "--d", "4.6,0.1,0.1", "--M", "16", "--T-real", "88"], dict(T_real=88)),
                (["--tau", "0.5,1,1,5", "--M", "8", "--T-real", "42.5"], dict(T_real=42.5)),
                (["--tau", "3", "--M", "4", "--rho", "0.5"], dict(rho=0.5)),
        ):
            with self.subTest(argv=argv):
                native = run([cli] + argv + ["--json", "--recurrence"])
                self.assertEqual(native.returncode, 0, native.stderr)
                keys = [k for k in json.loads(native.stdout) if not k.endswith("_recurrence")]
                self.assertEqual(len(keys), len(json.loads(native.stdout)) - 2)
                p = Pipeline(argv[1], argv[3] if argv[2] == "--d" else None)
                M = int(argv[argv.index("--M") + 1])
                self.assertEqual(list(p.analyze(M, **kwargs)), keys)


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

    def test_same_bytes_through_a_real_process(self):
        cli = native_cli(self)
        for name, argv in golden_cases()[:1] + list(cases_of(PARSER_CASES))[-1:] + [("help", ["--help"])]:
            with self.subTest(case=name):
                native = run_bytes([cli] + argv)
                mine = run_bytes([sys.executable, "-m", "heteropipe"] + argv)
                self.assertEqual((mine.returncode, mine.stdout, mine.stderr),
                                 (native.returncode, native.stdout, native.stderr))


if __name__ == "__main__":
    unittest.main()
