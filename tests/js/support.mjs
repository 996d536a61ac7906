// Shared by the tests in tests/js: where things are, and the loaded module.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const modulePath = process.env.HETEROPIPE_MODULE || join(root, 'build', 'wasm', 'wasm', 'heteropipe.js');
export const cliPath = process.env.HETEROPIPE_CLI || join(root, 'build', 'native', 'cli', 'heteropipe');

if (!existsSync(modulePath)) {
  throw new Error(`missing ${modulePath}: run cmake --preset wasm && cmake --build --preset wasm`);
}

export const load = createRequire(import.meta.url)(modulePath);
export const hp = await load();

// Calls `call`, which must throw a HeteropipeError whose fields equal `expected`; returns it.
export function fails(call, expected) {
  let caught;
  try {
    call();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof load.HeteropipeError, `expected a HeteropipeError, got ${caught}`);
  assert.ok(caught instanceof Error);
  assert.equal(caught.name, 'HeteropipeError');
  for (const [key, value] of Object.entries(expected)) assert.deepEqual(caught[key], value, key);
  return caught;
}

// Deterministic pseudo-random numbers (mulberry32), so failures reproduce.
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// |a - b| <= tol * max(1, |a|, |b|)
export function close(a, b, tol = 1e-12) {
  return Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
}
