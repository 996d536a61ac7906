// Trace import, which only the whole module has (heteropipe.js; see
// wasm/CMakeLists.txt). Each file's text, a string, its bytes already
// decompressed, or a Blob read (and inflated) as it streams (blob.js), is
// staged once and read in place by the core's readers (wasm/src/trace_ops.cpp),
// which also read and check every option.
import { Refusal, pour, probe, sizeOfBlob } from './blob.js';
import { knownFieldsOf, list, number, optional, progressOf, quote, text, uint8Length, unboxed } from './snapshot.js';

const what = (name) => 'importTrace: ' + name;

function objectAt(x, name) {
  if (typeof x !== 'object' || x === null) throw new TypeError(what(name) + ' must be an object (got ' + quote(x) + ')');
  return x;
}

// A file's content: text as UTF-8, a Uint8Array's bytes as they are, or a
// Blob's, written when it is read (see importBlobs); a Blob (file k) joins
// `blobs`.
function content(name, x, max, label, blobs, k) {
  x = unboxed(x);
  if (typeof x === 'string') {
    const t = text(name, x, label);
    t.limit = max;
    return t;
  }
  const t = text(name, '', label);
  t.limit = max;
  const size = sizeOfBlob(x);
  if (size >= 0) {
    const f = { k, blob: x, size, input: t, gzip: false, room: size, address: -1 };
    t.value = (address) => {
      f.address = address;
    };
    blobs.push(f);
    return t;
  }
  const length = uint8Length(x);
  if (length < 0) throw new TypeError(label + ' must be a Uint8Array, a string or a Blob (got ' + quote(x) + ')');
  t.value = x;
  t.length = length;
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

// The import of `blobs` (and the other inputs), a Promise: each Blob is read
// into the staged request; its text's room is its size, or what a gzip
// file's trailer says (blob.js's probe). A gzip text that turns out longer
// or shorter is staged again, in room of its length (a file of several
// members, an empty one). A gzip file that does not inflate, or passes the
// limit, is refused as the core words it (`refused.*`), before any file is
// read; `names` are the files' name inputs. `done` runs once every text is
// staged. The fraction of the Blobs' bytes read goes to `report`, the
// call's options.on_progress, where it has one.
async function importBlobs(run, inputs, names, blobs, limit, done, report) {
  const size = blobs.reduce((sum, f) => sum + f.size, 0) || 1;
  let shown = -1;  // in hundredths: each piece read need not be a message
  const progress = (fraction) => {
    if (Math.floor(fraction * 100) === shown) return;
    shown = Math.floor(fraction * 100);
    if (report !== undefined) report(fraction);
  };
  for (const f of blobs) Object.assign(f, await probe(f.blob, f.size, limit));
  for (let pass = 0; pass < 2; pass++) {
    for (const f of blobs) {
      f.address = -1;
      f.input.length = f.room;
    }
    const request = run.later(inputs);
    let again = false;
    let before = 0;
    let file = null;
    try {
      for (file of blobs) {
        // Not staged: over the limit (too_long) or no memory; the core says which.
        if (file.address >= 0) {
          const length = await pour(file, request.u8, limit, (n) => progress(Math.min(1, (before + n) / size)));
          if (length !== file.room) {
            if (!file.gzip) throw new Error(what('files[' + file.k + ']') + ' changed while it was read');
            file.room = length;
            again = true;
          }
        }
        before += file.size;
      }
    } catch (e) {
      request.drop();
      if (!(e instanceof Refusal)) throw e;
      const refused = [number('refused.file', file.k), number('refused.at', e.at), number('refused.size', e.size),
        number('refused.trailing', e.trailing ? 1 : 0)];
      return run([...names, ...refused], false);
    }
    if (!again) {
      done();
      return request.run(false);
    }
    request.drop();
  }
  throw new Error(what('files') + ': a gzip file changed while it was read');
}

// The keys importTrace's options may hold (the d.ts's TraceOptions).
const TRACE_OPTIONS = ['stat', 'unit', 'stage_order', 'clock_offsets', 'profiler_step', 'compute', 'transfer',
  'microbatch', 'detach', 'on_progress'];

// The trace importer for the API of module m, or none.
export function tracesOf(m, operation, limits) {
  if (typeof m.import_trace !== 'function') return {};
  const run = operation('import_trace', true);
  // options.on_progress: called with the fraction of the Blobs' bytes read.
  function importTrace(files, options) {
    const o = knownFieldsOf(options, TRACE_OPTIONS, what('options'));
    const progress = progressOf(o, 'importTrace');
    const count = objectAt(files, 'files').length;
    if (typeof count !== 'number' || !(count >= 0)) throw new TypeError(what('files') + ' must be a list of files');
    const inputs = [number('files', count)];
    const names = [inputs[0]];
    const blobs = [];
    for (let k = 0; k < count; k++) {
      const file = objectAt(files[k], 'files[' + k + ']');
      names.push(text('name.' + k, file.name, what('files[' + k + '].name')));
      inputs.push(names[k + 1]);
      inputs.push(content('bytes.' + k, file.bytes, limits.max_trace_bytes, what('files[' + k + '].bytes'), blobs, k));
    }
    const order = unboxed(o.stage_order);
    const offsets = unboxed(o.clock_offsets), step = unboxed(o.profiler_step);
    inputs.push(
      optionalText('stat', o.stat),
      optionalText('unit', o.unit),
      typeof order === 'string' ? text('stage_order_text', order, what('options.stage_order'))
        : list('stage_order', order, limits.max_trace_ranks),
      // Text as the CLI's --clock-offsets ("0, -12.3, 0.8"), as Python takes it too; a list otherwise.
      typeof offsets === 'string' ? text('clock_offsets_text', offsets, what('options.clock_offsets'))
        : list('clock_offsets', offsets, limits.max_trace_ranks),
      // Text as the CLI's --profiler-step ("2"), as Python takes it too; a number otherwise.
      typeof step === 'string' ? text('profiler_step_text', step, what('options.profiler_step'))
        : optional('profiler_step', step),
      optionalText('compute', o.compute),
      optionalText('transfer', o.transfer),
      optionalText('microbatch', o.microbatch),
    );
    const staged = o.detach === true ? () => detach(files, count) : () => {};
    if (blobs.length === 0) return run(inputs, false, staged);
    const imported = importBlobs(run, inputs, names, blobs, limits.max_trace_bytes, staged, progress.report);
    // An error of on_progress's is the call's, once it is over.
    return imported.then((out) => {
      progress.rethrow();
      return out;
    }, (e) => {
      progress.rethrow();
      throw e;
    });
  }
  return { importTrace };
}
