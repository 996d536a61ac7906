// The planner's operations, which only the whole module has (heteropipe.js;
// the pages' first load, heteropipe-calc.js, leaves them out; see
// wasm/CMakeLists.txt). The input is read by the core's one JSON reader of
// plan inputs, so this file only turns the caller's value into JSON text.
import { prefixOfBlob, sizeOfBlob } from './blob.js';
import { jsonText, number, quote, text, uint8Length, unboxed } from './snapshot.js';

// How modelInfo reads its argument: a Blob through slice, a Uint8Array or an
// ArrayBuffer in place; `size` its bytes, read(n) its first n.
function sourceOf(x) {
  const size = sizeOfBlob(x);
  if (size >= 0) return { size, read: (n) => prefixOfBlob(x, n) };
  let u8 = null;
  if (uint8Length(x) >= 0) u8 = x;
  else if (Object.prototype.toString.call(x) === '[object ArrayBuffer]') u8 = new Uint8Array(x);
  if (u8 === null) {
    throw new TypeError('modelInfo: file must be a Blob, a Uint8Array or an ArrayBuffer (got ' + quote(x) + ')');
  }
  const bytes = u8.slice();  // the caller's own memory may change while this awaits
  return { size: bytes.length, read: async (n) => bytes.subarray(0, n) };
}

// The caller's input as JSON text: a string as it is, else the object
// stringified here, where the caller's getters and toJSON run, before
// anything touches wasm memory.
function planText(input) {
  input = unboxed(input);  // new String(json) is its text
  if (typeof input === 'string') return input;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new TypeError('plan: input must be an object or JSON text (got ' + quote(input) + ')');
  }
  // A cycle is a TypeError, as JSON.stringify's; an error the caller's code throws is theirs.
  return jsonText(input);
}

// The planner's functions for the API of module m, or none.
export function plannerOf(m, operation) {
  if (typeof m.plan !== 'function') return {};
  const run = { plan: operation('plan', true), catalog: operation('catalog', true),
    model_info: operation('model_info', true) };
  // The core asks for the file's leading bytes until it has the header and
  // tensor table (heteropipe/plan/gguf.hpp); each step is one call.
  async function modelInfo(x) {
    const source = sourceOf(x);
    let prefix = new Uint8Array(0);
    let size = source.size;
    for (;;) {
      const bytes = text('bytes', '', 'modelInfo: file');
      bytes.value = prefix;
      bytes.length = prefix.length;
      bytes.limit = Infinity;  // the core checks the header's own limit
      const step = run.model_info([bytes, number('size', size)], false);
      if (step.need === 0) {
        delete step.need;
        return step;
      }
      prefix = await source.read(step.need);
      // A Blob that gives fewer bytes than it said (a file cut while read) ends there.
      if (prefix.length < step.need) size = prefix.length;
    }
  }
  return {
    modelInfo,
    plan: (input) => run.plan([text('input', planText(input), 'plan: input')], false),
    catalog: () => run.catalog([], false),
  };
}
