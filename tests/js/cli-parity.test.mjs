// Bit for bit: seeded random inputs through the native CLI's --json and
// through hp.analyze in wasm must give the same fields, in the same order,
// with Object.is-identical values. Numbers reach the CLI as String(x), which
// round-trips every double exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cliPath, hp, random } from './support.mjs';

function randomCase(next) {
  const S = 1 + Math.floor(next() * 12);
  const logUniform = (lo, hi) => lo * Math.pow(hi / lo, next());
  const tau = Array.from({ length: S }, () => (next() < 0.05 ? 0 : logUniform(1e-3, 1e3)));
  if (tau.every((x) => x === 0)) tau[0] = 1;
  const links = next();
  const d = links < 0.2 ? undefined : Array.from({ length: S - 1 }, () => (next() < 0.1 ? 0 : logUniform(1e-4, 2e3)));
  const M = next() < 0.1 ? Math.floor(logUniform(1e6, 2 ** 53)) : 1 + Math.floor(logUniform(1, 1e4));
  const rho = next() < 0.2 ? [0, 1][Math.floor(next() * 2)] : next();
  const input = { tau, M, rho };
  if (d) input.d = d;
  const a = hp.analyze(input);
  if (next() < 0.6 && a.T_block < 1e14) {
    input.T_real = a.T_async * (0.9 + 0.3 * next()) + (a.T_block - a.T_async) * next();
  }
  return input;
}

function cliJson(input, extra = []) {
  const args = [`--tau=${input.tau.map(String).join(',')}`, `--M=${String(input.M)}`, `--rho=${String(input.rho)}`,
    ...extra];
  if (input.d && input.d.length > 0) args.push(`--d=${input.d.map(String).join(',')}`);
  if (input.T_real !== undefined) args.push(`--T-real=${String(input.T_real)}`);
  args.push('--json');
  return JSON.parse(execFileSync(cliPath, args, { encoding: 'utf8' }));
}

function same(a, b) {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, k) => Object.is(x, b[k]));
  return Object.is(a, b);
}

test('the native CLI exists (build it: cmake --preset native && cmake --build --preset native)', () => {
  assert.ok(existsSync(cliPath), `missing ${cliPath}`);
});

test('300 seeded random cases: CLI --json and hp.analyze agree field by field, bit for bit', () => {
  const next = random(20260101);
  let withTReal = 0;
  for (let k = 0; k < 300; k++) {
    const input = randomCase(next);
    const native = cliJson(input);
    const wasm = hp.analyze(input);
    assert.deepEqual(Object.keys(wasm), Object.keys(native), `case ${k}: field names and order`);
    for (const key of Object.keys(native)) {
      assert.ok(same(wasm[key], native[key]), `case ${k} ${JSON.stringify(input)}: ${key} wasm ${wasm[key]} native ${native[key]}`);
    }
    if ('T_real' in native) withTReal++;
  }
  assert.ok(withTReal > 100);
});

test('the paper example matches the CLI exactly, including the optional fields', () => {
  const input = { tau: [0.5, 1, 1, 5], d: [4.6, 0.1, 0.1], M: 16, rho: 0.8, T_real: 80 };
  const native = cliJson(input);
  assert.ok('overlap_ratio' in native && 'T_real_position' in native);
  assert.deepEqual(hp.analyze(input), native);
});

// A field added to the analysis's visitor reaches the CLI's JSON and the
// module alike, with no other change: the module's analysis has exactly the
// CLI's fields, in the CLI's order, but for the two the CLI adds itself.
test('analyze has exactly the fields of the CLI --json, in order (the CLI-only recurrence fields aside)', () => {
  const cliOnly = ['T_async_recurrence', 'T_block_recurrence'];
  for (const input of [{ tau: [0.5, 1, 1, 5], d: [4.6, 0.1, 0.1], M: 16, rho: 0.8, T_real: 80 },
    { tau: [1.13, 2.9, 2.62], M: 100, rho: 1 }, { tau: [1, 2], M: 4, rho: 0.5, T_real: 9 }]) {
    const native = cliJson(input, ['--recurrence']);
    assert.ok(cliOnly.every((key) => key in native), 'the CLI reports its recurrence fields');
    const keys = Object.keys(native).filter((key) => !cliOnly.includes(key));
    assert.deepEqual(Object.keys(hp.analyze(input)), keys);
    const lists = ['tau', 'd', 'sigma', 'link_slack', 'link_margin'];
    assert.deepEqual(Object.keys(hp.analyze(input, { lists: false })), keys.filter((key) => !lists.includes(key)));
  }
});
