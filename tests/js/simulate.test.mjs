// hp.simulate through the npm module: the core's simulator, bit for bit `heteropipe simulate --json`
// on the same seeded requests and the core's golden bits for a seed; the request's forms as Python's
// Pipeline.simulate takes them; bad input a coded error naming the field and position; the pages'
// calculator module leaves it out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath, fails, hp, random, root } from './support.mjs';

const bits = (x) => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return view.getBigUint64(0);
};
const plain = (x) => JSON.parse(JSON.stringify(x, (k, v) => (v instanceof Float64Array ? Array.from(v) : v)));

function cli(args) {
  const run = spawnSync(cliPath, ['simulate', '--json', ...args], { encoding: 'utf8' });
  return run;
}

test("the calculator module has no simulate; the whole module has it", async () => {
  const calc = await createRequire(import.meta.url)(join(root, 'build', 'wasm', 'wasm', 'heteropipe-calc.js'))();
  assert.equal(calc.simulate, undefined);
  assert.equal(typeof hp.simulate, 'function');
});

test("a seed's bits are the core's goldens (tests/core/sim_random_test.cpp) and Python's", () => {
  const r = hp.simulate({ tau: [1.13, 2.90, 2.62], d: [0.1, 0.2], M: 16, service: 'lognormal:cv=0.5',
    link_service: 'exponential', buffers: 1, reps: 100, seed: 7 });
  assert.equal(bits(r.makespan.mean), 4632921010276554628n);
  assert.equal(bits(r.makespan.p99), 4634377462268877808n);
  assert.equal(bits(r.throughput.mean), 4598981030015126052n);
  assert.equal(r.reps, 100);
  assert.equal(r.seed, 7);
  assert.ok(r.jensen_gap >= 0);
  const again = hp.simulate({ tau: [1.13, 2.9, 2.62], d: [0.1, 0.2], M: 16, service: 'lognormal:cv=0.5',
    link_service: 'exponential', buffers: [1, 1], reps: 100, seed: 7 });
  assert.deepEqual(again, r);
  // The documented example (docs/python-api.md): a shared group of two links.
  assert.equal(hp.simulate({ tau: [1, 1, 1], d: [2, 2], M: 2, shared: [[0, 1]] }).makespan.mean, 10);
});

test('deterministic service with async links is T_async exactly; blocking links T_block', () => {
  const r = hp.simulate({ tau: [1, 3, 2], d: [0.5, 0.25], M: 9 });
  assert.equal(r.links, 'async');
  assert.equal(r.makespan.mean, r.T_async);
  assert.equal(r.makespan.mean, hp.makespanAsync({ tau: [1, 3, 2], d: [0.5, 0.25], M: 9 }));
  const b = hp.simulate({ tau: [1, 3, 2], d: [0.5, 0.25], M: 9, links: 'blocking' });
  assert.equal(b.links, 'blocking');
  assert.equal(b.makespan.mean, b.T_block);
  // The former names still read, as the same modes, named as written now.
  assert.deepEqual(hp.simulate({ tau: [1, 3, 2], d: [0.5, 0.25], M: 9, links: 'block' }), b);
  assert.deepEqual(hp.simulate({ tau: [1, 3, 2], d: [0.5, 0.25], M: 9, links: 'delay' }), r);
});

// Seeded random requests, each given to the CLI as its flags and to hp.simulate in another form
// where one exists (lists for text, a number for a list of one).
function requests() {
  const next = random(20261130);
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  const value = () => Math.round((0.05 + next() * 4) * 1000) / 1000 + next() * 1e-9;
  const services = ['deterministic', 'exponential', 'lognormal:cv=0.3', 'gamma:cv=1.5', 'uniform:spread=0.4'];
  return Array.from({ length: 30 }, (_, k) => {
    const S = 1 + Math.floor(next() * 5);
    const tau = Array.from({ length: S }, value);
    const d = Array.from({ length: S - 1 }, value);
    const buffers = Array.from({ length: S - 1 }, () => pick([0, 1, 2, Infinity]));
    const req = { tau, d, M: 1 + Math.floor(next() * 12), links: pick(['async', 'blocking', 'serial']),
      service: pick(services), link_service: pick(services), reps: 1 + Math.floor(next() * 40),
      seed: Math.floor(next() * 1e9), timeline: k % 5 === 0 };
    const args = ['--tau', tau.join(','), '--d', d.join(','), '--M', String(req.M), '--links', req.links,
      '--service', req.service, '--link-service', req.link_service, '--reps', String(req.reps), '--seed', String(req.seed)];
    if (S > 1) {
      req.buffers = k % 2 ? buffers : buffers.map(String).join(', ').replace(/Infinity/g, 'inf');
      args.push('--buffers', buffers.map((b) => (b === Infinity ? 'inf' : b)).join(','));
    }
    if (S > 2 && k % 3 === 0) {
      req.shared = k % 2 ? [[0, 1]] : '0,1';
      args.push('--shared', '0,1');
    }
    if (req.timeline) args.push('--timeline');
    return [req, args];
  });
}

