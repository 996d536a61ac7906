// A Number, String or Boolean object (new Number(5), new String('4096')) is read as its primitive in
// every entry point, as JSON.stringify and Python's float() read it: it was sent as an object
// ({"0":"4","1":"0",...}) and refused as wrong_type, or as no number.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hp } from './support.mjs';

/* eslint-disable no-new-wrappers */
test('plan: a boxed number or text is its primitive, the same plan as the primitive gives', () => {
  const input = (context, M) => ({ model: 'llama-3-8b', quant: 'Q4_K_M', devices: ['rtx-4090', 'rtx-3090'], context, M });
  const plain = hp.plan(input('4096', 4));
  assert.deepEqual(hp.plan(input(new String('4096'), new Number(4))), plain);
  assert.deepEqual(hp.plan(input(4096, Object(4))), plain);
  assert.deepEqual(hp.plan(new String(JSON.stringify(input(4096, 4)))), plain);
  // A boxed boolean is a boolean, refused in a number field as the primitive is.
  const refused = (call) => { try { call(); } catch (e) { return [e.code, e.field, e.message]; } return assert.fail('accepted'); };
  assert.deepEqual(refused(() => hp.plan(input(new Boolean(true), 4))), refused(() => hp.plan(input(true, 4))));
});

test('analyze, readRequest, parseNumber and simulate read boxed primitives as their values', () => {
  const plain = hp.analyze({ tau: [0.5, 1, 1, 5], d: [0.1, 0.1, 0.1], M: 8, rho: 0.5, T_real: 50 });
  assert.deepEqual(hp.analyze({ tau: [new Number(0.5), 1, Object(1), 5], d: [0.1, 0.1, 0.1], M: new Number(8),
    rho: new Number(0.5), T_real: new Number(50) }), plain);
  assert.deepEqual(hp.readRequest({ tau: new String('0.5,1,1,5'), M: new String('8') }).request,
    hp.readRequest({ tau: '0.5,1,1,5', M: '8' }).request);
  assert.equal(hp.parseNumber(new String('0.25'), new String('rho')), 0.25);
  const run = (r) => hp.simulate({ tau: [1, 2], M: 4, reps: 3, seed: 1, ...r });
  assert.deepEqual(run({ service: new String('lognormal:cv=0.5'), reps: new Number(3), buffers: new String('1') }),
    run({ service: 'lognormal:cv=0.5', buffers: '1' }));
  // Any other object is still refused, quoted as before.
  assert.throws(() => hp.analyze({ tau: [1, { valueOf: () => 2 }] }), { code: 'not_a_number', field: 'tau', index: 1, message: "tau, item 2: 'an object' is not a number" });
});
