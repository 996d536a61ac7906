"""Builds heteropipe._core: the C++ core (core/src), its text library
(text/src), the planner's JSON reader (plan_json/src), the command line (cli/src, without cli/main.cpp) and the pybind11
binding (python/src) in one extension module. Metadata lives in
pyproject.toml."""

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


def header_dir(header, package):
    """The include directory that holds `header` (CLI11 and nlohmann-json
    are header-only; on Debian they come from apt)."""
    for base in ("/usr/include", "/usr/local/include", os.path.join(sys.prefix, "include")):
        if os.path.isfile(os.path.join(base, header)):
            return base
    sys.exit(f"setup.py: {header} not found: install {package} (apt) or put its headers on the include path")


def sources():
    found = {part: sorted(glob.glob(f"{part}/**/*.cpp", recursive=True))
             for part in ("python/src", "core/src", "text/src", "plan_json/src", "io/src", "cli/src")}
    missing = [part for part, files in found.items() if not files]
    if missing:
        sys.exit(f"setup.py: run from the repository root ({', '.join(missing)} not found)")
    return [path for files in found.values() for path in files]


# -ffp-contract=off: no fused multiply-add, so Python gets the same bits as the
# native CLI and the wasm module.
# HETEROPIPE_THREADS: Monte Carlo replications on every core, as natively.
compile_args = ["-std=c++17", "-O2", "-ffp-contract=off", "-fvisibility=hidden", "-pthread"]

include_dirs = ["core/include", "text/include", "plan_json/include", "io/include", "cli/include", "cli/src", "python/src", pybind11_include(),
                header_dir("CLI/CLI.hpp", "libcli11-dev"), header_dir("nlohmann/json.hpp", "nlohmann-json3-dev")]

setup(
    ext_modules=[
        Extension(
            "heteropipe._core",
            sources=sources(),
            include_dirs=list(dict.fromkeys(include_dirs)),
            language="c++",
            extra_compile_args=compile_args,
            extra_link_args=["-pthread"],
            define_macros=[("HETEROPIPE_THREADS", "1")],
            libraries=["z"],  # zlib, for .json.gz traces (io/src/gzip.cpp)
        )
    ],
    # Keep setuptools' intermediates under build/python (git-ignored).
    options={
        "build": {"build_base": os.path.join("build", "python")},
        "build_ext": {"parallel": 2},
    },
)
