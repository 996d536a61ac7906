// The whole module's simulator and trace import under a host that will not
// give wasm memory more room (as tests/js/out-of-memory.test.mjs simulates
// it, in this test's own process, whose module has not grown yet): a coded
// out_of_memory error, never an abort; what the failed calls took is freed,
// and the same requests get their values once memory is there again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hp, fails } from './support.mjs';

const grow = WebAssembly.Memory.prototype.grow;
let cap = Infinity;
WebAssembly.Memory.prototype.grow = function (pages) {
  if (this.buffer.byteLength + pages * 65536 > cap) throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
  return grow.call(this, pages);
};

test("the simulator's timeline and a trace file that do not fit are out_of_memory, and memory comes back", () => {
  // 2e6 cells, the timeline's limit: five lists of 16 MB.
  const request = { tau: [1, 2, 3, 4], M: 500000, timeline: true };
  const file = [{ name: 'big.json', bytes: new Uint8Array(96 * 1024 * 1024) }];
  hp.simulate({ tau: [1, 2], M: 4, timeline: true });
  const before = hp.memory();
  cap = before.wasm_bytes;
  fails(() => hp.simulate(request), { code: 'out_of_memory', field: 'M', message: 'M: not enough memory for this request' });
  // Not even the file's name could be staged: the error is about the import as a whole.
  fails(() => hp.importTrace(file), { code: 'out_of_memory', field: 'trace', index: null });
  assert.equal(hp.memory().malloc_bytes, before.malloc_bytes);
  cap = Infinity;
  assert.equal(hp.simulate(request).makespan.mean, hp.makespanAsync({ tau: request.tau, M: request.M }));
  assert.throws(() => hp.importTrace(file), { code: 'not_a_trace', token: 'big.json' });
});

test("the simulator's stages that do not fit (their samplers, which its checks make) are out_of_memory on tau", () => {
  // max_stages stages need more than the module's 2 GiB. Before, memory was
  // judged only after the checks, which had made every stage's sampler
  // already: the module aborted there, and every later call aborted too.
  const good = { tau: [1, 2, 3], M: 5, service: 'lognormal:cv=0.5', reps: 100 };
  const expected = hp.simulate(good);
  const before = hp.memory();
  const e = fails(() => hp.simulate({ tau: new Float64Array(hp.limits.max_stages).fill(1), M: 10 }),
    { code: 'out_of_memory', field: 'tau', index: null });
  assert.ok(e.value > 2 ** 31, `the bytes the stages need (${e.value})`);
  assert.equal(hp.memory().malloc_bytes, before.malloc_bytes);
  assert.deepEqual(hp.simulate(good), expected);
});
