// GGUF files through the npm module: hp.modelInfo reads a Blob through slice (a 3 GB file of sparse
// data answers from its header), a Uint8Array or an ArrayBuffer; it equals the CLI's `model --json`, and
// the independent parser @huggingface/gguf reads the same facts and tensors from the same files
// (written from ggml's spec by tests/data/gguf/write_gguf.py). "model": {...} plans as the CLI's "gguf".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gguf } from '@huggingface/gguf';
import { cliPath, hp, root } from './support.mjs';

const folder = join(root, 'tests', 'data', 'gguf');
const FIXTURES = ['dense.gguf', 'gqa.gguf', 'moe.gguf', 'mixed_tied.gguf', 'sliding.gguf'];
const native = (path) => JSON.parse(execFileSync(cliPath, ['model', '--json', path], { encoding: 'utf8' }));

// ggml's block size and bytes per block by type id, for the types the fixtures use (the test's own
// table, as write_gguf.py's, not the core's).
const SIZES = { 0: [1, 4], 1: [1, 2], 2: [32, 18], 8: [32, 34], 12: [256, 144], 14: [256, 210], 23: [256, 136],
  30: [1, 2], 39: [32, 17] };
const bytesOf = (t) => {
  const [block, size] = SIZES[t.dtype];
  return Number(t.shape.reduce((a, b) => a * b, 1n)) / block * size;
};

test('modelInfo of a Blob, a Uint8Array and an ArrayBuffer is the CLI\'s model --json', async () => {
  for (const name of FIXTURES) {
    const path = join(folder, name);
    const expected = native(path);
    const bytes = readFileSync(path);
    assert.deepEqual(await hp.modelInfo(await openAsBlob(path)), expected, name);
    assert.deepEqual(await hp.modelInfo(new Uint8Array(bytes)), expected, name);
    assert.deepEqual(await hp.modelInfo(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)), expected);
  }
});

test('a general.name that is not UTF-8 is the CLI\'s, as TextDecoder decodes its bytes', async () => {
  // The CLI's model --json aborted on it (its JSON writer refuses bytes that are not UTF-8).
  const path = join(folder, 'bad_utf8_name.gguf');
  const info = await hp.modelInfo(new Uint8Array(readFileSync(path)));
  assert.deepEqual(info, native(path));
  const raw = Uint8Array.from(Buffer.from('Bad \xff name \xed\xa0\x80 cut \xe2\x82 \x1b[2J', 'latin1'));
  assert.equal(info.name, new TextDecoder().decode(raw));
  assert.equal(info.name, 'Bad \ufffd name \ufffd\ufffd\ufffd cut \ufffd \x1b[2J');
});

test('@huggingface/gguf, an independent parser, reads the same facts and tensor bytes', async () => {
  for (const name of FIXTURES) {
    const path = join(folder, name);
    const info = await hp.modelInfo(await openAsBlob(path));
    const { metadata, tensorInfos } = await gguf(path, { allowLocalFile: true });
    const arch = metadata['general.architecture'];
    assert.equal(info.architecture, arch);
    assert.equal(info.name, metadata['general.name']);
    assert.equal(info.layers, Number(metadata[arch + '.block_count']));
    assert.equal(info.n_embd, Number(metadata[arch + '.embedding_length']));
    assert.equal(info.n_head_kv, Number(metadata[arch + '.attention.head_count_kv']));
    assert.equal(info.expert_count, Number(metadata[arch + '.expert_count'] ?? 0));
    const layers = new Array(info.layers).fill(0);
    for (const t of tensorInfos) {
      const m = /^blk\.(\d+)\./.exec(t.name);
      if (m) layers[Number(m[1])] += bytesOf(t);
    }
    assert.deepEqual(info.layer_bytes, layers, name);
    const embd = tensorInfos.find((t) => t.name === 'token_embd.weight');
    assert.equal(info.embedding_bytes, bytesOf(embd));
    const output = tensorInfos.find((t) => t.name === 'output.weight') ?? embd;
    const norm = tensorInfos.find((t) => t.name === 'output_norm.weight');
    assert.equal(info.output_bytes, bytesOf(output) + bytesOf(norm), name);
    // The KV cache one position adds, F16 K and V of every layer (none of these files has a layer
    // without attention), with the head size the file gives or n_embd / n_head.
    const heads = Number(metadata[arch + '.attention.head_count']);
    const head = (key) => Number(metadata[arch + '.attention.' + key] ?? info.n_embd / heads);
    assert.equal(info.kv_bytes_per_token,
      info.layers * 2 * info.n_head_kv * (head('key_length') + head('value_length')), name);
  }
  // gemma3 slides five layers of each six (llama.cpp's set_swa_pattern(6)) over the file's window.
  const { metadata } = await gguf(join(folder, 'sliding.gguf'), { allowLocalFile: true });
  const info = await hp.modelInfo(await openAsBlob(join(folder, 'sliding.gguf')));
  assert.equal(info.sliding_window, Number(metadata['gemma3.attention.sliding_window']));
  assert.deepEqual(info.sliding_layers, Array.from({ length: info.layers }, (_, j) => (j % 6 < 5 ? 1 : 0)));
  // A transformer: every layer keeps a KV cache, none holds a recurrent state.
  assert.deepEqual(info.attention_layers, Array(info.layers).fill(1));
  assert.deepEqual(info.kv_layers, Array(info.layers).fill(1));
  assert.deepEqual(info.recurrent_layers, Array(info.layers).fill(0));
});

test('a 3 GB file of sparse data answers from its header, read through Blob.slice', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hp-gguf-'));
  try {
    const path = join(dir, 'big.gguf');
    execFileSync('python3', ['-c', `import sys; sys.path.insert(0, ${JSON.stringify(folder)}); import write_gguf; ${
      ''}write_gguf.llama_8b(${JSON.stringify(path)})`]);
    const blob = await openAsBlob(path);
    assert.ok(blob.size > 2.5e9);
    const started = Date.now();
    const info = await hp.modelInfo(blob);
    assert.ok(Date.now() - started < 10_000);
    assert.deepEqual(info, native(path));
    assert.equal(info.layers, 32);
    const report = hp.plan({ model: info, devices: ['rtx-3060-12gb', 'rtx-3060-12gb'], context: 4096, M: 1 });
    const cli = JSON.parse(execFileSync(cliPath, ['plan', '--json', '-'], {
      input: JSON.stringify({ gguf: path, devices: ['rtx-3060-12gb', 'rtx-3060-12gb'], context: 4096, M: 1 }),
      encoding: 'utf8' }));
    assert.deepEqual(report, cli);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad files are coded errors with their byte offset; a gguf path is refused where files are not read', async () => {
  const bytes = new Uint8Array(readFileSync(join(folder, 'dense.gguf')));
  await assert.rejects(hp.modelInfo(bytes.subarray(0, 100)), { code: 'truncated', field: 'gguf', limit: 100 });
  const bad = bytes.slice();
  bad[0] = 0x58;
  await assert.rejects(hp.modelInfo(bad), { code: 'not_gguf', index: 0 });
  await assert.rejects(hp.modelInfo('dense.gguf'), TypeError);
  assert.throws(() => hp.plan({ gguf: 'dense.gguf', devices: ['rtx-4090'] }), { code: 'wrong_form', field: 'gguf' });
  // Every cut of the header: a coded error, never a crash or a hang.
  for (let n = 0; n < 2200; n += 7) {
    await assert.rejects(hp.modelInfo(bytes.subarray(0, n)), { code: 'truncated' });
  }
});
