#!/usr/bin/env bash
# Installs what is missing, builds every part of heteropipe, and runs every
# test: the C++ suite natively, under ASan + UBSan and as wasm under Node; the
# CLI's golden files; the npm module; the calculator pages in headless
# Chromium; the Python package; a real PyTorch pipeline run imported by the
# CLI. Stops at the first failure.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/bootstrap.sh --tests
export NODE_PATH=/usr/share/nodejs  # Debian's emscripten needs its node modules

step() { printf '\n== %s\n' "$*"; }

step "native build: core, CLI, doctest suite, CLI goldens"
cmake --preset native > /dev/null
cmake --build --preset native
ctest --preset native

step "sanitizers: the same suites under ASan + UBSan"
cmake --preset native-sanitize > /dev/null
cmake --build --preset native-sanitize
ctest --preset native-sanitize

step "wasm build: the module and the doctest suite under Node"
cmake --preset wasm > /dev/null
cmake --build --preset wasm
ctest --preset wasm

step "npm package and calculator site"
scripts/pack-npm.sh
scripts/build-site.sh

step "Python package (into build/python-venv)"
/usr/bin/python3 -m venv --system-site-packages build/python-venv
build/python-venv/bin/pip install --quiet --no-build-isolation --no-index .
build/python-venv/bin/python -m unittest discover -s tests/python

step "Python sdist: built, installed into a fresh venv outside the checkout, smoke-tested there"
scripts/check-sdist.sh

step "a real run: examples/torch-pipeline (2 stages over gloo, blocking and isend; 3 stages with isend) imported by the CLI"
# Its traces stay in build/torch-pipeline: the page tests import the same files.
/usr/bin/python3 tests/examples/torch_pipeline_test.py build/native/cli/heteropipe --keep build/torch-pipeline

step "JavaScript module (Node test runner)"
node --test tests/js/

step "calculator pages (headless Chromium, one browser at a time)"
node --test --test-concurrency=1 tests/web/
