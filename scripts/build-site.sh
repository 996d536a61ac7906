#!/usr/bin/env bash
# Assembles the static calculator site in build/web/: the pages from web/, the wasm modules
# (build them first: cmake --preset wasm && cmake --build --preset wasm) and uPlot from node_modules.
# The result opens from disk (file://) and can be copied to any static host.
# The first load is the calculator's module (heteropipe-calc.js); the whole module (heteropipe.js,
# the npm package's, wrapped as below) loads only when a user opens a section that needs it
# (web/js/tools.js), with that section's page code (js/<name>-page.js) and words (i18n/<name>-<lang>.js).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
module="${HETEROPIPE_MODULE:-$root/build/wasm/wasm/heteropipe-calc.js}"
full_module="${HETEROPIPE_FULL_MODULE:-$root/build/wasm/wasm/heteropipe.js}"
uplot="$root/node_modules/uplot/dist"
out="$root/build/web"

for m in "$module" "$full_module"; do
  [ -f "$m" ] || { echo "build-site: missing $m; run: cmake --preset wasm && cmake --build --preset wasm" >&2; exit 1; }
done
[ -f "$uplot/uPlot.iife.min.js" ] || { echo "build-site: missing uPlot; run: npm install" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/vendor"
cp -R "$root/web/." "$out/"
cp "$module" "$out/heteropipe-calc.js"
# The whole module as the body of a function that returns its factory, registered with the page's
# tools.js as 'whole': the calculator's global `heteropipe` stays as it is, no global is added, and
# the page never calls the function: its source text is what the Web Worker made from a blob: URL
# runs (tools.js), since from file:// a worker cannot load a file.
{ printf 'heteropipePage.tools.register("whole",function(){\n'; cat "$full_module"; printf '\nreturn heteropipe});\n'; } > "$out/heteropipe.js"
cp "$uplot/uPlot.iife.min.js" "$uplot/uPlot.min.css" "$out/vendor/"
cp "$root/node_modules/uplot/LICENSE" "$out/vendor/uPlot.LICENSE.txt"
# The pages' own scripts and styles, minified as they are copied (the sources in web/ stay
# readable): the site stays within its size budget. The pages' ES modules become classic scripts
# (scripts/bundle-pages.mjs): js/page.js with everything the calculator imports, and each part
# loaded on demand (js/<name>-page.js, a section's code; js/exports.js) with only its own modules.
# The string tables, layout.js and boot.js stay classic scripts of their own.
esbuild="$root/node_modules/.bin/esbuild"
[ -x "$esbuild" ] || { echo "build-site: missing esbuild; run: npm install" >&2; exit 1; }
find "$out/js" -name '*.js' ! -name boot.js ! -name layout.js -delete
node "$root/scripts/bundle-pages.mjs" "$root/web/js" "$out/js"
for f in "$out"/js/boot.js "$out"/js/layout.js "$out"/i18n/*.js "$out"/css/*.css; do
  "$esbuild" "$f" --minify --charset=utf8 --log-level=warning --outfile="$f.min" --allow-overwrite
  mv "$f.min" "$f"
done
# The markup's indentation is only for reading the source: a newline keeps the same whitespace.
sed -i -E 's/^[[:space:]]+//' "$out/js/layout.js"
# The budget counts what loads before a section is opened or a file exported; the rest is reported apart.
on_demand=(heteropipe.js js/exports.js i18n/tools-en.js i18n/tools-zh.js)
for section in "$out"/js/*-page.js; do
  name="$(basename "$section" -page.js)"
  on_demand+=("js/$name-page.js" "css/$name.css" $(cd "$out" && ls i18n/"$name"-*.js))
done
total() { awk '{s += $1} END {print s}'; }
bytes=$(find "$out" -type f -printf '%s\n' | total)
later=$(cd "$out" && stat -c %s "${on_demand[@]}" | total)
echo "build-site: wrote $out ($((bytes - later)) bytes, and $later bytes loaded when a section opens)"
