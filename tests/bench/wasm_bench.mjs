// Speed of the wasm module under Node, in the same shapes as the native
// benchmark (tests/bench/core_bench.cpp, sim_bench.cpp): analyze at S = 4 and
// S = 1e6, the streaming recurrence at S = 64, M = 1e6, the simulator, and the
// module's size. Prints
// medians; it asserts nothing about time (the tests never do).
// Usage: node tests/bench/wasm_bench.mjs [path/to/heteropipe.js]
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modulePath = process.argv[2] || join(root, 'build', 'wasm', 'wasm', 'heteropipe.js');
const hp = await createRequire(import.meta.url)(modulePath)();

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// Nanoseconds per call: the median of `rounds` timings of `calls` calls.
function time(f, calls, rounds) {
  for (let k = 0; k < Math.min(calls, 1000); k++) f();
  const samples = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let k = 0; k < calls; k++) f();
    samples.push(Number(process.hrtime.bigint() - start) / calls);
  }
  return median(samples);
}

const small = { tau: [0.5, 1, 1, 5], d: [0.2, 0.1, 0.3], M: 16, rho: 0.8 };
const S = 1e6;
const tau = new Float64Array(S);
const d = new Float64Array(S - 1);
for (let s = 0; s < S; s++) tau[s] = 1 + ((s * 7919) % 1000) / 1000;
for (let s = 0; s < S - 1; s++) d[s] = ((s * 104729) % 1000) / 4000;
const staging = new Float64Array(new WebAssembly.Memory({ initial: 2 * S * 8 / 65536 + 1 }).buffer);
const tau64 = Array.from({ length: 64 }, (_, s) => 1 + ((s * 37) % 17) / 16);
const d64 = Array.from({ length: 63 }, (_, s) => ((s * 13) % 7) / 16);

const bytes = readFileSync(modulePath);
const rows = [
  ['analyze, S = 4 (plain arrays in, plain object out)', `${(time(() => hp.analyze(small), 20000, 9) / 1000).toFixed(2)} µs`],
  ['makespanAsync, S = 4', `${(time(() => hp.makespanAsync(small), 20000, 9) / 1000).toFixed(2)} µs`],
  ['analyze, S = 1e6 (Float64Array in and out)', `${(time(() => hp.analyze({ tau, d, M: 16 }), 3, 7) / 1e6).toFixed(1)} ms`],
  ['analyze, S = 1e6, { lists: false } (scalars only)', `${(time(() => hp.analyze({ tau, d, M: 16 }, { lists: false }), 3, 7) / 1e6).toFixed(1)} ms`],
  // What the native benchmark, handed its arrays by move, never pays: copying
  // the 16 MB of input into (a buffer like) wasm memory.
  ['of which: copying tau and d into wasm memory', `${(time(() => { staging.set(tau, 0); staging.set(d, S); }, 3, 7) / 1e6).toFixed(1)} ms`],
  ['analyze, S = 1e6 (plain arrays out)', `${(time(() => hp.analyze({ tau: Array.from(tau), d: Array.from(d), M: 16 }), 1, 5) / 1e6).toFixed(1)} ms`],
];
const stream = time(() => hp.recurrenceMakespan({ tau: tau64, d: d64, M: 1e6, regime: 'async' }), 1, 7);
rows.push(['recurrence, S = 64, M = 1e6', `${(stream / 1e6).toFixed(1)} ms = ${(64e6 / stream).toFixed(2)}e9 cells/s`]);
// The planner (the whole module only): the explicit form at L = 128 over S = 16 devices of three
// kinds, as the native BM_plan_report shapes it, and the estimate form the page sends on a keystroke.
if (typeof hp.plan === 'function') {
  const kinds = [[1.0, 1.2, 80], [1.5, 2.0, 40], [2.9, 3.1, 24]];
  const explicit = (S, L) => {
    const devices = Array.from({ length: S }, (_, s) => {
      const [attention, mlp, memory] = kinds[(s * 7) % 3];
      const layer_times = Array.from({ length: L }, (_, b) => (b === 0 ? 0.4 : b === L - 1 ? 1.6 : b % 2 ? attention : mlp));
      return { layer_times, memory_capacity: memory };
    });
    const capacity = devices.reduce((sum, dev) => sum + dev.memory_capacity, 0);
    return JSON.stringify({ devices, layer_memory: Array(L).fill(0.75 * capacity / L),
      links: Array.from({ length: S - 1 }, (_, s) => ({ latency: 0.05, bandwidth: s % 4 === 3 ? 2 : 20 })),
      cut_bytes: Array(L - 1).fill(1), M: 8, objective: 'async' });
  };
  const report = explicit(16, 128);
  rows.push(['plan (the whole report: plan, baselines, what-if), explicit form, L = 128, S = 16', `${(time(() => hp.plan(report), 3, 7) / 1e6).toFixed(2)} ms`]);
  const catalog = { model: 'llama-3-70b', quant: 'Q4_K_M', devices: ['rtx-4090', 'rtx-3090', 'rtx-3090', 'tesla-p40', 'rtx-4090', 'rtx-3090', 'a100-80gb', 'rtx-5090'],
    links: Array(7).fill('pcie4-x16'), context: 4096, M: 8 };
  rows.push(['plan, estimate form, Llama 3 70B on 8 catalog GPUs (the page\'s keystroke)', `${(time(() => hp.plan(catalog), 5, 7) / 1e6).toFixed(2)} ms`]);
}
// The simulator (the whole module only), in the native BM_sim_* shapes: the
// deterministic engine with buffers of 2, and Monte Carlo with lognormal service.
if (typeof hp.simulate === 'function') {
  const det = time(() => hp.simulate({ tau: tau64, d: d64, M: 1e6, buffers: 2 }), 1, 5);
  rows.push(['simulate, deterministic, S = 64, M = 1e6, buffers 2', `${(det / 1e6).toFixed(0)} ms = ${(64e6 / det).toFixed(2)}e9 cells/s`]);
  const mc = time(() => hp.simulate({ tau: tau64.slice(0, 8), d: d64.slice(0, 7), M: 256, reps: 10000,
    service: 'lognormal:cv=0.5', buffers: 2 }), 1, 5);
  rows.push(['simulate, Monte Carlo, S = 8, M = 256, R = 10,000, lognormal CV 0.5, buffers 2', `${(mc / 1e6).toFixed(0)} ms`]);
}
rows.push(['module size (raw / gzip -9)', `${bytes.length} B / ${gzipSync(bytes, { level: 9 }).length} B`]);

console.log('| wasm benchmark (Node ' + process.versions.node + ') | median |');
console.log('|---|---|');
for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
