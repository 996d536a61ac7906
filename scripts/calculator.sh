#!/usr/bin/env bash
# Builds the wasm module and the calculator site, then serves it on 127.0.0.1.
# Prints the URL and the file path (the site also opens straight from disk).
# Usage: scripts/calculator.sh [port]   (default 8080)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/bootstrap.sh
export NODE_PATH=/usr/share/nodejs
cmake --preset wasm
cmake --build --preset wasm
scripts/build-site.sh
echo
echo "Open from disk: file://$root/build/web/calculator.html (Chinese: calculator_zh.html)"
exec node scripts/serve.mjs "${1:-8080}"
