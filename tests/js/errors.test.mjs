// Bad input from JS: every error code the API can raise, its English message,
// and non-numbers where numbers belong (they reach C++ as NaN and are refused
// there, naming the item).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hp, load, fails } from './support.mjs';

const { HeteropipeError } = load;


test('every error code reachable from JS, with field, index, value and message', () => {
  const cases = [
    [() => hp.analyze({ tau: [] }), { code: 'empty', field: 'tau', index: null, message: 'tau: needs at least one value' }],
    [() => hp.parseNumber('  ', 'M'), { code: 'empty', field: 'M', index: null, message: 'M: is empty' }],
    [() => hp.analyze({ tau: new Float64Array(1e7 + 1) }),
      { code: 'too_many', field: 'tau', value: 1e7 + 1, limit: 1e7, message: 'tau: at most 10,000,000 values' }],
    [() => hp.makespanCurve({ tau: [1], batches: new Float64Array(10001).fill(1) }),
      { code: 'too_many', field: 'M', limit: 1e4, message: 'M: at most 10,000 values' }],
    [() => hp.analyze({ tau: [1, NaN] }),
      { code: 'not_finite', field: 'tau', index: 1, message: 'tau, item 2: must be a finite number (got NaN)' }],
    [() => hp.analyze({ tau: [1], T_real: -Infinity }),
      { code: 'not_finite', field: 'T_real', message: 'T_real: must be a finite number (got -Infinity)' }],
    [() => hp.analyze({ tau: [1, -2] }),
      { code: 'negative', field: 'tau', index: 1, value: -2, message: 'tau, item 2: must be >= 0 (got -2)' }],
    [() => hp.analyze({ tau: [1, 2, 3], d: [0, -0.5] }),
      { code: 'negative', field: 'd', index: 1, message: 'd, item 2: must be >= 0 (got -0.5)' }],
    [() => hp.analyze({ tau: [0, 0, 0] }),
      { code: 'all_zero', field: 'tau', message: 'tau: at least one stage time must be > 0' }],
    [() => hp.analyze({ tau: [1e-300, 0] }),
      { code: 'too_small', field: 'tau', index: null, value: 1e-300,
        message: 'tau: the largest stage time must be at least 1e-15 (got 1e-300)' }],
    // A subnormal is refused as read, as the same number typed (tests/js/number-forms.test.mjs).
    [() => hp.analyze({ tau: [5e-324, 0] }),
      { code: 'too_small', field: 'tau', index: 0, value: 5e-324, limit: 2.2250738585072014e-308,
        message: 'tau, item 1: is too small to read (got 5e-324): a number other than 0 must be at least '
          + '2.2250738585072014e-308 in size' }],
    [() => hp.analyze({ tau: [1, 2e15] }),
      { code: 'too_large', field: 'tau', index: 1, limit: 1e15, message: 'tau, item 2: must be at most 1e15 (got 2e+15)' }],
    [() => hp.parseList('1, 1e400', 'tau'),
      { code: 'too_large', index: 1, token: '1e400', message: 'tau, item 2: must be at most 1e15 (got 1e400)' }],
    [() => hp.parseNumber('1e999', 'M'), { code: 'out_of_range', limit: 2 ** 53, message: 'M: must be between 1 and 2^53 (got 1e999)' }],
    [() => hp.analyze({ tau: [1, 2, 3], d: [1] }),
      { code: 'wrong_length', field: 'd', index: null, value: 1, limit: 2,
        message: 'd: needs S-1 = 2 link latencies, one per link, or none (got 1)' }],
    [() => hp.analyze({ tau: [1], M: 2.5 }),
      { code: 'not_integer', field: 'M', value: 2.5, message: 'M: must be a whole number (got 2.5)' }],
    [() => hp.analyze({ tau: [1], M: 0 }),
      { code: 'out_of_range', field: 'M', message: 'M: must be between 1 and 2^53 (got 0)' }],
    [() => hp.makespanAsync({ tau: [1], M: 2 ** 54 }), { code: 'out_of_range', field: 'M' }],
    [() => hp.analyze({ tau: [1], rho: 1.5 }),
      { code: 'out_of_range', field: 'rho', message: 'rho: must be between 0 and 1 (got 1.5)' }],
    [() => hp.effectiveSlope({ tau: [1], rho: -0.1 }), { code: 'out_of_range', field: 'rho' }],
    [() => hp.analyze({ tau: [1], T_real: 0 }),
      { code: 'not_positive', field: 'T_real', message: 'T_real: must be > 0 (got 0)' }],
    [() => hp.overlapRatio({ tau: [1, 1], d: [1], M: 2, T_real: -3 }), { code: 'not_positive', value: -3 }],
    [() => hp.analyze({ tau: [1], T_real: 1e16 }), { code: 'too_large', field: 'T_real' }],
    [() => hp.parseList('1,,2', 'd'),
      { code: 'empty_item', field: 'd', index: 1, message: 'd, item 2: empty item between separators' }],
    [() => hp.parseList('1, abc', 'tau'),
      { code: 'not_a_number', index: 1, token: 'abc', message: "tau, item 2: 'abc' is not a number" }],
    [() => hp.parseNumber('0x10', 'rho'), { code: 'not_a_number', field: 'rho', message: "rho: '0x10' is not a number" }],
    [() => hp.timeline({ tau: [1, 2, 3, 4], M: 600000 }),
      { code: 'too_many_cells', field: 'M', value: 2400000, limit: 2e6,
        message: 'M: M x S = 2,400,000 cells is over the limit of 2,000,000' }],
    [() => hp.recurrenceMakespan({ tau: [1, 2], M: 6e9, regime: 'blocking' }),
      { code: 'too_much_work', value: 12e9 + 32 * (6e9 + 1), limit: 4e9,
        message: 'M: M x S + 32 (M + S - 1) = 204,000,000,032 recurrence steps is over the limit of 4,000,000,000' }],
  ];
  const codes = new Set();
  for (const [call, expected] of cases) codes.add(fails(call, expected).code);
  // no_overlap_headroom is the one code JS never raises: overlapRatio answers
  // null instead, and analyze leaves overlap_ratio out (see model.test.mjs).
  assert.deepEqual([...codes].sort(), ['all_zero', 'empty', 'empty_item', 'negative', 'not_a_number', 'not_finite',
    'not_integer', 'not_positive', 'out_of_range', 'too_large', 'too_many', 'too_many_cells', 'too_much_work',
    'too_small', 'wrong_length']);
});

