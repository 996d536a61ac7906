// The paper's numbers (docs/model.md) and the closed forms against the exact
// recurrence, through the JS API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hp, close } from './support.mjs';

const round1 = (x) => Math.round(x * 1000) / 10;  // a ratio as a percentage, 1 decimal

test('Section 3.1 worked example: tau = [0.5, 1, 1, 5], no links', () => {
  const one = hp.analyze({ tau: [0.5, 1, 1, 5], M: 1 });
  assert.equal(one.T_free, 7.5);
  assert.equal(one.T_async, 7.5);
  assert.equal(one.T_gpipe, 20);
  assert.equal(round1(one.gpipe_overestimate), 166.7);
  const eight = hp.analyze({ tau: [0.5, 1, 1, 5], M: 8 });
  assert.equal(eight.T_async, 42.5);
  assert.equal(eight.T_gpipe, 55);
  assert.equal(round1(eight.gpipe_overestimate), 29.4);
  assert.equal(eight.homogeneity_bias, 12.5);
  assert.equal(eight.crossover_batches, 2.5);
  assert.equal(hp.makespanGpipe({ tau: [0.5, 1, 1, 5], M: 8 }) - hp.makespanFree({ tau: [0.5, 1, 1, 5], M: 8 }), 12.5);
});

test('Section 7.2: legalone:8b on RTX 5090 / 3090 / 3090', () => {
  const tau = [1.13, 2.9, 2.62];
  assert.ok(close(hp.homogeneityBias({ tau }), 2.05));
  assert.equal(round1(hp.gpipeOverestimate({ tau, M: 1 })), 30.8);
  assert.equal(round1(hp.gpipeOverestimate({ tau, M: 100 })), 0.7);
});

test('Table 1: bias and GPipe overestimate at M = 1 and M = 8', () => {
  const rows = [
    [[1, 1, 1, 1], 0.0, 0.0, 0.0],
    [[0.8, 1, 1, 1.2], 0.8, 20.0, 6.5],
    [[0.5, 1, 1, 2], 3.5, 77.8, 18.9],
    [[0.5, 1, 1, 5], 12.5, 166.7, 29.4],
    [[0.1, 0.2, 0.3, 5], 14.4, 257.1, 35.5],
  ];
  for (const [tau, bias, at1, at8] of rows) {
    assert.ok(close(hp.homogeneityBias({ tau }), bias), `bias of ${tau}`);
    assert.equal(round1(hp.gpipeOverestimate({ tau, M: 1 })), at1, `M=1 of ${tau}`);
    assert.equal(round1(hp.gpipeOverestimate({ tau, M: 8 })), at8, `M=8 of ${tau}`);
  }
});

const appendixB = [
  [[1, 1, 1, 1], [0, 0, 0], false],
  [[0.5, 1, 1, 5], [0, 0, 0], false],
  [[5, 1, 1, 0.5], [0, 0, 0], false],
  [[1, 5, 1, 1], [0, 0, 0], false],
  [[1, 1, 5, 5], [0, 0, 0], false],
  [[0.5, 1, 1, 5], [0.1, 0.1, 0.1], false],
  [[0.5, 1, 1, 5], [4, 0.1, 0.1], false],
  [[0.5, 1, 1, 5], [4.6, 0.1, 0.1], true],
  [[1, 1, 1, 1], [10, 10, 10], true],
  [[0.5, 0.5, 0.5, 0.5], [1, 0.01, 1], true],
  [[0.2, 0.3, 0.5, 0.9, 1.7], [0.1, 0.1, 0.1, 0.9], true],
];

test('Appendix B: the eleven configurations, closed forms = recurrence in both regimes', () => {
  for (const [k, [tau, d, transition]] of appendixB.entries()) {
    assert.equal(hp.phaseTransition({ tau, d }), transition, `config ${k + 1} phase transition`);
    for (const M of [1, 2, 3, 5, 8, 16, 64, 100, 1000]) {
      const async = hp.recurrenceMakespan({ tau, d, M, regime: 'async' });
      const blocking = hp.recurrenceMakespan({ tau, d, M, regime: 'blocking' });
      assert.ok(close(async, hp.makespanAsync({ tau, d, M })), `config ${k + 1} async M=${M}`);
      assert.ok(close(blocking, hp.makespanBlocking({ tau, d, M })), `config ${k + 1} blocking M=${M}`);
      assert.ok(async <= blocking, `config ${k + 1} sandwich M=${M}`);
      const tl = hp.timeline({ tau, d, M, regime: 'blocking' });
      assert.equal(tl.makespan, blocking, `config ${k + 1} timeline = stream M=${M}`);
    }
  }
});

