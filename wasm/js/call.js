// Calling the module: a request staged (encode.js), the operation run, its
// reply read (decode.js) and released. Every public function goes through
// here.
import { decoderOf } from './decode.js';
import { encoderOf } from './encode.js';
import { HeteropipeError, errorInfo } from './errors.js';

// Views of module m's memory, taken again when it grew (growing detaches the
// old ones, whose length becomes 0).
function heapOf(m) {
  let f64 = m.HEAPF64;
  let u8 = m.HEAPU8;
  const fresh = () => {
    if (f64.length === 0) {
      f64 = m.HEAPF64;
      u8 = m.HEAPU8;
    }
  };
  return {
    f64: () => (fresh(), f64),
    u8: () => (fresh(), u8),
  };
}

// The calls into module `m` (limits: the module's, as module_info gives them;
// small: its shared staging area, if known yet). operation(name, own) is the
// function that runs operation `name` on a list of inputs and returns its
// reply as a plain object, with lists as Float64Arrays when `typed`; a failed
// reply throws its HeteropipeError. What a call staged and what its reply
// kept are freed before it returns. With `own` (the tools' operations), every
// request is staged in an area of its own, never the shared one, however
// small: a tool may call the caller's code while it runs (on_progress), and
// a call made from there must not overwrite the request being run.
export function caller(m, limits, small) {
  const heap = heapOf(m);
  const encode = encoderOf(m, heap, limits, small);
  const readObject = decoderOf(heap);
  const release = m.release;

  // Reads the reply at `address` (see Reply in wasm/src/reply.hpp). A small
  // reply was copied whole into an area the module shares between calls and
  // needs no release; a large one is released once read.
  function reply(address, typed) {
    const f64 = heap.f64();
    const head = address >>> 3;
    const kept = f64[head + 3];
    try {
      const out = readObject(f64[head + 1] >>> 3, f64[head + 2], typed);
      if (f64[head] < 0) throw new HeteropipeError(errorInfo(out));
      return out;
    } finally {
      if (kept !== 0) release(kept);
    }
  }

  // `staged`, if given, runs once the inputs are in the module's memory and
  // before the operation: a caller may let go of large inputs there. `extra`,
  // if given, are the operation's arguments after the request's address (a
  // progress function; simulator.js).
  //
  // call.later(inputs) stages a request whose texts are written afterwards,
  // while the caller awaits them (a Blob's, traces.js): its area is its own,
  // never the shared one, so that the calls made meanwhile cannot reach it,
  // and every write takes the memory's current view (u8), since they may grow
  // it. Then run(typed) runs the operation, or drop() frees the area unread.
  return (name, own) => {
    const run = m[name];
    const call = (inputs, typed, staged, extra) => {
      const at = encode(inputs, own);
      if (staged) staged();
      return reply(extra ? run(at, ...extra) : run(at), typed);
    };
    if (HETEROPIPE_TOOLS) {
      call.later = (inputs) => {
        const at = encode(inputs, true);
        return { u8: heap.u8, run: (typed) => reply(run(at), typed), drop: () => m.unstage(at) };
      };
    }
    return call;
  };
}
