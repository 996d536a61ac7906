// The module's entry, bundled (esbuild) and appended after Emscripten's glue
// (--extern-post-js; see wasm/CMakeLists.txt). `heteropipe` is, at this
// point, the raw Emscripten module factory; it is replaced by the public
// factory: cached, returning the plain API of api.js.
import { makeApi } from './api.js';
import { HeteropipeError } from './errors.js';

const createModule = heteropipe;
let loading = null;

// Every call returns the same promise of the same API object. A failed load
// is not cached, so a later call can retry.
function load() {
  if (loading === null) {
    loading = createModule().then(makeApi, (e) => {
      loading = null;
      throw e;
    });
  }
  return loading;
}
load.HeteropipeError = HeteropipeError;

heteropipe = load;
