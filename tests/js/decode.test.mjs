// The reply decoder (wasm/js/decode.js) on records written here by hand: a field is named by its
// index in the module's table of field names, whose text it reads once, so the shapes it caches
// are keyed by that table and never by where a name's characters happen to lie in memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decoderOf } from '../../wasm/js/decode.js';
import { NUMBER, OBJECT, RECORD, TEXT } from '../../wasm/js/protocol.js';

// A memory of 64 KiB and a decoder of it; write(at, name, index, kind, a, b) writes one record at
// double `at`, its name's text at byte `where`.
function memory() {
  const buffer = new ArrayBuffer(1 << 16);
  const f64 = new Float64Array(buffer);
  const u8 = new Uint8Array(buffer);
  const read = decoderOf({ f64: () => f64, u8: () => u8 });
  const text = (where, s) => {
    for (let k = 0; k < s.length; k++) u8[where + k] = s.charCodeAt(k);
  };
  const record = (at, { kind = NUMBER, index, name, where, a = 0, b = 0 }) => {
    text(where, name);
    f64.set([kind, index, name.length, a, b, where], at);
  };
  return { read, record, text, u8 };
}

test('the same address holding another name later names another field', () => {
  const m = memory();
  m.record(0, { index: 0, name: 'alpha', where: 8000, a: 1 });
  m.record(RECORD, { index: 1, name: 'beta', where: 8100, a: 2 });
  assert.deepEqual(m.read(0, 2, false), { alpha: 1, beta: 2 });
  // A name built where another one was (a temporary reused): its own index tells it apart.
  m.record(0, { index: 2, name: 'gamma', where: 8000, a: 3 });
  m.record(RECORD, { index: 3, name: 'delta', where: 8100, a: 4 });
  assert.deepEqual(m.read(0, 2, false), { gamma: 3, delta: 4 });
  assert.deepEqual(Object.keys(m.read(0, 2, false)), ['gamma', 'delta']);
});

test('an index names its field wherever its text is given, and the text is read once', () => {
  const m = memory();
  m.record(0, { index: 5, name: 'makespan', where: 9000, a: 42 });
  assert.deepEqual(m.read(0, 1, false), { makespan: 42 });
  // The text at the first address is gone, and the next reply points elsewhere: index 5 is still
  // makespan, read from the decoder's own table.
  m.text(9000, 'xxxxxxxx');
  m.record(RECORD * 4, { index: 5, name: 'zzzzzzzz', where: 9100, a: 7 });
  assert.deepEqual(m.read(RECORD * 4, 1, false), { makespan: 7 });
});

test('nested objects and names outside the table (index -1) are read by their text', () => {
  const m = memory();
  m.record(0, { kind: OBJECT, index: 0, name: 'run', where: 10000, a: 2 });
  m.record(RECORD, { index: -1, name: 'first', where: 10100, a: 1 });
  m.record(2 * RECORD, { kind: TEXT, index: 1, name: 'label', where: 10200, a: 10300, b: 2 });
  m.text(10300, 'ok');
  assert.deepEqual(m.read(0, 3, false), { run: { first: 1, label: 'ok' } });
  m.record(RECORD, { index: -1, name: 'other', where: 10100, a: 5 });
  assert.deepEqual(m.read(0, 3, false), { run: { other: 5, label: 'ok' } });
});
