// readRequest: typed text read as the core reads it (the pages use it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hp } from './support.mjs';

test('valid text, with Chinese separators, becomes the request', () => {
  const { request, errors } = hp.readRequest({ tau: '0.5，1，1，5', d: '0.2 0.1 0.3', M: '16', rho: '0.8', T_real: '42' });
  assert.deepEqual(errors, []);
  assert.deepEqual(request, { tau: [0.5, 1, 1, 5], d: [0.2, 0.1, 0.3], M: 16, rho: 0.8, T_real: 42 });
  assert.equal(hp.analyze(request).T_async, hp.analyze({ tau: [0.5, 1, 1, 5], d: [0.2, 0.1, 0.3], M: 16 }).T_async);
});

test('absent fields take the defaults: no links, M = 8, rho = 1, no T_real', () => {
  const { request, errors } = hp.readRequest({ tau: '1 2' });
  assert.deepEqual(errors, []);
  assert.deepEqual(request, { tau: [1, 2], d: [], M: 8, rho: 1 });
});

test('every bad field gets exactly one error, in field order', () => {
  const { errors } = hp.readRequest({ tau: '1,,2', d: '-1', M: '2.5', rho: 'abc', T_real: '0' });
  assert.deepEqual(errors.map((e) => [e.field, e.code, e.index]), [
    ['tau', 'empty_item', 1], ['d', 'negative', 0], ['M', 'not_integer', null],
    ['rho', 'not_a_number', null], ['T_real', 'not_positive', null]]);
  assert.equal(errors[0].message, 'tau, item 2: empty item between separators');
  assert.equal(errors[3].message, "rho: 'abc' is not a number");
});

test('a bad tau does not hide a d of the wrong length', () => {
  const { errors } = hp.readRequest({ tau: '-1,2', d: '1,2,3' });
  assert.deepEqual(errors.map((e) => e.message), [
    'tau, item 1: must be >= 0 (got -1)',
    'd: needs S-1 = 1 link latencies, one per link, or none (got 3)']);
});

test('blank text in a number field is empty, and non-strings are refused', () => {
  assert.deepEqual(hp.readRequest({ tau: '1', M: ' ' }).errors.map((e) => [e.field, e.code]), [['M', 'empty']]);
  assert.throws(() => hp.readRequest({ tau: [1, 2] }), TypeError);
});
