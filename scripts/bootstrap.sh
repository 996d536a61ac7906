#!/usr/bin/env bash
# Installs what heteropipe needs to build and test, on Debian (bookworm) with
# apt and npm: the Debian packages that are missing, then the npm dev
# dependencies pinned in package-lock.json. Safe to run again: it only
# installs what is not there. With --tests it also installs what only the
# tests need (PyTorch for the real run of examples/torch-pipeline), which the
# calculator's quick start (scripts/calculator.sh) does without.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

packages=(
  cmake make g++            # native build
  emscripten                # WebAssembly build (em++ 3.1.6)
  doctest-dev               # C++ tests
  libre2-dev pkgconf        # the trace patterns' oracle in the native tests
  libcli11-dev nlohmann-json3-dev  # the CLI
  zlib1g-dev                # gzip trace files (the CLI and the Python package)
  libbenchmark-dev          # benchmarks
  chromium fonts-wqy-microhei  # page tests (playwright-core); a CJK font for the Chinese page
  python3 python3-venv python3-dev python3-setuptools python3-wheel pybind11-dev  # Python package
  locales                   # de_DE.UTF-8, a comma-decimal locale for the tests (tests/python/test_locale.py)
)
[ "${1:-}" = "--tests" ] && packages+=(python3-torch)  # the real run's test (torch.distributed over gloo)
command -v node > /dev/null || packages+=(nodejs)
command -v npm > /dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi

# The comma-decimal locale the tests read and write numbers under.
if ! locale -a 2> /dev/null | grep -qi '^de_DE\.utf-\?8$'; then
  echo "bootstrap: generating the de_DE.UTF-8 locale"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo sed -i 's/^# *\(de_DE\.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  grep -q '^de_DE\.UTF-8 UTF-8' /etc/locale.gen || echo 'de_DE.UTF-8 UTF-8' | $sudo tee -a /etc/locale.gen > /dev/null
  $sudo locale-gen > /dev/null
fi

cd "$root"
# npm ci only when node_modules is missing or older than the lock file.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