test('configuration 8 crosses the phase transition: the blocking slope includes d[0]', () => {
  const a = hp.analyze({ tau: [0.5, 1, 1, 5], d: [4.6, 0.1, 0.1], M: 10 });
  assert.equal(a.tau_max, 5);
  assert.equal(a.sigma_max, 5.1);
  assert.equal(a.blocking_bottleneck_stage, 0);
  assert.ok(a.overlap_gap > 0 && a.overlap_headroom);
  assert.ok(a.link_margin[0] < 0);
});

test('timeline: the cells follow the recurrence and the layout of the contract', () => {
  const tau = [0.5, 1, 1, 5];
  const d = [0.2, 0.1, 0.3];
  const M = 6;
  const S = 4;
  const t = hp.timeline({ tau, d, M, regime: 'async' });
  assert.equal(t.S, S);
  assert.equal(t.M, M);
  assert.equal(t.regime, 'async');
  assert.ok(t.compute_start instanceof Float64Array);
  assert.equal(t.compute_start.length, M * S);
  assert.equal(t.transfer_start.length, M * (S - 1));
  for (let m = 0; m < M; m++) {
    for (let s = 0; s < S; s++) {
      const c = m * S + s;
      assert.equal(t.compute_finish[c], t.compute_start[c] + tau[s]);
      if (s > 0) assert.ok(t.compute_start[c] >= t.transfer_finish[m * (S - 1) + s - 1]);
      if (m > 0) assert.ok(t.compute_start[c] >= t.compute_finish[c - S]);
      if (s < S - 1) assert.equal(t.transfer_finish[m * (S - 1) + s], t.compute_finish[c] + d[s]);
    }
  }
  assert.equal(t.makespan, t.compute_finish[M * S - 1]);
  // Asynchronous: stage s is busy M tau[s] of the makespan.
  assert.deepEqual(Array.from(t.utilization), tau.map((x) => (M * x) / t.makespan));
  assert.equal(t.makespan, hp.makespanAsync({ tau, d, M }));
});

test('analyze agrees with every single-quantity function and with T_real', () => {
  const input = { tau: [0.2, 0.3, 0.5, 0.9, 1.7], d: [0.1, 0.1, 0.1, 0.9], M: 12, rho: 0.25, T_real: 24 };
  const a = hp.analyze(input);
  assert.equal(a.T_free, hp.makespanFree(input));
  assert.equal(a.T_async, hp.makespanAsync(input));
  assert.equal(a.T_block, hp.makespanBlocking(input));
  assert.equal(a.T_gpipe, hp.makespanGpipe(input));
  assert.equal(a.homogeneity_bias, hp.homogeneityBias(input));
  assert.equal(a.full_bias, hp.fullBias(input));
  assert.equal(a.phase_transition, hp.phaseTransition(input));
  assert.equal(a.overlap_gap, hp.overlapGap(input));
  assert.equal(a.effective_slope, hp.effectiveSlope(input));
  assert.equal(a.asymptotic_throughput_async, hp.asymptoticThroughputAsync(input));
  assert.equal(a.asymptotic_throughput_blocking, hp.asymptoticThroughputBlocking(input));
  assert.equal(a.crossover_batches, hp.crossoverBatches(input));
  assert.equal(a.gpipe_overestimate, hp.gpipeOverestimate(input));
  assert.equal(a.overlap_ratio, hp.overlapRatio(input));
  // T_async = 4.8 + 11 * 1.7 = 23.5, T_block = 4.8 + 11 * 1.8 = 24.6
  assert.ok(close(a.T_async, 23.5) && close(a.T_block, 24.6));
  assert.ok(close(a.overlap_ratio, 0.6 / 1.1));
  assert.equal(a.T_real, 24);
  assert.equal(a.T_real_position, 'inside');
  assert.ok(close(a.effective_slope, 1.775));
  assert.equal(hp.analyze({ ...input, T_real: 1 }).T_real_position, 'below_async');
  assert.equal(hp.analyze({ ...input, T_real: 1000 }).T_real_position, 'above_block');
  // No headroom (no links): the ratio is absent, the position still reported.
  const flat = hp.analyze({ tau: [1, 2], M: 4, T_real: 9 });  // T_async = T_block = 9
  assert.equal(flat.overlap_headroom, false);
  assert.equal('overlap_ratio' in flat, false);
  assert.equal(hp.overlapRatio({ tau: [1, 2], M: 4, T_real: 9 }), null);
  assert.equal(flat.T_real_position, 'inside');
  assert.equal('T_real' in hp.analyze({ tau: [1, 2] }), false);
});

