// The planner's operations, which only the whole module has (heteropipe.js;
// the pages' first load, heteropipe-calc.js, leaves them out; see
// wasm/CMakeLists.txt). The input is read by the core's one JSON reader of
// plan inputs, so this file only turns the caller's value into JSON text.
import { jsonText, quote, text } from './snapshot.js';

// The caller's input as JSON text: a string as it is, else the object
// stringified here, where the caller's getters and toJSON run, before
// anything touches wasm memory.
function planText(input) {
  if (typeof input === 'string') return input;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new TypeError('plan: input must be an object or JSON text (got ' + quote(input) + ')');
  }
  // A cycle or a BigInt is a TypeError, as JSON.stringify's; an error the caller's code throws is theirs.
  return jsonText(input);
}

// The planner's functions for the API of module m, or none.
export function plannerOf(m, operation) {
  if (typeof m.plan !== 'function') return {};
  const run = { plan: operation('plan', true), catalog: operation('catalog', true) };
  return {
    plan: (input) => run.plan([text('input', planText(input), 'plan: input')], false),
    catalog: () => run.catalog([], false),
  };
}