test('strings, null, objects, booleans and bigints where numbers belong are not_a_number, as in Python', () => {
  // A value that is no number at all is not_a_number (Python's code for the same value); a number
  // that is not finite (NaN, Infinity) stays not_finite.
  fails(() => hp.analyze({ tau: [0.5, '1', 1] }),
    { code: 'not_a_number', field: 'tau', index: 1, token: '"1"', value: 0, message: 'tau, item 2: \'"1"\' is not a number' });
  fails(() => hp.analyze({ tau: [1, 2], d: [null] }),
    { code: 'not_a_number', field: 'd', index: 0, token: 'null', message: "d, item 1: 'null' is not a number" });
  fails(() => hp.analyze({ tau: [1, {}] }), { code: 'not_a_number', index: 1, token: 'an object' });
  fails(() => hp.analyze({ tau: [true] }), { code: 'not_a_number', index: 0, token: 'true', message: "tau, item 1: 'true' is not a number" });
  fails(() => hp.analyze({ tau: [1, 5n] }), { code: 'not_a_number', field: 'tau', index: 1, token: '5n' });
  fails(() => hp.analyze({ tau: new BigInt64Array([1n]) }), { code: 'not_a_number', index: 0, token: '1n' });
  fails(() => hp.analyze({ tau: [1], M: '8' }), { code: 'not_a_number', field: 'M', index: null, message: 'M: \'"8"\' is not a number' });
  fails(() => hp.analyze({ tau: [1], M: null }), { code: 'not_a_number', field: 'M', token: 'null' });
  fails(() => hp.analyze({ tau: [1], M: true }), { code: 'not_a_number', field: 'M', token: 'true' });
  fails(() => hp.analyze({ tau: [1], M: 8n }), { code: 'not_a_number', field: 'M', token: '8n', message: "M: '8n' is not a number" });
  fails(() => hp.analyze({ tau: [1], rho: {} }), { code: 'not_a_number', field: 'rho', token: 'an object' });
  fails(() => hp.analyze({ tau: [1], T_real: 'x' }), { code: 'not_a_number', field: 'T_real', token: '"x"' });
  fails(() => hp.makespanAsync({ tau: [1], M: [8] }), { code: 'not_a_number', field: 'M', token: 'an array' });
  fails(() => hp.timeline({ tau: [1], M: NaN }), { code: 'not_finite', field: 'M', token: 'NaN' });
  fails(() => hp.analyze({ tau: [1, Infinity] }),
    { code: 'not_finite', field: 'tau', index: 1, token: 'Infinity', message: 'tau, item 2: must be a finite number (got Infinity)' });
  fails(() => hp.makespanCurve({ tau: [1], batches: [1, 'two'] }), { code: 'not_a_number', field: 'M', index: 1, token: '"two"' });
  fails(() => hp.makespanCurve({ tau: [1], batches: [1, 2.5] }), { code: 'not_integer', field: 'M', index: 1 });
  // A lone value stands for a list of one; text is not parsed implicitly.
  fails(() => hp.analyze({ tau: '0.5, 1' }), { code: 'not_a_number', index: 0, token: '"0.5, 1"' });
  assert.equal(hp.analyze({ tau: 5 }).S, 1);
  fails(() => hp.analyze(undefined), { code: 'empty', field: 'tau' });
  fails(() => hp.analyze({ tau: { length: 1e12 } }), { code: 'too_many', value: 1e12 });
  // Holes and array-likes.
  fails(() => hp.analyze({ tau: [1, , 3] }), { code: 'not_a_number', index: 1, token: 'undefined' }); // eslint-disable-line no-sparse-arrays
  assert.equal(hp.analyze({ tau: { length: 2, 0: 1, 1: 3 } }).tau_max, 3);
});

