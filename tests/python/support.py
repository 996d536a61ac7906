"""Shared helpers of the Python tests: the paper's configurations and the
native CLI the package is held to."""

import os
import subprocess
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# The paper's Appendix B (docs/model.md): (tau, d) of the eleven validated configurations.
APPENDIX_B = [
    ([1, 1, 1, 1], [0, 0, 0]),
    ([0.5, 1, 1, 5], [0, 0, 0]),
    ([5, 1, 1, 0.5], [0, 0, 0]),
    ([1, 5, 1, 1], [0, 0, 0]),
    ([1, 1, 5, 5], [0, 0, 0]),
    ([0.5, 1, 1, 5], [0.1, 0.1, 0.1]),
    ([0.5, 1, 1, 5], [4, 0.1, 0.1]),
    ([0.5, 1, 1, 5], [4.6, 0.1, 0.1]),
    ([1, 1, 1, 1], [10, 10, 10]),
    ([0.5, 0.5, 0.5, 0.5], [1, 0.01, 1]),
    ([0.2, 0.3, 0.5, 0.9, 1.7], [0.1, 0.1, 0.1, 0.9]),
]


def native_cli(test: unittest.TestCase) -> str:
    """Path of the native CLI. Missing is a failure, unless the environment
    says explicitly that it was not built (HETEROPIPE_NO_NATIVE_CLI=1)."""
    if os.environ.get("HETEROPIPE_NO_NATIVE_CLI") == "1":
        raise unittest.SkipTest("HETEROPIPE_NO_NATIVE_CLI=1: the native CLI was not built")
    path = Path(os.environ.get("HETEROPIPE_CLI", REPO / "build" / "native" / "cli" / "heteropipe"))
    if not path.is_file():
        test.fail(f"native CLI not found at {path}: build it first (cmake --preset native && "
                  f"cmake --build --preset native), point HETEROPIPE_CLI at it, or set "
                  f"HETEROPIPE_NO_NATIVE_CLI=1 to say it is not built")
    return str(path)


def run(argv, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, encoding="utf-8", timeout=120, **kwargs)


def run_bytes(argv, **kwargs) -> subprocess.CompletedProcess:
    """run, with stdout and stderr as the bytes the program wrote."""
    return subprocess.run(argv, capture_output=True, timeout=120, **kwargs)
