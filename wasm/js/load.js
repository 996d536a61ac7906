// The module's entry, bundled (esbuild) and appended after Emscripten's glue
// (--extern-post-js; see wasm/CMakeLists.txt). `heteropipe` is, at this
// point, the raw Emscripten module factory; it is replaced by the public
// factory: cached, returning the plain API of api.js.
import { makeApi } from './api.js';
import { HeteropipeError } from './errors.js';

const createModule = heteropipe;
let loading = null;

// The wasm, gzip-compressed, in base64: embed-wasm.mjs writes it here after
// linking (wasm/CMakeLists.txt).
const WASM_GZIP_BASE64 = 'HETEROPIPE_WASM_GZIP_BASE64';

// The test Emscripten's glue makes too.
const inNode = typeof process == 'object' && typeof process.versions == 'object' &&
  typeof process.versions.node == 'string' && typeof require == 'function';

// Unpacked by the platform's own inflater, so the module carries none of its
// own: Node's zlib (Node's atob and web streams are many times slower), and
// a browser's DecompressionStream.
async function wasmBinary() {
  if (inNode) return require('zlib').gunzipSync(Buffer.from(WASM_GZIP_BASE64, 'base64'));
  const text = atob(WASM_GZIP_BASE64);
  const packed = new Uint8Array(text.length);
  for (let i = 0; i < text.length; ++i) packed[i] = text.charCodeAt(i);
  // A stream of the bytes in hand (a Blob's stream would go through the
  // browser's blob storage first).
  const stream = new ReadableStream({
    start(controller) {
      controller.enqueue(packed);
      controller.close();
    },
  }).pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// Every call returns the same promise of the same API object. A failed load
// is not cached, so a later call can retry.
function load() {
  if (loading === null) {
    loading = wasmBinary().then((binary) => createModule({ wasmBinary: binary })).then(makeApi, (e) => {
      loading = null;
      throw e;
    });
  }
  return loading;
}
load.HeteropipeError = HeteropipeError;

heteropipe = load;
