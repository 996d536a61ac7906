// Trace import, which only the whole module has (heteropipe.js; see
// wasm/CMakeLists.txt). Each file's text, a string or its bytes already
// decompressed, is staged once and read in place by the core's readers
// (wasm/src/trace_ops.cpp), which also read and check every option.
import { fieldsOf, list, number, quote, text, uint8Length } from './snapshot.js';

const what = (name) => 'importTrace: ' + name;

function objectAt(x, name) {
  if (typeof x !== 'object' || x === null) throw new TypeError(what(name) + ' must be an object (got ' + quote(x) + ')');
  return x;
}

// A file's content: text as UTF-8, or a Uint8Array's bytes as they are.
function content(name, x, max, label) {
  if (typeof x === 'string') {
    const t = text(name, x, label);
    t.limit = max;
    return t;
  }
  const length = uint8Length(x);
  if (length < 0) throw new TypeError(label + ' must be a Uint8Array or a string (got ' + quote(x) + ')');
  const t = text(name, '', label);
  t.value = x;
  t.length = length;
  t.limit = max;
  return t;
}

const optionalText = (name, x) => (x === undefined ? null : text(name, x, what('options.' + name)));

// options.detach: once the files' bytes are copied into the module, their
// ArrayBuffers are detached (ArrayBuffer.prototype.transfer, where the engine
// has it), which frees them while the core reads: a large import then holds
// its text once, not twice. The caller's Uint8Arrays are empty afterwards.
function detach(files, count) {
  for (let k = 0; k < count; k++) {
    const bytes = files[k].bytes;
    const buffer = typeof bytes === 'object' && bytes !== null ? bytes.buffer : undefined;
    if (buffer && typeof buffer.transfer === 'function') buffer.transfer(0);  // a SharedArrayBuffer has none
  }
}

// The trace importer for the API of module m, or none.
export function tracesOf(m, operation, limits) {
  if (typeof m.import_trace !== 'function') return {};
  const run = operation('import_trace');
  function importTrace(files, options) {
    const count = objectAt(files, 'files').length;
    if (typeof count !== 'number' || !(count >= 0)) throw new TypeError(what('files') + ' must be a list of files');
    const inputs = [number('files', count)];
    for (let k = 0; k < count; k++) {
      const file = objectAt(files[k], 'files[' + k + ']');
      inputs.push(text('name.' + k, file.name, what('files[' + k + '].name')));
      inputs.push(content('bytes.' + k, file.bytes, limits.max_trace_bytes, what('files[' + k + '].bytes')));
    }
    const o = fieldsOf(options);
    const order = o.stage_order;
    inputs.push(
      optionalText('stat', o.stat),
      optionalText('unit', o.unit),
      typeof order === 'string' ? text('stage_order_text', order, what('options.stage_order'))
        : list('stage_order', order, limits.max_trace_ranks),
      optionalText('compute', o.compute),
      optionalText('transfer', o.transfer),
      optionalText('microbatch', o.microbatch),
    );
    return run(inputs, false, o.detach === true ? () => detach(files, count) : undefined);
  }
  return { importTrace };
}
