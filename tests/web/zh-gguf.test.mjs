// The Chinese words of the GGUF codes (web/i18n/tools-zh.js, through zh.js's error as the planner's
// file field shows them): each error the module's modelInfo throws for a bad file is worded, with
// its byte offset as a byte (not an item's number), not left to the English fallback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { chineseTable, modulePath } from './helpers.mjs';

const require = createRequire(import.meta.url);
const zh = chineseTable();

const u32 = (n) => { const b = Buffer.alloc(4); b.writeUInt32LE(n); return b; };
const u64 = (n) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(n)); return b; };

const WORDS = {
  not_gguf: 'GGUF 文件，第 0 字节：文件开头不是 GGUF 字节，不是 GGUF 文件',
  unsupported_version: 'GGUF 文件，第 4 字节：不支持版本 9（支持版本 2 和 3）',
  truncated: 'GGUF 文件，第 24 字节：文件在其文件头内部结束，共 24 字节（文件是否不完整？）',
  bad_alignment: 'GGUF 文件，第 53 字节：键“general.alignment”的值 48 不能作对齐值：GGUF 要求非零的 2 的幂',
};

test('each GGUF error is worded in Chinese, with its byte offset', async () => {
  const hp = await require(modulePath)();
  const cases = {
    not_gguf: Buffer.from('NOTAGGUFFILE_____________'),
    unsupported_version: Buffer.concat([Buffer.from('GGUF'), u32(9), u64(0), u64(0)]),
    truncated: Buffer.concat([Buffer.from('GGUF'), u32(3), u64(1), u64(0)]),
    // No tensors and one key, general.alignment = 48 (a uint32, type 4): its value at byte 53.
    bad_alignment: Buffer.concat([Buffer.from('GGUF'), u32(3), u64(0), u64(1), u64(17), Buffer.from('general.alignment'),
      u32(4), u32(48)]),
  };
  for (const [code, bytes] of Object.entries(cases)) {
    let error;
    try { await hp.modelInfo(new Uint8Array(bytes)); } catch (e) { error = e; }
    assert.ok(error, code);
    assert.equal(error.code, code);
    const said = zh.error(error, hp.limits, 'GGUF 文件');
    assert.equal(said, WORDS[code]);
  }
});

test('general.alignment given as a float is worded at its type, in Chinese', async () => {
  const hp = await require(modulePath)();
  const bytes = Buffer.concat([Buffer.from('GGUF'), u32(3), u64(0), u64(1), u64(17), Buffer.from('general.alignment'),
    u32(6), Buffer.from(new Float32Array([32]).buffer)]);
  let error;
  try { await hp.modelInfo(new Uint8Array(bytes)); } catch (e) { error = e; }
  assert.ok(error);
  assert.deepEqual([error.code, error.field, error.index, error.value, error.token],
    ['bad_alignment', 'value_type', 49, 6, 'general.alignment']);
  assert.equal(zh.error(error, hp.limits, 'GGUF 文件'),
    'GGUF 文件，第 49 字节：键“general.alignment”的值类型 6 不是整数，而对齐值必须是整数');
});

test('a key given twice, and a fact of a type that is no whole number, are worded in Chinese at their bytes', async () => {
  const hp = await require(modulePath)();
  const key = (name) => Buffer.concat([u64(name.length), Buffer.from(name)]);
  const refused = async (bytes) => {
    try { await hp.modelInfo(new Uint8Array(bytes)); } catch (e) { return e; }
    return assert.fail('modelInfo accepted the file');
  };
  // general.alignment = 32 twice: the second key starts at byte 24 + 33.
  const twice = await refused(Buffer.concat([Buffer.from('GGUF'), u32(3), u64(0), u64(2),
    key('general.alignment'), u32(4), u32(32), key('general.alignment'), u32(4), u32(32)]));
  assert.deepEqual([twice.code, twice.field, twice.index, twice.token], ['duplicate_key', 'gguf', 57, 'general.alignment']);
  assert.equal(zh.error(twice, hp.limits, 'GGUF 文件'),
    'GGUF 文件，第 57 字节：键“general.alignment”在元数据中第二次出现（以哪个值为准没有定义，ggml 也拒绝这样的文件）');
  // llama.block_count as a float32 (type 6): its type at byte 69 + 25.
  const float = await refused(Buffer.concat([Buffer.from('GGUF'), u32(3), u64(0), u64(2),
    key('general.architecture'), u32(8), key('llama'), key('llama.block_count'), u32(6),
    Buffer.from(new Float32Array([2]).buffer)]));
  assert.deepEqual([float.code, float.field, float.index, float.value, float.token],
    ['wrong_type', 'value_type', 94, 6, 'llama.block_count']);
  assert.equal(float.message, "GGUF file, byte 94: key 'llama.block_count' has value type 6, but it must be a whole number");
  assert.equal(zh.error(float, hp.limits, 'GGUF 文件'),
    'GGUF 文件，第 94 字节：键“llama.block_count”的值类型 6 不是整数，而它必须是整数');
});

