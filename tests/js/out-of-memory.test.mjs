// A host that will not give wasm memory more room (a browser tab short of
// memory does this: WebAssembly.Memory.grow throws) is simulated here by
// refusing grow() past a cap, in this test's own process. Every request is
// then answered with its right value or a coded out_of_memory error, never
// an abort, whether its staging or the core's work did not fit; what failed
// calls took is freed, and the module works on once memory is there again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hp, load, fails } from './support.mjs';

const { HeteropipeError } = load;
const grow = WebAssembly.Memory.prototype.grow;
let cap = Infinity;  // the bytes the host lets wasm memory reach
WebAssembly.Memory.prototype.grow = function (pages) {
  if (this.buffer.byteLength + pages * 65536 > cap) throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
  return grow.call(this, pages);
};

function outOfMemory(call, field) {
  fails(call, { code: 'out_of_memory', field, message: `${field}: not enough memory for this request` });
}

// tau and d with every sum exact, so that T_async is known: S stages of 1
// and 2 alternating, no links, M micro-batches.
const pipeline = (S) => Float64Array.from({ length: S }, (_, s) => 1 + (s % 2));
const asyncMakespan = (S, M) => 3 * Math.floor(S / 2) + (S % 2) + (M - 1) * 2;

test('with wasm memory capped, each request gets its value or out_of_memory, and memory comes back', () => {
  const small = () => assert.equal(hp.analyze({ tau: [0.5, 1, 1, 5], M: 8 }).T_async, 42.5);
  const text = '1,'.repeat(4e6);
  // No growth at all: staging a list larger than the free memory fails, and
  // so does work of the core's that does not fit (a timeline of 2e6 cells is
  // 64 MB, parsing 4e6 values 32 MB and more).
  function refused() {
    cap = hp.memory().wasm_bytes;
    outOfMemory(() => hp.analyze({ tau: pipeline(4e6), M: 3 }), 'tau');
    assert.deepEqual(hp.check({ tau: pipeline(4e6), M: 0 }).map((e) => [e.field, e.code]),
      [['tau', 'out_of_memory'], ['M', 'out_of_range']]);
    outOfMemory(() => hp.timeline({ tau: [1, 2, 3, 4], M: 500000 }), 'M');
    outOfMemory(() => hp.parseList(text, 'tau'), 'tau');
    const read = hp.readRequest({ tau: text, M: '4' });
    assert.deepEqual(read.errors.map((e) => [e.field, e.code]), [['tau', 'out_of_memory']]);
    assert.deepEqual(read.request, { tau: [], d: [], M: 8, rho: 1 });  // nothing was read: the defaults
    small();
  }
  // Once to warm every path up (each keeps its reply's room for reuse), once to measure.
  hp.analyze({ tau: pipeline(1000), M: 4 });
  refused();
  const before = hp.memory();
  refused();

  // Some growth: across sizes, some fit, some fail while staging, some in
  // the core; never anything but the right value or out_of_memory.
  cap = before.wasm_bytes + 48 * 1024 * 1024;
  const outcomes = new Set();
  for (const S of [1e5, 3e5, 6e5, 1e6, 1.5e6, 2e6, 3e6, 5e6]) {
    for (const lists of [true, false]) {
      try {
        const a = hp.analyze({ tau: pipeline(S), M: 5 }, { lists });
        assert.equal(a.T_async, asyncMakespan(S, 5), `S = ${S}`);
        assert.equal(lists ? a.sigma.length : undefined, lists ? S : undefined);
        outcomes.add('value');
      } catch (e) {
        assert.ok(e instanceof HeteropipeError && e.code === 'out_of_memory', `S = ${S}: ${e}`);
        outcomes.add('out_of_memory');
      }
    }
  }
  assert.deepEqual([...outcomes].sort(), ['out_of_memory', 'value']);

  // Everything the failed calls took was given back.
  small();
  assert.equal(hp.memory().malloc_bytes, before.malloc_bytes);

  // With memory there again, the same requests get their values.
  cap = Infinity;
  assert.equal(hp.analyze({ tau: pipeline(4e6), M: 3 }).T_async, asyncMakespan(4e6, 3));
  assert.equal(hp.timeline({ tau: [1, 2, 3, 4], M: 500000 }).makespan, hp.makespanAsync({ tau: [1, 2, 3, 4], M: 500000 }));
  assert.equal(hp.parseList(text, 'tau').length, 4e6);
  small();
});
