import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hp } from './support.mjs';

// The core's number rules (docs/cli.md), the same table as tests/python/test_number_forms.py: every
// interface reads typed text by the one parser, so the module agrees with the CLI and Python.
const NUMBER_FORMS = [
  ['+5', 5], ['.5', 0.5], ['5.', 5], ['\u00a05\u00a0', 5], ['\uff15', 5], ['+.5e+1', 5], ['\uff11\uff45\uff13', 1000],
  ['-0', 0], ['0e-400', 0], ['0x10', 'not_a_number'], ['1_000', 'not_a_number'], ['5e', 'not_a_number'],
  ['.', 'not_a_number'], ['inf', 'not_a_number'], ['nan', 'not_a_number'], ['1,000', 'not_a_number'],
  ['1e-400', 'too_small'], ['-1e-310', 'too_small'], ['1e400', 'too_large'],
];

test('number forms: signs, dots, blanks, full-width digits read; hex, underscores, a lone e refused', () => {
  for (const [typed, expected] of NUMBER_FORMS) {
    if (typeof expected === 'number') {
      assert.equal(hp.parseNumber(typed, 'T_real'), expected, typed);
    } else {
      assert.throws(() => hp.parseNumber(typed, 'T_real'), { code: expected, field: 'T_real', token: typed }, typed);
    }
  }
});

// A subnormal given as a number, not typed, is the error the same number typed as text gets (too_small, limit
// min_normal_number), as tests/python/test_number_forms.py's SubnormalFloats: {tau: [5e-324]} said "the largest
// stage time must be at least 1e-15", and [1, 5e-324], d: [5e-324], rho: 5e-324 and T_real: 5e-324 were read.
test('number forms: a subnormal number in tau, d, rho or T_real is too_small, as typed text is', () => {
  const tiny = 5e-324;
  const largestSubnormal = hp.limits.min_normal_number - tiny;
  assert.equal(largestSubnormal, 2.225073858507201e-308);
  // The same numbers typed as text, read by readRequest: the message each number must give.
  const typed = hp.readRequest({ tau: '1, 5e-324', d: '-5e-324', rho: '5e-324' }).errors;
  const asTyped = (field) => typed.find((e) => e.field === field).message;
  const cases = [
    [() => hp.analyze({ tau: [tiny] }), 'tau', 0, 'tau, item 1: ' + asTyped('tau').slice('tau, item 2: '.length)],
    [() => hp.analyze({ tau: [1, tiny] }), 'tau', 1, asTyped('tau')],
    [() => hp.analyze({ tau: new Float64Array([1, largestSubnormal]) }), 'tau', 1, null],
    [() => hp.analyze({ tau: [1, 1], d: [-tiny] }), 'd', 0, asTyped('d')],
    [() => hp.analyze({ tau: [1, 1], rho: tiny }), 'rho', null, asTyped('rho')],
    [() => hp.analyze({ tau: [1, 1], T_real: -tiny }), 'T_real', null, null],
    [() => hp.overlapRatio({ tau: [1, 1], M: 4, T_real: tiny }), 'T_real', null, null],
  ];
  for (const [call, field, index, message] of cases) {
    let error = null;
    try { call(); } catch (e) { error = e; }
    assert.ok(error, `${field} ${index}`);
    assert.equal(error.code, 'too_small');
    assert.equal(error.field, field);
    assert.equal(error.index, index);
    assert.equal(error.limit, hp.limits.min_normal_number);
    if (message) assert.equal(error.message, message);
  }
  // 0, -0 and the smallest normal double are read.
  assert.deepEqual([...hp.analyze({ tau: [1, 0, -0, hp.limits.min_normal_number] }).tau],
    [1, 0, 0, hp.limits.min_normal_number]);
});

// The simulator's lists name a subnormal where the CLI's CSV and options name it: a matrix's row and column, a
// stage's samples, a shared group (a matrix of [[1, 5e-324], [1, 1]] was simulated with that service time).
test('number forms: a subnormal in a simulator matrix, samples, group or list is too_small at its place', () => {
  const cases = [
    [{ tau: [1, 1], M: 2, service_matrix: [[1, 1], [1, 5e-324]] }, 'service_matrix', 1, 1,
      'service_matrix, row 2, column 2: '],
    [{ tau: [1, 1], M: 2, link_matrix: [[1], [-5e-324]] }, 'link_matrix', 1, 0, 'link_matrix, row 2, column 1: '],
    [{ tau: [1, 1], M: 2, service_samples: [[1, 2], [1, 5e-324]] }, 'service_samples', 1, null,
      'service_samples, stage 2: '],
    [{ tau: [1, 1, 1], M: 2, shared: [[0, 5e-324]] }, 'shared', 0, null, 'shared, group 1: '],
    [{ tau: [1, 1], M: 2, buffers: [5e-324] }, 'buffers', 0, null, 'buffers, link 1: '],
  ];
  for (const [request, field, index, column, where] of cases) {
    let error = null;
    try { hp.simulate(request); } catch (e) { error = e; }
    assert.ok(error, field);
    assert.equal(error.code, 'too_small', field);
    assert.equal(error.field, field);
    assert.equal(error.index, index, field);
    assert.equal(error.column ?? null, column, field);
    assert.equal(error.limit, hp.limits.min_normal_number);
    assert.ok(error.message.startsWith(where + 'is too small to read (got '), error.message);
  }
});