test('check reports every bad field at once and never throws', () => {
  const errors = hp.check({ tau: [1, -1], d: [1, 2, 3], M: 0, rho: NaN, T_real: -1 });
  assert.deepEqual(errors.map((e) => [e.code, e.field, e.index]), [
    ['negative', 'tau', 1], ['wrong_length', 'd', null], ['out_of_range', 'M', null],
    ['not_finite', 'rho', null], ['not_positive', 'T_real', null],
  ]);
  assert.deepEqual(errors.map((e) => e.message), [
    'tau, item 2: must be >= 0 (got -1)',
    'd: needs S-1 = 1 link latencies, one per link, or none (got 3)',
    'M: must be between 1 and 2^53 (got 0)',
    'rho: must be a finite number (got NaN)',
    'T_real: must be > 0 (got -1)',
  ]);
  assert.deepEqual(hp.check({ tau: [1, 2], d: [0.5] }), []);
  for (const weird of [undefined, null, {}, { tau: 'x' }, { tau: { length: 1e9 }, d: { length: 1e9 } }, { M: {} }]) {
    const list = hp.check(weird);
    assert.ok(Array.isArray(list) && list.length > 0);
    for (const e of list) assert.equal(typeof e.message, 'string');
  }
  const huge = hp.check({ tau: { length: 1e9 }, d: { length: 1e9 }, M: 3 });
  assert.deepEqual(huge.map((e) => [e.code, e.field]), [['too_many', 'tau'], ['too_many', 'd']]);
});

test('programming errors (bad regime, field, text type) throw TypeError', () => {
  assert.throws(() => hp.timeline({ tau: [1], M: 2, regime: 'sideways' }), TypeError);
  assert.throws(() => hp.recurrenceMakespan({ tau: [1], M: 2, regime: 3 }), TypeError);
  assert.throws(() => hp.parseList(5, 'tau'), TypeError);
  assert.throws(() => hp.parseList('1', 'M'), TypeError);
  assert.throws(() => hp.parseNumber('1', 'x'), TypeError);
  assert.equal(hp.timeline({ tau: [1], M: 2 }).regime, 'async');
  // A regime is a name, read without the blanks around it as every name is (simulate's links too).
  assert.equal(hp.timeline({ tau: [1, 2], d: [3], M: 2, regime: ' blocking\t' }).regime, 'blocking');
  assert.equal(hp.recurrenceMakespan({ tau: [1, 2], d: [3], M: 2, regime: '\u3000blocking ' }),
    hp.recurrenceMakespan({ tau: [1, 2], d: [3], M: 2, regime: 'blocking' }));
});

test('the regimes are async and blocking; the former asynchronous and block still read as them', () => {
  const r = { tau: [1, 3], d: [2], M: 4 };
  for (const [written, regime] of [['async', 'async'], ['asynchronous', 'async'], ['blocking', 'blocking'], ['block', 'blocking']]) {
    const t = hp.timeline({ ...r, regime: written });
    assert.equal(t.regime, regime, written);
    assert.equal(t.makespan, regime === 'async' ? hp.makespanAsync(r) : hp.makespanBlocking(r), written);
    assert.equal(hp.recurrenceMakespan({ ...r, regime: written }), t.makespan, written);
  }
});

