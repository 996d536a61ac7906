#!/usr/bin/env bash
# Assembles the publishable npm package `heteropipe` in build/npm/ from the wasm
# build (run `cmake --preset wasm && cmake --build --preset wasm` first) and the
# package sources in wasm/. Then `cd build/npm && npm pack` makes the tarball.
# Usage: scripts/pack-npm.sh [module.js] [out-dir]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
module="${1:-$root/build/wasm/wasm/heteropipe.js}"
out="${2:-$root/build/npm}"
src="$root/wasm"

[ -f "$module" ] || { echo "pack-npm: missing $module; run: cmake --preset wasm && cmake --build --preset wasm" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out"
cp "$module" "$out/heteropipe.js"
cp "$src/js/index.mjs" "$src/package.json" "$src/README.md" "$out/"
# One declaration body, two entries: CommonJS `export =`, ESM default export.
cat "$src/types/heteropipe.d.ts" "$src/types/cjs.d.ts" > "$out/index.d.cts"
cat "$src/types/heteropipe.d.ts" "$src/types/esm.d.ts" > "$out/index.d.mts"
echo "pack-npm: wrote $out ($(du -sk "$out" | cut -f1) KiB)"