test('a model object\'s sliding_layers that is no flag per layer is worded in Chinese', async () => {
  const hp = await require(modulePath)();
  const model = { layers: 3, n_embd: 128, n_head: 4, n_head_kv: 2, vocab_size: 128, sliding_window: 128,
    layer_bytes: [209920, 209920, 209920], active_layer_bytes: [209920, 209920, 209920],
    active_layer_params: [196864, 196864, 196864], embedding_bytes: 17408, output_bytes: 17920, kv_bytes_per_token: 1536 };
  const refused = (flags) => {
    try { hp.plan({ model: { ...model, sliding_layers: flags }, devices: ['rtx-4090'] }); } catch (e) { return e; }
    return assert.fail('plan accepted the model');
  };
  const flag = refused([1, 2, 0]);
  assert.deepEqual([flag.code, flag.field, flag.index, flag.value], ['out_of_range', 'sliding_layers', 1, 2]);
  assert.equal(zh.error(flag, hp.limits, '模型'), '模型，第 2 层：必须是 0（关注全部位置）或 1（滑动窗口）（输入为 2）');
  const short = refused([1, 0]);
  assert.deepEqual([short.code, short.field, short.value, short.limit], ['wrong_length', 'sliding_layers', 2, 3]);
  assert.equal(zh.error(short, hp.limits, '模型'), '模型：需要 3 个值，每层一个，或者留空（输入了 2 个）');
  // Empty: no layer slides, as a model object written before the fact was.
  assert.ok(hp.plan({ model: { ...model, sliding_layers: [] }, devices: ['rtx-4090', 'rtx-4090'] }));
});

test("a model object's counts out of range are worded in Chinese by their own range, with no file's byte", async () => {
  // layers 1e20 was worded as a GGUF file's block_count ('“1e20”必须在 1 到 2^53 之间（输入为 0）'), and
  // expert_count -1 'between 1 and 2^53' where 0 passes. (The table's fmt.bound is String here.)
  const hp = await require(modulePath)();
  const cases = [['layers', '1e20', '必须在 1 到 4096 之间（输入为 1e20）'], ['expert_count', '-1', '必须在 0 到 9007199254740992 之间（输入为 -1）'],
    ['sliding_window', '1e400', '必须在 0 到 9007199254740992 之间（输入为 1e400）']];
  for (const [key, typed, said] of cases) {
    let error;
    try { hp.plan(`{"model": {"architecture": "llama", "name": "x", "${key}": ${typed}}, "devices": ["rtx-4090"]}`); } catch (e) { error = e.errors[0]; }
    assert.deepEqual([error.code, error.field, error.index, error.token], ['out_of_range', key, null, typed]);
    assert.equal(zh.error(error, hp.limits, '模型'), '模型：' + said);
  }
});

