"""Builds heteropipe._core: the C++ core, its text library, the command line
(cli/src, without cli/main.cpp) and the pybind11 binding (python/src) in one
extension module, from the folders in PARTS. The sdist carries exactly the
files compiled here (sources and headers, derived from PARTS; there is no
MANIFEST.in to fall out of step). Metadata lives in pyproject.toml."""

import glob
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# Every folder the extension is compiled from: its src/ (every .cpp below) and
# its include/ (on the include path), headers anywhere below it.
PARTS = ("python", "core", "text", "cli")


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
    found = {part: sorted(glob.glob(f"{part}/src/**/*.cpp", recursive=True)) for part in PARTS}
    missing = [part for part, files in found.items() if not files]
    if missing:
        sys.exit(f"setup.py: run from the repository root ({', '.join(missing)} not found)")
    return [path for files in found.values() for path in files]


def headers():
    return sorted(path for part in PARTS for path in glob.glob(f"{part}/**/*.hpp", recursive=True))


class BuildExtListingHeaders(build_ext):
    """The sdist lists what build_ext says it compiles; setuptools counts the
    sources only, so the headers (each Extension's depends) are added."""

    def get_source_files(self):
        return super().get_source_files() + [path for ext in self.extensions for path in ext.depends]


# -ffp-contract=off: no fused multiply-add, so Python gets the same bits as the
# native CLI and the wasm module.
# HETEROPIPE_THREADS: Monte Carlo replications on every core, as natively.
compile_args = ["-std=c++17", "-O2", "-ffp-contract=off", "-fvisibility=hidden", "-pthread"]

include_dirs = [f"{part}/include" for part in PARTS if os.path.isdir(f"{part}/include")] + [
    "cli/src", "python/src", pybind11_include(),
    header_dir("CLI/CLI.hpp", "libcli11-dev"), header_dir("nlohmann/json.hpp", "nlohmann-json3-dev")]

setup(
    ext_modules=[
        Extension(
            "heteropipe._core",
            sources=sources(),
            depends=headers(),
            include_dirs=list(dict.fromkeys(include_dirs)),
            language="c++",
            extra_compile_args=compile_args,
            extra_link_args=["-pthread"],
            define_macros=[("HETEROPIPE_THREADS", "1")],
            libraries=["z"],  # zlib, for .json.gz traces (cli/src/gzip.cpp)
        )
    ],
    cmdclass={"build_ext": BuildExtListingHeaders},
    # Keep setuptools' intermediates under build/python (git-ignored).
    options={
        "build": {"build_base": os.path.join("build", "python")},
        "build_ext": {"parallel": 2},
    },
)
