// The npm package as a user gets it: scripts/pack-npm.sh, `npm pack`, an
// offline install into an empty directory, then ESM import, CJS require,
// `tsc` on typed consumers of both kinds, and an esbuild browser bundle.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vm from 'node:vm';
import { hp, root, modulePath } from './support.mjs';

let dir;
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const bin = (name) => join(root, 'node_modules', '.bin', name);

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'heteropipe-npm-'));
  const npmDir = join(dir, 'npm');
  run('bash', [join(root, 'scripts', 'pack-npm.sh'), modulePath, npmDir], root);
  run('npm', ['pack', '--pack-destination', dir], npmDir);
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  assert.equal(tarball, 'heteropipe-0.1.0.tgz');
  const app = join(dir, 'app');
  run('mkdir', ['-p', app], dir);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, tarball)], app);
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('the tarball holds exactly the files whitelist', () => {
  const listed = JSON.parse(run('npm', ['pack', '--dry-run', '--json'], join(dir, 'npm')))[0].files.map((f) => f.path);
  assert.deepEqual(listed.sort(), ['README.md', 'heteropipe.js', 'index.d.cts', 'index.d.mts', 'index.mjs', 'package.json']);
  const pkg = JSON.parse(readFileSync(join(dir, 'app', 'node_modules', 'heteropipe', 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'heteropipe');
  assert.equal(pkg.type, undefined);
  assert.equal(pkg.exports['.'].import.types, './index.d.mts');
  assert.equal(pkg.exports['.'].require.types, './index.d.cts');
});

test('ESM import computes real values', () => {
  const file = join(dir, 'app', 'esm.mjs');
  writeFileSync(file, `import load, { HeteropipeError } from 'heteropipe';
const hp = await load();
const a = hp.analyze({ tau: [0.5, 1, 1, 5], M: 8 });
let code = '';
try { hp.analyze({ tau: [1, -1] }); } catch (e) { code = e instanceof HeteropipeError ? e.code : 'wrong class'; }
console.log(JSON.stringify([a.T_async, a.T_gpipe, a.homogeneity_bias, code, (await load()) === hp]));
`);
  assert.deepEqual(JSON.parse(run('node', [file], join(dir, 'app'))), [42.5, 55, 12.5, 'negative', true]);
});

test('CJS require computes real values', () => {
  const file = join(dir, 'app', 'cjs.cjs');
  writeFileSync(file, `const load = require('heteropipe');
(async () => {
  const hp = await require('heteropipe')();
  const t = hp.timeline({ tau: [1, 2], d: [0.5], M: 2, regime: 'blocking' });
  console.log(JSON.stringify([hp.makespanAsync({ tau: [0.5, 1, 1, 5], M: 1 }), t.makespan, Array.from(t.compute_start),
    typeof load.HeteropipeError, hp === (await load())]));
})();
`);
  assert.deepEqual(JSON.parse(run('node', [file], join(dir, 'app'))), [7.5, 5.5, [0, 1.5, 1.5, 3.5], 'function', true]);
});

test('tsc type-checks an ESM and a CJS consumer against the installed declarations', () => {
  const app = join(dir, 'app');
  writeFileSync(join(app, 'consumer.mts'), readFileSync(join(root, 'tests', 'js', 'consumer', 'consumer.mts'), 'utf8'));
  writeFileSync(join(app, 'consumer.cts'), readFileSync(join(root, 'tests', 'js', 'consumer', 'consumer.cts'), 'utf8'));
  const flags = ['--noEmit', '--strict', '--module', 'node16', '--moduleResolution', 'node16', '--target', 'es2022'];
  run(bin('tsc'), [...flags, 'consumer.mts', 'consumer.cts'], app);
  // And the declarations refuse what the runtime refuses.
  writeFileSync(join(app, 'wrong.mts'), `import load from 'heteropipe';
const hp = await load();
const n: string = hp.makespanAsync({ tau: [1] });
hp.timeline({ tau: [1], regime: 'sideways' });
hp.nonexistent();
`);
  let output = '';
  try {
    run(bin('tsc'), [...flags, 'wrong.mts'], app);
  } catch (e) {
    output = e.stdout;
  }
  assert.match(output, /wrong\.mts\(3,7\): error TS2322/);
  assert.match(output, /wrong\.mts\(4,25\): error TS2322/);
  assert.match(output, /wrong\.mts\(5,4\): error TS2339/);
});

test('an esbuild browser bundle runs without Node (no fs, no process)', async () => {
  const app = join(dir, 'app');
  writeFileSync(join(app, 'page.mjs'), `import load from 'heteropipe';
load().then((hp) => { globalThis.result = hp.makespanBlocking({ tau: [0.5, 1, 1, 5], d: [4.6, 0.1, 0.1], M: 8 }); });
`);
  run(bin('esbuild'), ['page.mjs', '--bundle', '--platform=browser', '--format=iife', '--outfile=bundle.js'], app);
  // A browser's globals, and none of Node's: the module unpacks its wasm with
  // the web platform's atob, ReadableStream, DecompressionStream and Response.
  const context = { window: {}, console, atob, ReadableStream, DecompressionStream, Response };
  context.globalThis = context;
  vm.createContext(context);
  vm.runInContext(readFileSync(join(app, 'bundle.js'), 'utf8'), context);
  for (let k = 0; k < 100 && context.result === undefined; k++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(context.result, hp.makespanBlocking({ tau: [0.5, 1, 1, 5], d: [4.6, 0.1, 0.1], M: 8 }));
  assert.ok(Math.abs(context.result - 48) < 1e-12);  // 12.3 + 7 * 5.1
});
