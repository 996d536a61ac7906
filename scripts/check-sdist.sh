#!/usr/bin/env bash
# The Python sdist on its own, as a user gets it: built by setup.py (whose
# PARTS list decides both what is compiled and what the sdist carries),
# installed into a fresh venv outside the checkout with Debian's setuptools,
# wheel and pybind11 (no index, no build isolation), and checked there on
# real values (tests/packaging/sdist_smoke.py).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"
/usr/bin/python3 setup.py --quiet egg_info --egg-base "$work" sdist --dist-dir "$work/dist" > /dev/null
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index --no-build-isolation "$work"/dist/heteropipe-*.tar.gz
cd "$work"
"$work/venv/bin/python" "$root/tests/packaging/sdist_smoke.py" "$root"
