// How requests and replies cross wasm memory: small ones through areas the
// module shares between calls (about 4 KB of request, 16 KB of reply: up to a
// few hundred stages), larger ones through areas of their own, freed after
// the call. Every path must give the same values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cliPath, hp } from './support.mjs';

function pipelineOf(S, seed) {
  const tau = Array.from({ length: S }, (_, s) => 1 + ((s * 7 + seed) % 13) / 8);
  const d = Array.from({ length: S - 1 }, (_, s) => ((s * 5 + seed) % 9) / 16);
  return { tau, d };
}

test('on both sides of the shared areas (4 to 2,000 stages): CLI --json and analyze agree bit for bit', () => {
  for (const S of [4, 63, 200, 250, 300, 400, 2000]) {
    const { tau, d } = pipelineOf(S, S);
    const native = JSON.parse(execFileSync(cliPath, [`--tau=${tau.join(',')}`, `--d=${d.join(',')}`, '--M=16',
      '--rho=0.8', '--T-real=900', '--json'], { encoding: 'utf8' }));
    for (const input of [{ tau, d }, { tau: Float64Array.from(tau), d: Float64Array.from(d) }]) {
      const wasm = hp.analyze({ ...input, M: 16, rho: 0.8, T_real: 900 });
      assert.deepEqual(Object.keys(wasm), Object.keys(native), `S = ${S}`);
      for (const key of Object.keys(native)) {
        const [a, b] = [wasm[key], native[key]];
        if (typeof b === 'object') assert.deepEqual(Array.from(a), b, `S = ${S}: ${key}`);
        else assert.ok(Object.is(a, b), `S = ${S}: ${key} wasm ${a} native ${b}`);
      }
    }
  }
});

// Dyadic values: every sum is exact, so Theorem 2 can be checked to the bit.
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

test('large pipelines in a row each get their own values', () => {
  const S = 100000;
  for (const seed of [1, 2, 3]) {
    const { tau, d } = pipelineOf(S, seed);
    const tauMax = Math.max(...tau.slice(0, 13));
    const a = hp.analyze({ tau: Float64Array.from(tau), d: Float64Array.from(d), M: 16 });
    assert.equal(a.S, S);
    assert.equal(a.tau_max, tauMax);
    assert.equal(a.bottleneck_stage, tau.indexOf(tauMax));
    assert.equal(a.T_async, sum(tau) + sum(d) + 15 * tauMax);
    assert.deepEqual(Array.from(a.tau), tau);
    assert.deepEqual(Array.from(a.d), d);
    assert.deepEqual(Array.from(a.sigma.subarray(0, 5)), [0, 1, 2, 3, 4].map((s) => tau[s] + d[s]));
    const scalars = hp.analyze({ tau, d, M: 16 }, { lists: false });
    assert.equal(scalars.T_async, a.T_async);
    assert.equal('sigma' in scalars, false);
  }
  // A short call after the long ones still reads its own short lists.
  const tau = [0.5, 1, 1, 5], d = [0.2, 0.1, 0.3];
  assert.equal(hp.analyze({ tau, d, M: 16 }).T_async, sum(tau) + sum(d) + 15 * 5);
});
