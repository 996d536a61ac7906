// Encoding a request: the inputs snapshot.js read, written into a staging
// area in the record format of wasm/src/protocol.hpp, by name. No caller's
// code runs from here on, so the lengths read here are the lengths copied.
import { float64Length, uint8Length, utf8Length } from './snapshot.js';
import { BOOLEAN, LIST, NUMBER, RECORD, STAGING_HEADER, TEXT, TOKEN } from './protocol.js';

const HEADER_BYTES = STAGING_HEADER * 8;
const RECORD_BYTES = RECORD * 8;
// Made on first need: only text that is not ASCII needs it, and every
// browser and Node has it, but not every embedding of a JS engine.
let encoder = null;

function writeAscii(u8, at, s) {
  for (let k = 0; k < s.length; k++) u8[at + k] = s.charCodeAt(k);
}

// s as UTF-8 (`bytes` long) at u8[at]; a Uint8Array as it is (none of it
// when detached: its length is 0, and set() would throw once the area was
// taken). A function is a text written later, told where it goes (a Blob's;
// traces.js).
function writeText(u8, at, s, bytes) {
  if (HETEROPIPE_TOOLS && typeof s === 'function') return s(at);
  if (typeof s !== 'string') return bytes > 0 ? u8.set(s, at) : undefined;
  if (bytes === s.length) return writeAscii(u8, at, s);
  if (encoder === null) encoder = new TextEncoder();
  encoder.encodeInto(s, u8.subarray(at, at + bytes));
}

// The encoder of requests for module `m`, whose wasm memory `heap` views
// (see call.js). limits: the module's, as module_info gives them; small: its
// shared staging area, if known yet.
export function encoderOf(m, heap, limits, small) {
  const stage = m.stage;
  // Stages `inputs` (nulls are absent inputs) and returns the area's address;
  // in an area of its own when `own`, even if small. Lists and texts longer
  // than the limits, or too large for memory, are named but not copied; C++
  // says which error that is.
  function encode(inputs, own) {
    let records = 0;
    let strings = 0;
    let lists = 0;
    let texts = 0;
    for (let j = 0; j < inputs.length; j++) {
      const input = inputs[j];
      if (input === null) continue;
      records++;
      strings += input.name.length;
      if (input.token !== null) {
        records++;
        input.tokenBytes = utf8Length(input.token);
        strings += input.tokenBytes;
      }
      if (input.kind === LIST) {
        if (input.typed) {
          input.length = float64Length(input.values);
          if (input.length > limits.max_stages) input.values = null;
        }
        if (input.values !== null) lists += input.length * 8;
      } else if (input.kind === TEXT) {
        if (typeof input.value === 'object') input.length = Math.max(uint8Length(input.value), 0);
        if (input.length <= (input.limit || limits.max_text_bytes)) texts += input.length;
      }
    }
    const recordBytes = Math.ceil((HEADER_BYTES + records * RECORD_BYTES + strings) / 8) * 8;
    const bytes = recordBytes + lists + texts;
    // Small requests go to the module's shared area: no call can start
    // between writing it here and the operation reading it (the tools'
    // requests, which may call back into the caller's code, never do).
    const shared = !(HETEROPIPE_TOOLS && own) && small !== undefined && bytes <= small.bytes;
    const at = shared ? small.address : stage(recordBytes, lists + texts);
    if (at === 0) return 0;
    const f64 = heap.f64();
    const u8 = heap.u8();
    const base = at >>> 3;
    if (shared) f64[base] = bytes;
    const copy = f64[base] >= bytes;  // else only the records were staged
    f64[base + 1] = records;
    let record = base + STAGING_HEADER;
    let string = HEADER_BYTES + records * RECORD_BYTES;
    let list = recordBytes;
    let text = recordBytes + lists;
    for (let j = 0; j < inputs.length; j++) {
      const input = inputs[j];
      if (input === null) continue;
      const name = string;
      writeAscii(u8, at + string, input.name);
      string += input.name.length;
      f64[record] = input.kind;
      f64[record + 1] = name;
      f64[record + 2] = input.name.length;
      f64[record + 3] = 0;
      f64[record + 4] = 0;
      f64[record + 5] = 0;
      if (input.kind === NUMBER) {
        f64[record + 3] = input.value;
      } else if (input.kind === BOOLEAN) {
        f64[record + 3] = input.value ? 1 : 0;
      } else if (input.kind === LIST) {
        f64[record + 4] = input.length;
        if (input.values !== null) {
          f64[record + 3] = list;
          if (copy && input.length > 0) f64.set(input.values, (at + list) >>> 3);
          list += input.length * 8;
        }
      } else if (input.kind === TEXT) {
        f64[record + 4] = input.length;
        if (input.length <= (input.limit || limits.max_text_bytes)) {
          f64[record + 3] = text;
          if (copy) writeText(u8, at + text, input.value, input.length);
          text += input.length;
        }
      }
      record += RECORD;
      if (input.token !== null) {
        f64[record] = TOKEN;
        f64[record + 1] = name;
        f64[record + 2] = input.name.length;
        f64[record + 3] = string;
        f64[record + 4] = input.tokenBytes;
        f64[record + 5] = input.at;
        writeText(u8, at + string, input.token, input.tokenBytes);
        string += input.tokenBytes;
        record += RECORD;
      }
    }
    return at;
  }

  return encode;
}