test('hp.simulate equals `heteropipe simulate --json` on seeded random requests, bit for bit', () => {
  let timelines = 0;
  for (const [req, args] of requests()) {
    const run = cli(args);
    assert.equal(run.status, 0, args.join(' ') + run.stderr);
    const mine = hp.simulate(req);
    if (req.timeline) {
      assert.ok(mine.run.timeline.compute_start instanceof Float64Array);
      timelines += 1;
    }
    assert.deepEqual(plain(mine), JSON.parse(run.stdout), args.join(' '));
  }
  assert.ok(timelines >= 5);
});

test('a replayed matrix and measured samples equal the CLI reading them from CSV files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hp-sim-'));
  try {
    const next = random(7);
    const matrix = Array.from({ length: 6 }, () => Array.from({ length: 3 }, () => 0.5 + next() * 3));
    writeFileSync(join(dir, 'm.csv'), 's0,s1,s2\n' + matrix.map((row) => row.join(',')).join('\n') + '\n');
    const base = { tau: [1, 2, 1.5], d: [0.3, 0.1], M: 6, buffers: [0, 1] };
    const args = ['--tau', '1,2,1.5', '--d', '0.3,0.1', '--M', '6', '--buffers', '0,1'];
    const replay = cli([...args, '--service-matrix', join(dir, 'm.csv')]);
    assert.equal(replay.status, 0, replay.stderr);
    const typedRows = matrix.map((row) => Float64Array.from(row));
    assert.deepEqual(plain(hp.simulate({ ...base, service_matrix: typedRows })), JSON.parse(replay.stdout));
    // Samples: the CSV's columns are the stages.
    const sampled = cli([...args, '--service-samples', join(dir, 'm.csv'), '--reps', '50', '--seed', '3']);
    assert.equal(sampled.status, 0, sampled.stderr);
    const columns = [0, 1, 2].map((s) => matrix.map((row) => row[s]));
    assert.deepEqual(plain(hp.simulate({ ...base, service_samples: columns, reps: 50, seed: 3 })), JSON.parse(sampled.stdout));
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('per-stage names, quantiles and scaling are read by the core', () => {
  const base = { tau: [1, 2], d: [0.5], M: 8, reps: 20, seed: 11 };
  const perStage = hp.simulate({ ...base, service: ['exponential', 'deterministic'] });
  const same = hp.simulate({ ...base, service: ['exponential', 'exponential'] });
  assert.notDeepEqual(perStage.makespan, same.makespan);
  const q = hp.simulate({ ...base, service_samples: [[0.5, 1, 1.5], [1, 2, 3]], quantiles: true, scaled: true });
  assert.ok(q.makespan.min > 0 && q.makespan.max >= q.makespan.min);
});

test('quantiles at given probabilities: the same function as evenly spaced ones, and flat outside them', () => {
  const base = { tau: [2, 4], M: 1, reps: 2000, seed: 3 };
  // 1, 2, 5 at 0, 1/2, 1 either way: the same draws.
  const given = hp.simulate({ ...base, service_samples: [[1, 2, 5], [1, 3, 4]], service_probabilities: [0, 0.5, 1] });
  const even = hp.simulate({ ...base, service_samples: [[1, 2, 5], [1, 3, 4]], quantiles: true });
  assert.ok(Math.abs(given.makespan.mean - even.makespan.mean) <= 1e-12 * even.makespan.mean);
  // At 0.25 and 0.75 only: the quantile function is 1 below 0.25 and 5 above 0.75, so the mean is
  // 0.25 x 1 + 0.5 x 3 + 0.25 x 5 = 3 for the first stage and 0.25 x 2 + 0.5 x 2.5 + 0.25 x 3 = 2.5 for the second.
  const inner = hp.simulate({ ...base, service_samples: [[1, 5], [2, 3]], service_probabilities: [0.25, 0.75] });
  assert.equal(inner.deterministic_makespan, 5.5);
  assert.ok(inner.makespan.min >= 3 && inner.makespan.max <= 8);
  assert.ok(inner.makespan.ci95[0] <= 5.5 && 5.5 <= inner.makespan.ci95[1]);
  let error;
  try { hp.simulate({ ...base, service_samples: [[1, 5], [2, 3]], service_probabilities: [0.75, 0.25] }); } catch (e) { error = e; }
  assert.deepEqual([error.code, error.field, error.index, error.value], ['not_ascending', 'service_probabilities', 1, 0.25]);
  assert.equal(error.message, 'service_probabilities, item 2: probabilities must increase (got 0.25 after one as large or larger)');
});

test('bad simulate input: coded errors naming the field and position', () => {
  const base = { tau: [1, 2, 3], d: [0.5, 0.5], M: 8 };
  fails(() => hp.simulate({ ...base, tau: [1, -2, 3] }), { code: 'negative', field: 'tau', index: 1 });
  fails(() => hp.simulate({ ...base, tau: [1, NaN, 3] }), { code: 'not_finite', field: 'tau', index: 1, token: 'NaN' });
  fails(() => hp.simulate({ ...base, service: 'lognormal:cv=5' }), { code: 'out_of_range', field: 'service' });
  fails(() => hp.simulate({ ...base, service: ['exponential', 'gamma:cv=9', 'exponential'] }),
    { code: 'out_of_range', field: 'service', index: 1 });
  fails(() => hp.simulate({ ...base, service: 'weibull' }), { code: 'unknown_name', field: 'service', token: 'weibull' });
  fails(() => hp.simulate({ ...base, service_matrix: [[1, 2, 3], [1, 2]] }),
    { code: 'wrong_length', field: 'service_matrix', index: 1, value: 2, limit: 3 });
  fails(() => hp.simulate({ ...base, shared: [[0, 1], [1]] }), { code: 'overlapping_groups', field: 'shared', index: 1, value: 1 });
  fails(() => hp.simulate({ ...base, shared: '0;5' }), { code: 'no_such_link', field: 'shared', index: 1, value: 5 });
  fails(() => hp.simulate({ ...base, buffers: [1, -1] }), { field: 'buffers', index: 1 });
  fails(() => hp.simulate({ ...base, buffers: '1, x' }), { field: 'buffers', index: 1 });
  // A value that is no number, in a list or alone, is not_a_number, as Python's; NaN is not_finite.
  fails(() => hp.simulate({ ...base, buffers: [1, 'x'] }),
    { code: 'not_a_number', field: 'buffers', index: 1, token: '"x"', message: 'buffers, link 2: \'"x"\' is not a number' });
  fails(() => hp.simulate({ ...base, buffers: true }), { code: 'not_a_number', field: 'buffers', index: 0, token: 'true' });
  fails(() => hp.simulate({ ...base, buffers: [5n, 1] }), { code: 'not_a_number', field: 'buffers', index: 0, token: '5n' });
  fails(() => hp.simulate({ ...base, buffers: NaN }), { code: 'not_finite', field: 'buffers', index: 0, token: 'NaN' });
  fails(() => hp.simulate({ ...base, service_samples: [[1, 2], [1, 2], [1, 2]], service_probabilities: [0.5, null] }),
    { code: 'not_a_number', field: 'service_probabilities', index: 1, token: 'null' });
  fails(() => hp.simulate({ ...base, shared: [[0], [{}]] }), { code: 'not_a_number', field: 'shared', index: 1, token: 'an object' });
  fails(() => hp.simulate({ ...base, M: false }), { code: 'not_a_number', field: 'M', index: null, token: 'false' });
  fails(() => hp.simulate({ ...base, reps: 5n }), { code: 'not_a_number', field: 'reps', index: null, token: '5n' });
  fails(() => hp.simulate({ ...base, seed: null }), { code: 'not_a_number', field: 'seed', index: null, token: 'null' });
  fails(() => hp.simulate({ ...base, reps: 2e6 }), { code: 'out_of_range', field: 'reps', limit: hp.limits.max_reps });
  fails(() => hp.simulate({ ...base, M: 1e6, reps: 1e4 }), { code: 'too_many_sim_cells', field: 'reps' });
  // S x (the largest buffer that can fill + 1) release times, over max_buffer_history.
  const eight = { tau: Array(8).fill(1), M: 1e6 };
  fails(() => hp.simulate({ ...eight, buffers: '2, inf, 600000, 9, 700000, inf, 0' }),
    { code: 'buffer_history_too_large', field: 'buffers', index: 4, value: 8 * 700001, limit: hp.limits.max_buffer_history });
  assert.equal(hp.simulate({ ...eight, M: 600001, buffers: '2, inf, 600000, 9, 0, inf, 0' }).makespan.mean, 600008);
  fails(() => hp.simulate({ ...base, links: 'fast' }), { code: 'unknown_name', token: 'fast' });
  // The CLI words each the same.
  const run = cli(['--tau', '1,2,3', '--d', '0.5,0.5', '--shared', '0,1;1']);
  let e;
  try {
    hp.simulate({ ...base, shared: '0,1;1' });
  } catch (caught) {
    e = caught;
  }
  assert.equal(run.stderr, `error: ${e.message}\n`);
});

test('every bad option at once, each with its sentence and its detail (the sentence without the field)', () => {
  let error;
  try {
    hp.simulate({ tau: [1, 2, 3], M: 8, buffers: '1, -1', service: 'lognormal:cv=5', reps: 0, seed: 'x' });
  } catch (e) { error = e; }
  // The options' readers' errors (the seed's text) come before the checks'.
  assert.deepEqual(error.errors.map((e) => [e.field, e.index, e.message, e.detail]), [
    ['seed', null, "seed: 'x' is not a number", "'x' is not a number"],
    ['buffers', 1, 'buffers, link 2: must be >= 0 (got -1)', 'link 2: must be >= 0 (got -1)'],
    ['service', null, 'service: must be between 0 and 4 (got 5)', 'must be between 0 and 4 (got 5)'],
    ['reps', null, 'reps: must be between 1 and 1,000,000 (got 0)', 'must be between 1 and 1,000,000 (got 0)'],
  ]);
  // A seed or reps typed as text is read as the CLI reads --seed and --reps.
  for (const [seed, sentence] of [['1.5', 'seed: must be a whole number (got 1.5)'], [' 7 ', null]]) {
    let caught = null, r = null;
    try { r = hp.simulate({ tau: [1, 2], M: 4, seed }); } catch (e) { caught = e; }
    if (sentence) assert.equal(caught.message, sentence);
    else assert.equal(r.seed, 7);
  }
  const typedReps = cli(['--tau', '1,2', '--reps', 'x']);
  try { hp.simulate({ tau: [1, 2], reps: 'x' }); } catch (e) { error = e; }
  assert.equal(typedReps.stderr, `error: ${error.message}\n`);
  // An empty CV: the number after cv= is missing, not an unknown distribution.
  try { hp.simulate({ tau: [1, 2], service: 'lognormal:cv=' }); } catch (e) { error = e; }
  assert.deepEqual([error.code, error.message], ['empty', "service: the value after cv= is missing (got 'lognormal:cv=')"]);
  assert.equal(error.message, error.errors[0].message);
  // The work limits only when every option is good on its own: then alone.
  try { hp.simulate({ tau: [1, 2, 3], M: 1000, reps: 1e6 }); } catch (e) { error = e; }
  assert.deepEqual(error.errors.map((e) => [e.code, e.field]), [['too_many_sim_cells', 'reps']]);
});

test('the makespan against T_async in percent, and the gap\'s interval, are the statistics\' own', () => {
  const r = hp.simulate({ tau: [1.13, 2.9, 2.62], d: [0.1, 0.2], M: 16, service: 'gamma:cv=1', reps: 500, seed: 3 });
  const m = r.makespan;
  assert.ok(Math.abs(r.mean_vs_T_async_percent - (m.mean - r.T_async) / r.T_async * 100) < 1e-9);
  assert.ok(Math.abs(r.mean_vs_T_async_ci95_percent - (m.ci95[1] - m.mean) / r.T_async * 100) < 1e-9);
  assert.ok(Math.abs(r.p99_vs_T_async_percent - (m.p99 - r.T_async) / r.T_async * 100) < 1e-9);
  assert.deepEqual(Array.from(r.jensen_gap_ci95), [m.ci95[0] - r.deterministic_makespan, m.ci95[1] - r.deterministic_makespan]);
});

test('what is no value of its kind is a TypeError, and nothing is left allocated', () => {
  const before = hp.memory().malloc_bytes;
  const base = { tau: [1, 2], d: [0.5], M: 4 };
  assert.throws(() => hp.simulate({ ...base, links: 3 }), TypeError);
  assert.throws(() => hp.simulate({ ...base, service: [1] }), TypeError);
  assert.throws(() => hp.simulate({ ...base, timeline: 'yes' }), TypeError);
  assert.throws(() => hp.simulate({ ...base, shared: 5 }), TypeError);
  assert.throws(() => hp.simulate({ get tau() { throw new RangeError('mine'); } }), RangeError);
  fails(() => hp.simulate({ ...base, reps: 0 }), { field: 'reps' });
  hp.simulate({ ...base, reps: 10, timeline: true });
  assert.equal(hp.memory().malloc_bytes, before);
});

test('progress goes to the call\'s own on_progress: the fractions done, rising to 1; no global is called', () => {
  const request = { tau: [1, 2, 1.5], d: [0.5, 0.25], M: 16, service: 'exponential', reps: 250, seed: 3 };
  const seen = [];
  const global = [];
  globalThis.heteropipeProgress = (f) => global.push(f);
  let r;
  try {
    r = hp.simulate(request, { on_progress: (f) => seen.push(f) });
  } finally {
    delete globalThis.heteropipeProgress;
  }
  // The result does not depend on it; the core calls it after each batch of floor(reps / 100).
  assert.deepEqual(r, hp.simulate(request));
  assert.deepEqual(global, []);
  assert.ok(seen.length >= 2 && seen.length <= 126, String(seen.length));
  assert.equal(seen.at(-1), 1);
  assert.ok(seen.every((f, k) => f > 0 && f <= 1 && (k === 0 || f > seen[k - 1])), seen.join(' '));
  // Deterministic service needs no replications beyond the first: no progress to report.
  const none = [];
  hp.simulate({ tau: [1, 2], M: 4 }, { on_progress: (f) => none.push(f) });
  assert.deepEqual(none, []);
});

test('calls made from on_progress, small ones included, do not reach the run in progress', () => {
  const request = { tau: [1, 2, 1.5], d: [0.5, 0.25], M: 16, service: 'lognormal:cv=0.5', reps: 200, seed: 9 };
  const expected = hp.simulate(request);
  const inner = [];
  const options = {
    on_progress: () => {
      inner.push(hp.analyze({ tau: [5, 1], d: [7], M: 3 }).T_async);
      inner.push(hp.simulate({ tau: [3], M: 2, links: 'serial' }).makespan.mean);
    },
  };
  // The first nested run may keep a reply's records for the next (reply.cpp); the second keeps nothing.
  assert.deepEqual(hp.simulate(request, options), expected);
  const before = hp.memory().malloc_bytes;
  const r = hp.simulate(request, options);
  assert.deepEqual(r, expected);
  assert.ok(inner.length > 0);
  assert.deepEqual(new Set(inner), new Set([hp.makespanAsync({ tau: [5, 1], d: [7], M: 3 }), 6]));
  assert.equal(hp.memory().malloc_bytes, before);
});

test('an error thrown by on_progress is the call\'s, once it is over; a bad on_progress is a TypeError', () => {
  const request = { tau: [1, 2], d: [0.5], M: 8, service: 'exponential', reps: 300, seed: 1 };
  const before = hp.memory().malloc_bytes;
  let calls = 0;
  const boom = new Error('from on_progress');
  assert.throws(() => hp.simulate(request, { on_progress: () => { calls++; throw boom; } }), (e) => e === boom);
  assert.equal(calls, 1, 'it is called no more after it threw');
  assert.throws(() => hp.simulate(request, { on_progress: 1 }), TypeError);
  assert.equal(hp.memory().malloc_bytes, before);
  assert.deepEqual(hp.simulate(request, {}), hp.simulate(request));
});

test('issue 22: shared links bound the queued transfers; the module stays usable and keeps nothing', () => {
  const before = hp.memory();
  // Within the cell limit, but M x (S-1) transfers could all wait: refused before any allocation.
  fails(() => hp.simulate({ tau: [1, 2], d: [3], M: 3e8, shared: '0' }),
    { code: 'too_many_transfers', field: 'M', value: 3e8, limit: hp.limits.max_queued_transfers,
      message: 'M: with shared links, M x (S-1) = 300,000,000 transfers that may wait at once is over the limit of 4,194,304' });
  const after = hp.memory();
  assert.equal(after.malloc_bytes, before.malloc_bytes);
  assert.equal(after.wasm_bytes, before.wasm_bytes);
  // Later shared-link simulations still work: T_async with one transfer at a time on the link.
  const r = hp.simulate({ tau: [1, 2], d: [3], M: 4, shared: '0' });
  assert.equal(r.makespan.mean, hp.simulate({ tau: [1, 2], d: [3], M: 4, links: 'serial' }).makespan.mean);
  assert.equal(hp.simulate({ tau: [1, 2], d: [3], M: hp.limits.max_queued_transfers / 16, shared: '0' }).M,
    hp.limits.max_queued_transfers / 16);
});

test("a matrix's bad cell names its row and column, and its value as JS passed it", () => {
  const tau = [1, 2, 3];
  // The row is the micro-batch, the column the stage (service_matrix) or the link (link_matrix).
  fails(() => hp.simulate({ tau, M: 2, service_matrix: [[1, 2, 3], [4, 5, -6]] }),
    { code: 'negative', field: 'service_matrix', index: 1, column: 2, value: -6,
      message: 'service_matrix, row 2, column 3: must be >= 0 (got -6)', detail: 'row 2, column 3: must be >= 0 (got -6)' });
  fails(() => hp.simulate({ tau, M: 2, service_matrix: [[1, 'x', 3], [4, 5, 6]] }),
    { code: 'not_a_number', field: 'service_matrix', index: 0, column: 1, token: '"x"',
      message: 'service_matrix, row 1, column 2: \'"x"\' is not a number' });
  fails(() => hp.simulate({ tau, M: 2, link_matrix: [[1, 2], [null, 4]] }),
    { code: 'not_a_number', field: 'link_matrix', index: 1, column: 0, token: 'null',
      message: "link_matrix, row 2, column 1: 'null' is not a number" });
  fails(() => hp.simulate({ tau, M: 2, link_matrix: [new Float64Array([1, 2]), new Float64Array([3, 2e15])] }),
    { code: 'too_large', field: 'link_matrix', index: 1, column: 1, limit: 1e15,
      message: 'link_matrix, row 2, column 2: must be at most 1e15 (got 2e+15)' });
  // A whole row, or the whole matrix: column null; other fields' errors have none.
  fails(() => hp.simulate({ tau, M: 2, service_matrix: [[1, 2, 3], [4, 5]] }),
    { code: 'wrong_length', field: 'service_matrix', index: 1, column: null });
  fails(() => hp.simulate({ tau, M: 3, service_matrix: [[1, 2, 3]] }),
    { code: 'wrong_length', field: 'service_matrix', index: null, column: null });
  assert.equal('column' in fails(() => hp.simulate({ tau, M: 2, reps: 0 }), { field: 'reps' }), false);
  // The same cell as the CLI names it in a file (tests/cli/golden/bad_simulate_matrix_cell.txt).
  const cli = spawnSync(cliPath, ['simulate', '--tau', '1,1,1', '--M', '3', '--service-matrix',
    join(root, 'tests', 'cli', 'sims', 'matrix_bad_cell.csv')], { encoding: 'utf8' });
  const e = fails(() => hp.simulate({ tau: [1, 1, 1], M: 3, service_matrix: [[1, 2, 3], [4, 5, 6], [7, -8, 9]] }), {});
  assert.equal(cli.stderr, `error: ${e.message}\n`);
});

test('issue 22: empty lists are refused, tiny CVs draw the mean, block links give the blocking recurrence', () => {
  const base = { tau: [1, 2], M: 3 };
  fails(() => hp.simulate({ ...base, service_matrix: [] }),
    { code: 'wrong_length', field: 'service_matrix', value: 0, limit: 6, message: 'service_matrix: needs M x S = 6 values (got 0)' });
  fails(() => hp.simulate({ ...base, service_samples: [] }), { code: 'wrong_length', field: 'service_samples', value: 0, limit: 2 });
  // A sample that is no number is quoted as passed (it was "got NaN"), in whichever stage it is.
  fails(() => hp.simulate({ ...base, service_samples: [[1, 2], [3, 'x', 5]] }),
    { code: 'not_a_number', field: 'service_samples', index: 1, token: '"x"',
      message: 'service_samples, stage 2: \'"x"\' is not a number' });
  fails(() => hp.simulate({ ...base, service_samples: [[1, null], [3, 4]] }),
    { code: 'not_a_number', field: 'service_samples', index: 0, token: 'null' });
  fails(() => hp.simulate({ ...base, service_samples: [[1, 2], [3, NaN, 'x']] }),
    { code: 'not_finite', field: 'service_samples', index: 1, token: 'NaN' });
  // Issue 23: the link matrix is checked as the service matrix is.
  fails(() => hp.simulate({ tau: [1, 2, 3], M: 3, link_matrix: [] }),
    { code: 'wrong_length', field: 'link_matrix', value: 0, limit: 6, message: 'link_matrix: needs M x (S-1) = 6 values (got 0)' });
  fails(() => hp.simulate({ tau: [1, 2, 3], M: 2, link_matrix: [[1, 2], [1]] }),
    { code: 'wrong_length', field: 'link_matrix', index: 1, value: 1, limit: 2,
      message: 'link_matrix, row 2: needs S-1 = 2 values, one per link (got 1)' });
  fails(() => hp.simulate({ tau: [1, 2, 3], M: 1, link_matrix: [[1, NaN]] }),
    { code: 'not_finite', field: 'link_matrix', index: 0, column: 1 });
  // Transfers 2, 0, 1 (tests/cli/cases.txt): 6 under async links, 7 under blocking.
  assert.equal(hp.simulate({ tau: [1, 1], M: 3, link_matrix: [[2], [0], [1]] }).makespan.mean, 6);
  assert.equal(hp.simulate({ tau: [1, 1], M: 3, link_matrix: [[2], [0], [1]], links: 'blocking' }).makespan.mean, 7);
  fails(() => hp.simulate({ ...base, buffers: [] }), { code: 'empty', field: 'buffers', message: 'buffers: needs at least one value' });
  fails(() => hp.simulate({ ...base, buffers: '' }), { code: 'empty', field: 'buffers' });
  fails(() => hp.simulate({ ...base, M: 1e9 }), { code: 'too_many_sim_cells', field: 'M' });
  // Random times count their draws and each replication's 2S - 1 streams (8e6 cells here).
  fails(() => hp.simulate({ tau: Array(8).fill(1), M: 1, service: 'exponential', reps: 1e6 }),
    { code: 'too_much_sim_work', field: 'reps', value: 1.096e9, limit: hp.limits.max_sim_cells,
      message: 'reps: with random times, M x S x reps cells plus 16 steps a draw and 64 a stream of each replication = ' +
        '1,096,000,000 steps is over the limit of 1,000,000,000' });
  // A shared link is read as the CLI reads it: NaN is not finite (it said "must be a whole number (got 0)"),
  // a whole 1e20 out of range (it said "must be a whole number").
  fails(() => hp.simulate({ ...base, shared: [[0], [NaN]] }), { code: 'not_finite', field: 'shared', index: 1 });
  fails(() => hp.simulate({ ...base, shared: [[1e20]] }),
    { code: 'out_of_range', field: 'shared', index: 0, message: 'shared, group 1: must be between 0 and 2^53 (got 1e+20)' });
  // A name is read without the blanks around it, as a number is (reps ' 5').
  assert.equal(hp.simulate({ ...base, links: ' serial ', reps: ' 5' }).links, 'serial');
  // With shared links, 1/128 of the cells (the event engine's work per cell).
  fails(() => hp.simulate({ ...base, M: 2e6, reps: 2, shared: '0' }),
    { code: 'too_many_sim_cells', field: 'reps', value: 8e6, limit: 7812500, message: 'reps: M x S x reps = 8,000,000 cells is over the limit of 7,812,500' });
  fails(() => hp.simulate({ ...base, service: 'gamma:cv=1:cv=2' }),
    { code: 'not_a_number', field: 'service', message: "service: the value after cv= or spread= must be one number (got '1:cv=2')" });
  fails(() => hp.simulate({ ...base, service: 'gamma:x' }), { code: 'not_a_number', field: 'service', message: "service: 'x' is not a number" });
  fails(() => hp.simulate({ ...base, service: ['deterministic', 'lognormal:cv=x'] }),
    { code: 'not_a_number', field: 'service', index: 1, message: "service, stage 2: 'x' is not a number" });
  for (const service of ['gamma:cv=1e-300', 'lognormal:cv=1e-300', 'uniform:spread=1e-300']) {
    const r = hp.simulate({ tau: [1, 2], M: 4, service, reps: 3 });
    assert.deepEqual([r.makespan.min, r.makespan.max], [9, 9], service);
  }
  const block = hp.simulate({ tau: [2, 0, 2.6306419864991297], d: [4.572090012088631, 2.865549961807062], M: 3, links: 'blocking' });
  assert.equal(block.makespan.mean, 25.212461984572084);
  const counts = hp.simulate({ tau: [1, 2], M: 4, service: 'exponential', reps: 7 }).histogram.counts;
  assert.equal(Array.from(counts).reduce((a, b) => a + b), 7);
});

test('issue 22: a seed that is no number says what was given', () => {
  const base = { tau: [1, 2], M: 3, service: 'exponential' };
  // not_a_number, as Python's and as the text "x" (it was not_finite, "must be a finite number (got null)").
  fails(() => hp.simulate({ ...base, seed: null }), { code: 'not_a_number', field: 'seed', message: "seed: 'null' is not a number" });
  fails(() => hp.simulate({ ...base, seed: 5n }), { code: 'not_a_number', field: 'seed', message: "seed: '5n' is not a number" });
  fails(() => hp.simulate({ ...base, seed: NaN }), { code: 'not_finite', field: 'seed', message: 'seed: must be a finite number (got NaN)' });
  // Text is the seed as typed, read as the CLI reads --seed and --reps: "5" is 5, "x" no number.
  assert.deepEqual(plain(hp.simulate({ ...base, seed: '5', reps: '2' })), plain(hp.simulate({ ...base, seed: 5, reps: 2 })));
  fails(() => hp.simulate({ ...base, seed: 'x' }), { code: 'not_a_number', field: 'seed', token: 'x', message: "seed: 'x' is not a number" });
  fails(() => hp.simulate({ ...base, reps: '2.5' }), { code: 'not_integer', field: 'reps', message: 'reps: must be a whole number (got 2.5)' });
});

test('a request or option key simulate does not read is refused by name, never dropped', () => {
  const base = { tau: [1, 2], d: [0.5], M: 4 };
  // A misspelt link_matrix was dropped before, and the run replayed no measured links.
  assert.throws(() => hp.simulate({ ...base, link_matrx: [[1], [1], [1], [1]] }),
    { name: 'TypeError', message: /^simulate: unknown key "link_matrx" \(the keys read: tau, d, M, links,/ });
  assert.throws(() => hp.simulate(base, { onProgress: () => {} }), /^TypeError: simulate: options: unknown key "onProgress"/);
  assert.equal(hp.simulate({ ...base, link_matrix: [[1], [1], [1], [1]] }).deterministic_makespan,
    hp.simulate({ ...base, d: [1] }).deterministic_makespan);
});


test("a list longer than any request holds is refused by its length, before JS copies it", () => {
  // A sparse array of a billion holes (or an array-like that says so) was
  // copied item by item: V8 died of it (an uncatchable fatal error), and ten
  // million took seconds. Each list holds at most max_stages values, tau's limit.
  const max = hp.limits.max_stages;
  const huge = [];
  huge.length = 1e9;
  const base = { tau: [1, 2], M: 2 };
  const good = hp.simulate({ ...base, buffers: [0] });
  for (const field of ['buffers', 'shared', 'service_matrix', 'link_matrix', 'service_samples', 'service_probabilities']) {
    fails(() => hp.simulate({ ...base, [field]: huge }), { code: 'too_many', field, value: 1e9, limit: max });
    fails(() => hp.simulate({ ...base, [field]: { length: 1e9 } }), { code: 'too_many', field, value: 1e9, limit: max });
  }
  // Rows within the limit whose items are not: the items' count, in all.
  const rows = Array.from({ length: 3 }, () => ({ length: 4e6 }));
  fails(() => hp.simulate({ ...base, service_matrix: rows }), { code: 'too_many', field: 'service_matrix', value: 1.2e7, limit: max });
  // The module is as it was: the same request, the same result (5, T_async).
  assert.deepEqual(hp.simulate({ ...base, buffers: [0] }), good);
  assert.equal(good.makespan.mean, 5);
});
