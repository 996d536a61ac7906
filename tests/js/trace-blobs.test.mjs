// hp.importTrace given Blobs (Files), as the pages' worker gives them: each read in pieces straight
// into the module, a gzip one inflated as it streams by the platform's DecompressionStream; the
// result is the text's, key for key (and the CLI's golden); a gzip file that does not inflate is the
// core's coded error at the compressed byte, before any file is read; calls made while a Blob is
// read, and the memory growing meanwhile, do not reach it; nothing is left allocated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { cliPath, hp, load, root } from './support.mjs';

const traces = join(root, 'tests', 'data', 'traces');
const bad = join(root, 'tests', 'cli', 'traces');
const SYNTHETIC = [0, 1, 2].map((r) => join(traces, 'synthetic', `rank-${r}.json.gz`));
const REAL = [0, 1].map((r) => join(traces, `hta_sampled_rank-${r}.json.gz`));

// Each path's file as it is on disk (a Blob), and its text inflated (bytes).
const blobs = (paths) => paths.map((name) => ({ name, bytes: new Blob([readFileSync(name)]) }));
const texts = (paths) => paths.map((name) => {
  const raw = readFileSync(name);
  return { name, bytes: new Uint8Array(name.endsWith('.gz') ? gunzipSync(raw) : raw) };
});

// The CLI's --json golden: the JSON between "# stdout:" and "# stderr:".
function golden(name) {
  const text = readFileSync(join(root, 'tests', 'cli', 'golden', name), 'utf8');
  return JSON.parse(text.slice(text.indexOf('# stdout:') + 9, text.indexOf('# stderr:')));
}

// The HeteropipeError a promise rejects with, its fields checked against `expected`.
async function refused(promise, expected) {
  const e = await promise.then(() => assert.fail('the module accepted the file'), (x) => x);
  assert.ok(e instanceof load.HeteropipeError, `expected a HeteropipeError, got ${e}`);
  for (const [key, value] of Object.entries(expected)) assert.deepEqual(e[key], value, key);
  return e;
}

test('calls made while a Blob is read, growing the memory, do not reach its staged text', async () => {
  // About 20 MB of events, imported from inside the first progress report: after the Blobs' request
  // was staged, while its texts are being written.
  const event = '{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":1,"dur":1},\n';
  const big = '{"traceEvents":[' + event.repeat(280000) + event.slice(0, -2) + ']}';
  const before = hp.memory().wasm_bytes;
  let meanwhile = null;
  const on_progress = () => {
    if (meanwhile === null) meanwhile = hp.importTrace([{ name: 'big.json', bytes: big }]);
  };
  const r = await hp.importTrace(blobs(SYNTHETIC), { unit: 'ms', on_progress });
  assert.deepEqual(r, golden('trace_synthetic_json.txt'));
  assert.deepEqual([meanwhile.pipeline, meanwhile.reason, meanwhile.ranks[0].kernels], [false, 'one_rank', 280001]);
  assert.ok(hp.memory().wasm_bytes > before, 'the memory grew while the Blobs were read');
});

test('Blobs give their texts\' result: gzip, plain, a File, mixed with text; a promise', async () => {
  const pending = hp.importTrace(blobs(SYNTHETIC), { unit: 'ms' });
  assert.ok(pending instanceof Promise);
  const r = await pending;
  assert.deepEqual(r, hp.importTrace(texts(SYNTHETIC), { unit: 'ms' }));
  assert.deepEqual([r.tau, r.d, r.M, r.T_real, r.position], [[1, 2.5, 1.5], [0.2, 0.3], 8, 23, 'inside']);
  // Inflated, as plain Blobs and Files, and each file in another form.
  const plain = texts(SYNTHETIC).map((f) => ({ name: f.name, bytes: new Blob([f.bytes]) }));
  assert.deepEqual(await hp.importTrace(plain, { unit: 'ms' }), r);
  const files = texts(SYNTHETIC).map((f) => ({ name: f.name, bytes: new File([f.bytes], 'rank.json') }));
  assert.deepEqual(await hp.importTrace(files, { unit: 'ms' }), r);
  const [a, b, c] = texts(SYNTHETIC);
  const mixed = [{ name: a.name, bytes: new TextDecoder().decode(a.bytes) }, b, blobs(SYNTHETIC)[2]];
  assert.deepEqual(await hp.importTrace(mixed, { unit: 'ms' }), r);
  // The options as with text; the real traces too.
  const reversed = await hp.importTrace(blobs(SYNTHETIC), { stage_order: '2,1,0' });
  assert.deepEqual([reversed.pipeline, reversed.reason], [false, 'stages_out_of_order']);
  assert.deepEqual(await hp.importTrace(blobs(REAL)), hp.importTrace(texts(REAL)));
});

test('a gzip file of several members, or of nothing, is read whole (staged again at its length)', async () => {
  const [text] = texts([SYNTHETIC[0]]);
  const half = Math.floor(text.bytes.length / 2);
  const members = new Blob([gzipSync(text.bytes.subarray(0, half)), gzipSync(text.bytes.subarray(half))]);
  assert.deepEqual(await hp.importTrace([{ name: text.name, bytes: members }]), hp.importTrace([text]));
  await refused(hp.importTrace([{ name: 'nothing.json.gz', bytes: new Blob([gzipSync('')]) }]),
    { code: 'empty', field: 'trace', token: 'nothing.json.gz', index: 0, message: 'nothing.json.gz, byte 0: the file is empty' });
  await refused(hp.importTrace([{ name: 'empty.json', bytes: new Blob([]) }]), { code: 'empty', token: 'empty.json' });
});