test('analyze returns plain objects; Float64Array in gives Float64Arrays out', () => {
  const plain = hp.analyze({ tau: [1, 2, 3], d: [0.5, 0.5] });
  assert.equal(Object.getPrototypeOf(plain), Object.prototype);
  assert.ok(Array.isArray(plain.tau) && Array.isArray(plain.sigma) && Array.isArray(plain.link_margin));
  assert.deepEqual(plain.sigma, [1.5, 2.5, 3]);
  assert.equal(plain.M, 8);
  assert.equal(plain.rho, 1);
  const typed = hp.analyze({ tau: new Float64Array([1, 2, 3]), d: new Float64Array([0.5, 0.5]) });
  assert.ok(typed.sigma instanceof Float64Array);
  assert.deepEqual(Array.from(typed.sigma), plain.sigma);
  assert.deepEqual({ ...typed, tau: plain.tau, d: plain.d, sigma: plain.sigma, link_slack: plain.link_slack,
    link_margin: plain.link_margin }, plain);
});

test('curves: batches include 1, M and ceil(M*); the series are the closed forms', () => {
  const tau = [0.5, 1, 1, 5];
  const batches = hp.curveBatches({ tau, M: 40, points: 12 });
  assert.ok(Array.isArray(batches));
  assert.equal(batches[0], 1);
  assert.ok(batches.includes(40) && batches.includes(3));
  assert.ok(batches.every((x, k) => k === 0 || x > batches[k - 1]));
  const c = hp.makespanCurve({ tau, batches });
  assert.deepEqual(Array.from(c.M), batches);
  batches.forEach((M, k) => {
    assert.equal(c.T_free[k], hp.makespanFree({ tau, M }));
    assert.equal(c.T_async[k], hp.makespanAsync({ tau, M }));
    assert.equal(c.T_block[k], hp.makespanBlocking({ tau, M }));
    assert.equal(c.T_gpipe[k], hp.makespanGpipe({ tau, M }));
    assert.equal(c.gpipe_overestimate[k], hp.gpipeOverestimate({ tau, M }));
  });
  // points follows the CLI's --curve: a whole number in [2, 10,000], refused otherwise, never clamped.
  assert.equal(hp.curveBatches({ tau, M: 8, points: hp.limits.max_curve_points }).length <= hp.limits.max_curve_points, true);
  for (const [points, code, message] of [
    [1e9, 'out_of_range', 'points: must be between 2 and 10,000 (got 1e+09)'],
    [1, 'out_of_range', 'points: must be between 2 and 10,000 (got 1)'],
    [12.5, 'not_integer', 'points: must be a whole number (got 12.5)'],
    // A value that is no number is refused as M's is, with its code, never a TypeError.
    ['many', 'not_a_number', 'points: \'"many"\' is not a number'],
    [null, 'not_a_number', "points: 'null' is not a number"],
    [NaN, 'not_finite', 'points: must be a finite number (got NaN)']]) {
    assert.throws(() => hp.curveBatches({ tau, M: 8, points }), (e) => e.code === code && e.field === 'points' &&
      e.message === message);
  }
});

test('the shared parser: separators of every kind, values exact', () => {
  assert.deepEqual(hp.parseList('0.5, 1 1;5', 'tau'), [0.5, 1, 1, 5]);
  assert.deepEqual(hp.parseList('1\uFF0C2\u30013\uFF1B4,', 'd'), [1, 2, 3, 4]);
  assert.deepEqual(hp.parseList('  ', 'tau'), []);
  assert.deepEqual(hp.parseList('1e-3,-0', 'tau'), [0.001, 0]);
  assert.equal(hp.parseNumber(' 16 ', 'M'), 16);
  assert.equal(hp.parseNumber('0.1', 'rho'), 0.1);
});

