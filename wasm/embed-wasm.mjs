// Puts a module's wasm into its script, gzip-compressed and in base64, in
// place of the wrapper's one placeholder (load.js), so that the module stays
// one file that loads from file:// and under a CSP without connect-src.
// Emscripten's own SINGLE_FILE embeds the raw bytes in base64, 4/3 of the
// binary; compressed first, the whole script is less than half that. The
// output is the same bits for the same binary: no time or name in the gzip
// header.
//
// node embed-wasm.mjs SCRIPT.js BINARY.wasm
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync, constants } from 'node:zlib';

const [script, binary] = process.argv.slice(2);
const PLACEHOLDER = 'HETEROPIPE_WASM_GZIP_BASE64';
const text = readFileSync(script, 'utf8');
const at = text.indexOf(PLACEHOLDER);
if (at < 0 || text.indexOf(PLACEHOLDER, at + 1) >= 0) {
  console.error(`embed-wasm: ${script} must hold the placeholder ${PLACEHOLDER} exactly once`);
  process.exit(1);
}
const packed = gzipSync(readFileSync(binary), { level: constants.Z_BEST_COMPRESSION, memLevel: 9 });
writeFileSync(script, text.slice(0, at) + packed.toString('base64') + text.slice(at + PLACEHOLDER.length));