test('a gzip file that does not inflate is the core\'s bad_gzip at the compressed byte, before any file is read', async () => {
  const cut = join(bad, 'cut.json.gz'), size = readFileSync(cut).length;
  const expected = { code: 'bad_gzip', field: 'trace', token: cut, index: size, value: 0, limit: 0,
    message: `${cut}, byte ${size}: the gzip data is damaged or cut short` };
  await refused(hp.importTrace(blobs([cut])), expected);
  // Before the other files are read, and before the options are: not the first file's not_json.
  await refused(hp.importTrace(blobs([join(bad, 'truncated.json'), cut]), { compute: '(' }), expected);
  // Damaged inside: the byte where the inflater stopped, within the file.
  const damaged = readFileSync(SYNTHETIC[0]);
  damaged.fill(0xff, 40, 60);
  const e = await refused(hp.importTrace([{ name: 'damaged.json.gz', bytes: new Blob([damaged]) }]), { code: 'bad_gzip', value: 0 });
  assert.ok(e.index > 40 && e.index <= damaged.length, String(e.index));
  // A Blob that is no gzip but bad text is the reader's error, as its bytes give it.
  await refused(hp.importTrace(blobs([join(bad, 'truncated.json')])),
    { code: 'not_json', message: (() => { try { hp.importTrace(texts([join(bad, 'truncated.json')])); } catch (x) { return x.message; } })() });
});

test('a gzip Blob with bytes after its gzip data is the CLI\'s bad_gzip at the first of them', async () => {
  // As the CLI and Python refuse gzip.compress(b"[...]") + b"xyz": byte 200 of a 203-byte file.
  const cpu = join(bad, 'cpu_gloo_rank-0.json');
  const member = gzipSync(readFileSync(cpu));
  for (const after of ['xyz', 'x', 'junk'.repeat(30000)]) {
    const bytes = Buffer.concat([member, Buffer.from(after)]);
    const path = join(mkdtempSync(join(tmpdir(), 'hp-trailing-')), 'trailing.json.gz');
    writeFileSync(path, bytes);
    const run = spawnSync(cliPath, ['trace', path], { encoding: 'utf8' });
    const e = await refused(hp.importTrace([{ name: path, bytes: new Blob([bytes]) }]),
      { code: 'bad_gzip', field: 'trace', token: path, index: member.length, value: 2 });
    assert.equal(run.stderr, `error: ${e.message}\n`);
    assert.equal(e.message, `${path}, byte ${member.length}: bytes that are not gzip data follow the end of the gzip data`);
  }
  // Bytes that are no gzip data inside it stay damage, at the byte the inflater stopped.
  const damaged = Buffer.from(member);
  damaged.fill(0x41, 30, 60);
  await refused(hp.importTrace([{ name: 'damaged.json.gz', bytes: new Blob([damaged]) }]), { code: 'bad_gzip', value: 0 });
});

test('a Blob\'s look-alike is a TypeError; Blob imports, refused ones included, leave nothing allocated', async () => {
  await hp.importTrace(blobs(SYNTHETIC));  // warms up the reply's room, kept for reuse
  const before = hp.memory().malloc_bytes;
  assert.throws(() => hp.importTrace([{ name: 'a', bytes: { size: 2, slice() {}, stream() {}, arrayBuffer() {} } }]), TypeError);
  await refused(hp.importTrace(blobs([join(bad, 'cut.json.gz')])), { code: 'bad_gzip' });
  await refused(hp.importTrace([{ name: 'nothing.json.gz', bytes: new Blob([gzipSync('')]) }]), { code: 'empty' });
  await refused(hp.importTrace(blobs(SYNTHETIC), { stat: 'max' }), { code: 'unknown_name', field: 'stat' });
  await hp.importTrace(blobs(SYNTHETIC));
  assert.equal(hp.memory().malloc_bytes, before);
});

test('the fraction of the Blobs\' bytes read goes to the call\'s on_progress, rising to 1; no global is called', async () => {
  const seen = [];
  const global = [];
  globalThis.heteropipeProgress = (f) => global.push(f);
  try {
    const r = await hp.importTrace(blobs(REAL), { on_progress: (f) => seen.push(f) });
    assert.deepEqual(r, await hp.importTrace(texts(REAL)));
  } finally {
    delete globalThis.heteropipeProgress;
  }
  assert.ok(seen.length >= 2, String(seen.length));
  assert.equal(seen.at(-1), 1);
  assert.ok(seen.every((f, k) => f > 0 && f <= 1 && (k === 0 || f > seen[k - 1])), seen.join(' '));
  assert.deepEqual(global, []);
});

test('an error thrown by on_progress is the import\'s, once it is over; a bad on_progress is a TypeError', async () => {
  const before = hp.memory().malloc_bytes;
  let calls = 0;
  const boom = new Error('from on_progress');
  const e = await hp.importTrace(blobs(REAL), { on_progress: () => { calls++; throw boom; } }).then(() => null, (x) => x);
  assert.equal(e, boom);
  assert.equal(calls, 1, 'it is called no more after it threw');
  assert.throws(() => hp.importTrace(blobs(REAL), { on_progress: 'yes' }), TypeError);
  assert.equal(hp.memory().malloc_bytes, before);
});

test('where a Blob\'s stream has no BYOB reader, it is read in the pieces the stream gives', async () => {
  const getReader = ReadableStream.prototype.getReader;
  ReadableStream.prototype.getReader = function (options) {
    if (options && options.mode === 'byob') throw new TypeError('no BYOB reader here');
    return getReader.call(this, options);
  };
  try {
    const plain = texts(REAL).map((f) => ({ name: f.name, bytes: new Blob([f.bytes]) }));
    assert.deepEqual(await hp.importTrace(plain), hp.importTrace(texts(REAL)));
  } finally {
    ReadableStream.prototype.getReader = getReader;
  }
});
