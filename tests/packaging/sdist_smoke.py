"""Smoke test of the Python package installed from its sdist, run by
scripts/check-sdist.sh with the fresh venv's python, from outside the
checkout. It checks that the installed package (not the checkout's) gives
the paper's numbers, and that its `heteropipe` command gives the golden
bytes of cases that reach every folder compiled into the extension: the
calculator, the planner's JSON reader, gzip traces and the simulator.

    <venv>/bin/python tests/packaging/sdist_smoke.py <repository root>
"""

import shlex
import subprocess
import sys
import unittest
from pathlib import Path

ROOT = Path(sys.argv.pop(1)).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]

# Golden cases of tests/cli/cases.txt, one per compiled part.
CASES = ("paper_3_1_m8", "plan_two_devices_json", "plan_estimate_70b_mixed", "trace_synthetic_json",
         "bad_plan_directory")

import heteropipe  # noqa: E402  (after the checkout's path is known, to prove it is not used)


def case_line(name):
    for line in (ROOT / "tests" / "cli" / "cases.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith(name + ":"):
            return line.split(":", 1)[1].strip()
    raise LookupError(f"no case {name} in tests/cli/cases.txt")


class InstalledFromTheSdist(unittest.TestCase):
    def test_the_installed_package_is_used(self):
        self.assertNotIn(str(ROOT), str(Path(heteropipe.__file__).resolve()))
        self.assertIn("site-packages", heteropipe.__file__)

    def test_paper_numbers(self):
        # Section 3.1: T(8) = 42.5, T_gpipe(8) = 55, bias 12.5.
        result = heteropipe.Pipeline("0.5,1,1,5").analyze(M=8)
        self.assertEqual(result["T_async"], 42.5)
        self.assertEqual(result["T_gpipe"], 55.0)
        self.assertEqual(result["homogeneity_bias"], 12.5)

    def test_command_gives_the_golden_bytes(self):
        command = Path(sys.executable).with_name("heteropipe")
        for name in CASES:
            with self.subTest(case=name):
                line = case_line(name)
                run = subprocess.run(["/bin/sh", "-c", shlex.quote(str(command)) + line[len("heteropipe"):]],
                                     cwd=ROOT, capture_output=True, timeout=120)
                actual = (f"# command: {line}\n# exit: {run.returncode}\n# stdout:\n"
                          f"{run.stdout.decode()}# stderr:\n{run.stderr.decode()}")
                golden = (ROOT / "tests" / "cli" / "golden" / f"{name}.txt").read_text(encoding="utf-8")
                self.assertEqual(actual, golden)


if __name__ == "__main__":
    unittest.main()