test('version and limits come from the core', () => {
  assert.equal(hp.version, '0.1.0');
  assert.deepEqual({ ...hp.limits }, {
    max_stages: 1e7, max_value: 1e15, min_stage_time: 1e-15, min_batches: 1, max_batches: 2 ** 53, min_rho: 0,
    max_rho: 1, max_timeline_cells: 2e6, stream_diagonal_cost: 32, max_stream_work: 4e9, max_text_bytes: 2 ** 27,
    min_curve_points: 2, max_curve_points: 1e4, max_plan_devices: 256, max_plan_layers: 4096,
    max_order_search_devices: 6, max_order_search_work: 2 ** 20, max_estimate_tokens: 2 ** 20,
    max_estimate_context: 2 ** 24, max_what_if_devices: 16,
    max_reps: 1e6, max_sim_cells: 1e9, max_buffer: 1e6, max_buffer_history: 2 ** 22, max_queued_transfers: 2 ** 22, max_cv: 4, min_cv: 1e-9, max_spread: 1, max_service_samples: 1e6,
    max_trace_bytes: 2 ** 29, max_trace_events: 5e6, max_trace_ranks: 4096, max_trace_time: 1e17, max_trace_depth: 64,
    max_range_names: 5, max_range_name_bytes: 80,
    max_gguf_header_bytes: 2 ** 28, max_gguf_keys: 65536, max_gguf_tensors: 2 ** 20, max_gguf_string_bytes: 2 ** 24,
    max_gguf_array_items: 2 ** 26, max_gguf_dims: 4, max_calibration_records: 1024, max_gpu_info_bytes: 1024,
    max_model_count: 2 ** 53, min_normal_number: 2.2250738585072014e-308,
  });
  assert.ok(Object.isFrozen(hp.limits));
});

test('the factory is cached: one promise, one frozen API object', async () => {
  const { load } = await import('./support.mjs');
  assert.equal(load(), load());
  assert.equal(await load(), hp);
  assert.ok(Object.isFrozen(hp));
});

test('a big pipeline: S = 1e6 through Float64Array, exact against the recurrence', () => {
  const S = 1e6;
  const tau = new Float64Array(S);
  const d = new Float64Array(S - 1);
  for (let s = 0; s < S; s++) tau[s] = 1 + (s % 7) / 8;
  for (let s = 0; s < S - 1; s++) d[s] = (s % 5) / 16;
  const a = hp.analyze({ tau, d, M: 3 });
  assert.equal(a.S, S);
  assert.equal(a.sigma.length, S);
  assert.equal(a.tau_max, 1.75);
  const stream = hp.recurrenceMakespan({ tau, d, M: 3, regime: 'async' });
  assert.ok(close(stream, a.T_async));
});

test('analyze with lists: false gives the same scalars without the per-stage lists', () => {
  const lists = ['tau', 'd', 'sigma', 'link_slack', 'link_margin'];
  for (const tau of [[0.5, 1, 1, 5], new Float64Array([0.5, 1, 1, 5])]) {
    const input = { tau, d: [0.2, 0.1, 0.3], M: 16, rho: 0.8, T_real: 90 };
    const full = hp.analyze(input);
    const scalars = hp.analyze(input, { lists: false });
    const expected = Object.fromEntries(Object.entries(full).filter(([name]) => !lists.includes(name)));
    assert.deepEqual(scalars, expected);
    assert.equal(scalars.T_async, 83.1);
    assert.deepEqual(Object.keys(scalars), Object.keys(expected));  // same order as the full analysis
  }
  // Lists from the caller's own Float64Arrays are copies, not the caller's arrays.
  const tau = new Float64Array([0.5, 1, 1, 5]);
  const d = new Float64Array([0.2, 0.1, 0.3]);
  const a = hp.analyze({ tau, d });
  assert.notEqual(a.tau, tau);
  assert.deepEqual(a.tau, tau);
  assert.deepEqual(a.d, d);
  assert.deepEqual(a.sigma, new Float64Array([0.7, 1.1, 1.3, 5]));
  assert.deepEqual(hp.analyze({ tau }, { lists: true }).d, new Float64Array(3));
  assert.throws(() => hp.analyze({ tau }, { lists: 'no' }), TypeError);
  assert.throws(() => hp.analyze({ tau }, 'fast'), TypeError);
});
