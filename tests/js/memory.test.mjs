// 100,000 bad calls in a row leave wasm memory and malloc's bytes in use
// exactly where they were: no C++ exception crosses the boundary, nothing leaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hp, load } from './support.mjs';

const badCalls = [
  () => hp.analyze({ tau: [1, 'x', 3], d: [0.1, 0.2], M: 8 }),
  () => hp.analyze({ tau: [1, 2], d: [0.1, 0.2, 0.3] }),
  () => hp.analyze({ tau: [1, 2], M: 2.5, T_real: 3 }),
  () => hp.parseList('0.5, 1,, 5', 'tau'),
  () => hp.parseList('0.5, 1, abc', 'd'),
  () => hp.parseNumber('', 'M'),
  () => hp.timeline({ tau: [1, 2], M: 5e6, regime: 'blocking' }),
  () => hp.recurrenceMakespan({ tau: [1, 2], M: 1e10 }),
  () => hp.makespanCurve({ tau: [1], batches: [1, 0] }),
  () => hp.overlapRatio({ tau: [1, 2], M: 3, T_real: -1 }),
];

test('100,000 bad calls leave memory flat', () => {
  const run = (calls) => {
    let thrown = 0;
    for (let k = 0; k < calls; k++) {
      try {
        badCalls[k % badCalls.length]();
      } catch (e) {
        if (e instanceof load.HeteropipeError) thrown++;
      }
    }
    return thrown;
  };
  run(1000);  // first use of each path sizes its buffers
  const before = hp.memory();
  assert.equal(run(100000), 100000);
  const after = hp.memory();
  assert.equal(after.wasm_bytes, before.wasm_bytes);
  assert.equal(after.malloc_bytes, before.malloc_bytes);
  const beforeCheck = hp.memory().malloc_bytes;
  for (let k = 0; k < 20000; k++) hp.check({ tau: [1, -1], d: [1, 2, 3], M: 0, rho: 2, T_real: 0 });
  assert.equal(hp.memory().malloc_bytes, beforeCheck);
  assert.equal(hp.makespanAsync({ tau: [0.5, 1, 1, 5], M: 8 }), 42.5);
});

test('good calls, large ones included, give their memory back', () => {
  hp.analyze({ tau: [1, 2, 3] });
  const before = hp.memory().malloc_bytes;
  for (let k = 0; k < 20000; k++) hp.analyze({ tau: [0.5, 1, 1, 5], d: [0.2, 0.1, 0.3], M: 16, rho: 0.8, T_real: 80 });
  hp.analyze({ tau: new Float64Array(200000).fill(1) });
  hp.timeline({ tau: [1, 2, 3, 4], M: 400000 });
  hp.analyze({ tau: [1, 2, 3] });
  // At most what it was: the input buffers shrink back after a large call.
  assert.ok(hp.memory().malloc_bytes <= before, `${hp.memory().malloc_bytes} > ${before}`);
});
