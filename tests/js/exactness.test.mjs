// Exactness at the edges through the module: the core decides each case, so the module agrees with the
// CLI and the pages (the same cases are CLI goldens and page tests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hp, load } from './support.mjs';

function errorsOf(text) { return hp.readRequest(text).errors.map((e) => [e.field, e.code, e.message]); }

test('M is judged from its digits: past 2^53 or not whole is refused, as typed', () => {
  assert.deepEqual(errorsOf({ tau: '1', M: '9007199254740993' }),
    [['M', 'out_of_range', 'M: must be between 1 and 2^53 (got 9007199254740993)']]);
  assert.deepEqual(errorsOf({ tau: '1', M: '9007199254740992.5' }),
    [['M', 'not_integer', 'M: must be a whole number (got 9007199254740992.5)']]);
  assert.deepEqual(errorsOf({ tau: '1', M: '0.99999999999999999' }),
    [['M', 'not_integer', 'M: must be a whole number (got 0.99999999999999999)']]);
  assert.equal(hp.readRequest({ tau: '1', M: '9007199254740992' }).request.M, 2 ** 53);
  assert.equal(hp.readRequest({ tau: '1', M: '2.5e1' }).request.M, 25);
  // The numeric API agrees: 2^53 + 2 is the first double past the limit.
  assert.throws(() => hp.analyze({ tau: [1], M: 2 ** 53 + 2 }), (e) => e instanceof load.HeteropipeError &&
    e.code === 'out_of_range' && e.limit === 2 ** 53);
});

test('the ratio, the headroom and the position follow from the reported makespans', () => {
  const a = hp.analyze({ tau: [1, 1e13], d: [9999999999999.002], M: 2, T_real: 3e13 });
  assert.equal(a.overlap_headroom, a.T_block > a.T_async);
  assert.equal(a.overlap_ratio, undefined);
  assert.equal(a.T_real_position, a.T_real < a.T_async ? 'below_async' : a.T_real > a.T_block ? 'above_block' : 'inside');
  const b = hp.analyze({ tau: [0.1, 0.2], d: [0.2], M: 2, T_real: 0.7 });
  assert.equal(b.T_real_position, 'inside');
  assert.ok(b.overlap_ratio >= 0 && b.overlap_ratio <= 1, String(b.overlap_ratio));
});

test('T_gpipe at M = 2^53 is never below T_free', () => {
  const a = hp.analyze({ tau: [1], M: 2 ** 53 });
  assert.ok(a.T_gpipe >= a.T_free);
  assert.ok(a.gpipe_overestimate >= 0);
});

test('every two-decimal boundary up to 1.00: latency equal to the slack as typed is no phase transition', () => {
  const typed = (h) => (h / 100).toFixed(2);
  let cases = 0;
  for (let a = 1; a < 100; a++) {
    for (let c = a + 1; c <= 100; c++) {
      const { request } = hp.readRequest({ tau: typed(a) + ',' + typed(c), d: typed(c - a) });
      const r = hp.analyze(request);
      assert.equal(r.phase_transition, false, `${a} ${c}`);
      assert.deepEqual(Array.from(r.link_margin), [0]);
      assert.equal(r.full_bias, 0);
      assert.equal(r.T_block, r.T_async);
      assert.equal(r.overlap_headroom, false);
      cases++;
    }
  }
  assert.equal(cases, 4950);
});

test('-0 is 0 in every list and in rho', () => {
  const a = hp.analyze({ tau: [-0, 1], d: [-0], rho: -0 });
  for (const x of [a.tau[0], a.d[0], a.sigma[0], a.rho]) assert.ok(Object.is(x, 0));
});

test('numbers as typed: Unicode blanks trimmed on both sides, full-width digits, the token quoted safely', () => {
  assert.deepEqual(hp.readRequest({ tau: '1', M: '8\u3000', rho: '\u30000.5\u3000', T_real: ' 9\u000b' }).errors, []);
  const wide = hp.readRequest({ tau: '\uff11.\uff11\uff13\uff0c\uff12.\uff19\uff10', M: '\uff11\uff10\uff10' }).request;
  assert.deepEqual([wide.tau, wide.M], [[1.13, 2.9], 100]);
  // A number other than 0 below the smallest normal double is too small to read, not the 0 it would read as.
  assert.deepEqual(errorsOf({ tau: '1', T_real: '1e-400' }), [['T_real', 'too_small',
    'T_real: is too small to read (got 1e-400): a number other than 0 must be at least 2.2250738585072014e-308 in size']]);
  assert.deepEqual(errorsOf({ tau: '1,1e-310', rho: '-1e-400' }).map((e) => e.slice(0, 2)), [['tau', 'too_small'], ['rho', 'too_small']]);
  assert.deepEqual(errorsOf({ tau: '1,0e-400', rho: '0.0e-999' }), []);
  assert.deepEqual(errorsOf({ tau: '1', rho: '0.5\r\nerror: fake' }),
    [['rho', 'not_a_number', "rho: '0.5\\u000d\\u000aerror: fake' is not a number"]]);
  const long = errorsOf({ tau: '1,' + '7'.repeat(131072) + 'x' })[0][2];
  assert.equal(long, "tau, item 2: '" + '7'.repeat(80) + "\u2026' is not a number");
});

test('the recurrence is bounded by its work, diagonals counted: one stage and 1e9 micro-batches is refused', () => {
  assert.throws(() => hp.recurrenceMakespan({ tau: [1], M: 1e9 }), (e) => e instanceof load.HeteropipeError &&
    e.code === 'too_much_work' && e.limit === hp.limits.max_stream_work &&
    e.message === 'M: M x S + 32 (M + S - 1) = 33,000,000,000 recurrence steps is over the limit of 4,000,000,000');
  assert.equal(hp.recurrenceMakespan({ tau: [1, 2], M: 1000 }), hp.makespanAsync({ tau: [1, 2], M: 1000 }));
});