test('the module keeps working after errors', () => {
  for (let k = 0; k < 1000; k++) {
    assert.throws(() => hp.analyze({ tau: [1, 'x'] }), HeteropipeError);
  }
  assert.equal(hp.makespanAsync({ tau: [0.5, 1, 1, 5], M: 8 }), 42.5);
});

test('a key no calculator call reads is refused by name, never run with its default', () => {
  // { tau, m: 100 } ran with M = 8 before: 2 + 8 * 2 - 2 = 17 instead of 201.
  const read = 'the keys read: tau, d, M, rho, T_real, regime, points, batches';
  assert.throws(() => hp.makespanAsync({ tau: [1, 2], m: 100 }),
    { name: 'TypeError', message: `makespanAsync: unknown key "m" (${read})` });
  assert.equal(hp.makespanAsync({ tau: [1, 2], M: 100 }), 201);
  // The calls share one request type: each takes any of its keys, so one request may go to every call,
  // and gives what it gives for the keys it reads alone.
  const request = { tau: [1, 2], d: [0.5], M: 4, rho: 0.5, T_real: 12, regime: 'blocking', points: 8, batches: [1, 4] };
  const reads = {
    analyze: ['M', 'rho', 'T_real'], check: ['M', 'rho', 'T_real'], makespanFree: ['M'], makespanAsync: ['M'],
    makespanBlocking: ['M'], makespanGpipe: ['M'], overlapGap: ['M'], gpipeOverestimate: ['M'], homogeneityBias: [],
    fullBias: [], phaseTransition: [], asymptoticThroughputAsync: [], asymptoticThroughputBlocking: [],
    crossoverBatches: [], effectiveSlope: ['rho'], overlapRatio: ['M', 'T_real'], recurrenceMakespan: ['M', 'regime'],
    timeline: ['M', 'regime'], curveBatches: ['M', 'points'], makespanCurve: ['batches'],
  };
  const { tau, d, M } = request;
  for (const [name, keys] of Object.entries(reads)) {
    const own = Object.fromEntries(['tau', 'd', ...keys].map((key) => [key, request[key]]));
    assert.deepEqual(hp[name](request), hp[name](own), name);
    for (const stray of ['m', 'Tau', 't_real', 'links']) {
      assert.throws(() => hp[name]({ tau, d, M, [stray]: 1 }),
        { name: 'TypeError', message: `${name}: unknown key "${stray}" (${read})` }, name);
    }
  }
  assert.equal(hp.analyze(request).T_async, hp.makespanAsync({ tau: [1, 2], d: [0.5], M: 4 }));
  // readRequest reads the typed fields by the same rule.
  assert.throws(() => hp.readRequest({ tau: '1, 2', m: '100' }),
    { name: 'TypeError', message: 'readRequest: unknown key "m" (the keys read: tau, d, M, rho, T_real)' });
});

test('a time typed with its unit is has_unit at its number, not the unit named as an item', () => {
  fails(() => hp.parseList('12 ms, 3 ms', 'tau'), { code: 'has_unit', field: 'tau', index: 0, token: '12 ms' });
  fails(() => hp.parseList('1 2ms', 'd'), { code: 'has_unit', field: 'd', index: 1, token: '2ms' });
  const read = hp.readRequest({ tau: '1, 2', T_real: '40 ms' });
  assert.deepEqual(read.errors.map((e) => [e.code, e.field, e.token]), [['has_unit', 'T_real', '40 ms']]);
  assert.equal(read.errors[0].message, "T_real: '40 ms' has a unit: type plain numbers, every time in the same unit");
});

test('a comma between digits that may be a decimal mark is ambiguous_comma, never a silent separator', () => {
  // '0,5 1 1 5' read as 5 stages [0, 5, 1, 1, 5]; '1,000.5, 2' as [1, 0.5, 2].
  fails(() => hp.parseList('0,5 1 1 5', 'tau'), { code: 'ambiguous_comma', field: 'tau', index: 0, token: '0,5' });
  fails(() => hp.parseList('1,000.5, 2', 'd'), { code: 'ambiguous_comma', field: 'd', index: 0, token: '1,000.5' });
  const read = hp.readRequest({ tau: '0,5; 1; 1; 5' });
  assert.deepEqual(read.errors.map((e) => [e.code, e.index, e.token]), [['ambiguous_comma', 0, '0,5']]);
  assert.match(read.errors[0].message, /^tau, item 1: '0,5' is ambiguous: a comma between digits/);
  // Bare commas are a list, as ever.
  assert.deepEqual(hp.parseList('0.5,1,1,5', 'tau'), [0.5, 1, 1, 5]);
});
