// The caller's own code (getters, Proxies, a typed array's length, methods of
// the values passed) runs only while the wrapper reads the request, before
// anything reaches wasm memory: whatever it does, the call computes on the
// caller's values, or refuses them with a coded error, and the module works
// on afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hp, fails } from './support.mjs';



// The paper's worked example (Section 3.1): T_async = 7.5 + 7 * 5 at M = 8.
function stillWorks() {
  assert.equal(hp.analyze({ tau: [0.5, 1, 1, 5], M: 8 }).T_async, 42.5);
}

test('a getter that calls the module on another pipeline: the outer call computes on its own input', () => {
  const other = { tau: [1, 2, 3], d: [0.5, 0.5], M: 4 };
  const expected = hp.analyze(other);
  const inner = [];
  const request = {
    get tau() {
      inner.push(hp.analyze(other));
      return [0.5, 1, 1, 5];
    },
    d: [0, 0, 0],
    get M() {
      inner.push(hp.timeline({ tau: [1, 2, 3, 4], M: 400000 }).makespan);
      return 8;
    },
  };
  // An item getter that makes the module grow its memory mid-request.
  Object.defineProperty(request.d, 1, {
    get() {
      inner.push(hp.analyze({ tau: new Float64Array(1e6).fill(2), M: 3 }).T_async);
      return 0;
    },
  });
  const outer = hp.analyze(request);
  assert.equal(outer.T_async, 42.5);
  assert.deepEqual(outer.d, [0, 0, 0]);
  assert.deepEqual(inner[0], expected);
  assert.equal(inner[1], 2 * 1e6 + 2 * 2);
  assert.equal(inner[2], hp.makespanAsync({ tau: [1, 2, 3, 4], M: 400000 }));
  stillWorks();
});

test('a Float64Array subclass whose length lies is read for what it holds', () => {
  class Longer extends Float64Array {
    get length() { return 1e12; }
  }
  class Shorter extends Float64Array {
    get length() { return 1; }
  }
  for (const Liar of [Longer, Shorter]) {
    const a = hp.analyze({ tau: new Liar([0.5, 1, 1, 5]), d: new Liar([0, 0, 0]), M: 8 });
    assert.equal(a.S, 4);
    assert.equal(a.T_async, 42.5);
    assert.ok(a.sigma instanceof Float64Array);
  }
  stillWorks();
});

test('values whose methods throw are never converted: a coded error names them', () => {
  const evil = {
    toString() { throw new Error('toString ran'); },
    valueOf() { throw new Error('valueOf ran'); },
    [Symbol.toPrimitive]() { throw new Error('toPrimitive ran'); },
  };
  fails(() => hp.analyze({ tau: [1, evil] }),
    { code: 'not_a_number', field: 'tau', index: 1, token: 'an object', message: "tau, item 2: 'an object' is not a number" });
  fails(() => hp.analyze({ tau: [1], M: evil }), { code: 'not_a_number', field: 'M', index: null, token: 'an object', message: "M: 'an object' is not a number" });
  fails(() => hp.makespanCurve({ tau: [1], batches: [1, evil] }), { code: 'not_a_number', field: 'M', index: 1, token: 'an object' });
  const fn = () => 1;
  fn.toString = () => { throw new Error('toString ran'); };
  fails(() => hp.analyze({ tau: [fn] }), { code: 'not_a_number', index: 0, token: 'a function' });
  fails(() => hp.analyze({ tau: [Symbol('x')] }), { code: 'not_a_number', index: 0, token: 'Symbol(x)' });
  assert.deepEqual(hp.check({ tau: [evil] }).map((e) => [e.field, e.code, e.token]), [['tau', 'not_a_number', 'an object']]);
  assert.throws(() => hp.readRequest({ tau: evil }), TypeError);
  stillWorks();
});

test('an exception from the caller\'s own getter reaches the caller, and nothing was staged', () => {
  const before = hp.memory().malloc_bytes;
  const thrown = new Error('from the getter');
  assert.throws(() => hp.analyze({ tau: [1, 2], get M() { throw thrown; } }), (e) => e === thrown);
  assert.equal(hp.memory().malloc_bytes, before);
  stillWorks();
});

test('a Proxy around a typed array: read through its traps, or refused when it has no length', () => {
  const forwarding = new Proxy(new Float64Array([0.5, 1, 1, 5]), {
    get: (target, key) => (key === 'length' ? target.length : target[key]),
  });
  assert.equal(hp.analyze({ tau: forwarding, M: 8 }).T_async, 42.5);
  // A Proxy with no traps: its length getter throws inside the engine
  // (the receiver is not a typed array), so it is not a list at all.
  const bare = new Proxy(new Float64Array([0.5, 1, 1, 5]), {});
  fails(() => hp.analyze({ tau: bare }), { code: 'not_a_number', field: 'tau', index: 0, token: 'an object' });
  // Traps that call back into the module.
  const reentrant = new Proxy([0.5, 1, 1, 5], {
    get(target, key) {
      if (key === '2') hp.recurrenceMakespan({ tau: [1, 2, 3], M: 1000 });
      return Reflect.get(target, key);
    },
  });
  assert.equal(hp.analyze({ tau: reentrant, M: 8 }).T_async, 42.5);
  stillWorks();
});

test('a text of 3.6e8 characters is too_long, refused before it is copied, and the module works on', () => {
  const s = 'x'.repeat(3.6e8);
  const before = hp.memory();
  const { request, errors } = hp.readRequest({ tau: s, d: s, M: '16' });
  assert.deepEqual(errors.map((e) => [e.field, e.code, e.index, e.value, e.limit]), [
    ['tau', 'too_long', null, 3.6e8, hp.limits.max_text_bytes],
    ['d', 'too_long', null, 3.6e8, hp.limits.max_text_bytes]]);
  assert.equal(errors[0].message, 'tau: at most 134,217,728 bytes of text (got 360,000,000)');
  // The other fields are read; the refused ones keep their defaults.
  assert.deepEqual(request, { tau: [], d: [], M: 16, rho: 1 });
  fails(() => hp.parseList(s, 'd'), { code: 'too_long', field: 'd', value: 3.6e8, limit: hp.limits.max_text_bytes });
  // Nothing of the text reached wasm memory: it did not grow, and malloc
  // holds at most what the reused reply grew by for the longer messages.
  const after = hp.memory();
  assert.equal(after.wasm_bytes, before.wasm_bytes);
  assert.ok(after.malloc_bytes - before.malloc_bytes < 1024, `${after.malloc_bytes - before.malloc_bytes} bytes`);
  stillWorks();
});
