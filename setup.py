"""Builds heteropipe._core: the C++ core (core/src) and its pybind11 binding
(python/src) in one extension module. Metadata lives in pyproject.toml."""

import glob
import os
import sys

from setuptools import Extension, setup


def pybind11_include():
    # From the index (build isolation) when installed, else apt's pybind11-dev.
    try:
        import pybind11
    except ImportError:
        return "/usr/include"
    return pybind11.get_include()


def sources():
    core = sorted(glob.glob("core/src/*.cpp"))
    binding = sorted(glob.glob("python/src/*.cpp"))
    if not core or not binding:
        sys.exit("setup.py: run from the repository root (core/src and python/src not found)")
    return binding + core


# -ffp-contract=off: no fused multiply-add, so Python gets the same bits as the
# native CLI and the wasm module.
compile_args = ["-std=c++17", "-O2", "-ffp-contract=off", "-fvisibility=hidden"]

setup(
    ext_modules=[
        Extension(
            "heteropipe._core",
            sources=sources(),
            include_dirs=["core/include", "python/src", pybind11_include()],
            language="c++",
            extra_compile_args=compile_args,
        )
    ],
    # Keep setuptools' intermediates under build/python (git-ignored).
    options={
        "build": {"build_base": os.path.join("build", "python")},
        "build_ext": {"parallel": 2},
    },
)