test('a model object\'s attention_layers, kv_layers and recurrent_layers that are no flag per layer are worded in Chinese', async () => {
  const hp = await require(modulePath)();
  const model = { layers: 3, n_embd: 128, n_head: 4, n_head_kv: 2, vocab_size: 128,
    layer_bytes: [209920, 209920, 209920], active_layer_bytes: [209920, 209920, 209920],
    active_layer_params: [196864, 196864, 196864], embedding_bytes: 17408, output_bytes: 17920, kv_bytes_per_token: 1536 };
  const refused = (facts) => {
    try { hp.plan({ model: { ...model, ...facts }, devices: ['rtx-4090'] }); } catch (e) { return e; }
    return assert.fail('plan accepted the model');
  };
  const flag = refused({ attention_layers: [1, 2, 0] });
  assert.deepEqual([flag.code, flag.field, flag.index, flag.value], ['out_of_range', 'attention_layers', 1, 2]);
  assert.equal(zh.error(flag, hp.limits, '模型'), '模型，第 2 层：必须是 0（没有注意力）或 1（有注意力）（输入为 2）');
  const cache = refused({ kv_layers: [1, 0, 3] });
  assert.deepEqual([cache.code, cache.field, cache.index, cache.value], ['out_of_range', 'kv_layers', 2, 3]);
  assert.equal(zh.error(cache, hp.limits, '模型'), '模型，第 3 层：必须是 0（不保留 KV 缓存）或 1（保留 KV 缓存）（输入为 3）');
  const few = refused({ kv_layers: [1] });
  assert.deepEqual([few.code, few.field, few.value, few.limit], ['wrong_length', 'kv_layers', 1, 3]);
  assert.equal(zh.error(few, hp.limits, '模型'), '模型：需要 3 个值，每层一个，或者留空（输入了 1 个）');
  const uncached = refused({ attention_layers: [1, 1, 1], kv_layers: [0, 0, 0] });
  assert.deepEqual([uncached.code, uncached.field, uncached.token], ['not_positive', 'kv_layers', 'kv_bytes_per_token']);
  assert.equal(zh.error(uncached, hp.limits, '模型'), '模型：至少需要一个运行的层为 1，因为 kv_bytes_per_token 大于 0');
  const state = refused({ recurrent_layers: [0, 0.5, 0] });
  assert.deepEqual([state.code, state.field, state.index, state.value], ['out_of_range', 'recurrent_layers', 1, 0.5]);
  assert.equal(zh.error(state, hp.limits, '模型'), '模型，第 2 层：必须是 0（没有循环状态）或 1（有循环状态）（输入为 0.5）');
  const short = refused({ recurrent_layers: [1, 0] });
  assert.deepEqual([short.code, short.field, short.value, short.limit], ['wrong_length', 'recurrent_layers', 2, 3]);
  assert.equal(zh.error(short, hp.limits, '模型'), '模型：需要 3 个值，每层一个，或者留空（输入了 2 个）');
  const nowhere = refused({ attention_layers: [0, 0, 0] });
  assert.deepEqual([nowhere.code, nowhere.field, nowhere.token], ['not_positive', 'attention_layers', 'kv_bytes_per_token']);
  assert.equal(zh.error(nowhere, hp.limits, '模型'), '模型：至少需要一个运行的层为 1，因为 kv_bytes_per_token 大于 0');
  // Empty: every layer attends; flags placing the cache on one layer plan too.
  assert.ok(hp.plan({ model: { ...model, attention_layers: [] }, devices: ['rtx-4090', 'rtx-4090'] }));
  assert.ok(hp.plan({ model: { ...model, attention_layers: [0, 1, 0] }, devices: ['rtx-4090', 'rtx-4090'] }));
  // Layers that attend against another layer's cache, keeping none (Gemma 3n's last layers).
  assert.ok(hp.plan({ model: { ...model, attention_layers: [1, 1, 1], kv_layers: [1, 0, 0] }, devices: ['rtx-4090', 'rtx-4090'] }));
});

test("every model count the English words by 0 to 2^53 the Chinese table words by the same range, and no other", async () => {
  // The English finds a model's counts from ModelInfo's visitor (the whole-number facts but layers); the
  // Chinese table lists them itself, so a count added to ModelInfo (nextn_predict_layers) must be added there
  // too. Every numeric fact of a real file's object, typed -1, is worded by one range or the other alike.
  const hp = await require(modulePath)();
  const fs = await import('node:fs');
  const path = await import('node:path');
  const file = fs.readFileSync(path.join(import.meta.dirname, '..', 'data', 'gguf', 'dense.gguf'));
  const info = await hp.modelInfo(new Uint8Array(file));
  const counts = [];
  for (const key of Object.keys(info)) {
    if (typeof info[key] !== 'number' || key === 'layers') continue;
    let error;
    try { hp.plan(`{"model": {"architecture": "llama", "name": "x", "${key}": -1}, "devices": ["rtx-4090"]}`); } catch (e) { error = e.errors[0]; }
    assert.ok(error, key);
    const english = error.detail === 'must be between 0 and 2^53 (got -1)';
    const chinese = zh.error(error, hp.limits, '模型') === '模型：必须在 0 到 ' + hp.limits.max_model_count + ' 之间（输入为 -1）';
    assert.equal(chinese, english, key + ': ' + error.message);
    if (english) counts.push(key);
  }
  assert.ok(counts.includes('nextn_predict_layers') && counts.includes('n_embd'), counts.join(', '));
});
