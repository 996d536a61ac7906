// A device too slow to plan (its avg_ts, a custom device's roofline fact, or the record that
// calibrates it), in both languages through the module's hp.plan: the field the person typed, the
// least value that plans, and no Infinity (an avg_ts of 5e-324 once read "layer_times: must be a
// finite number (got inf)").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { chineseTable, modulePath } from './helpers.mjs';

const require = createRequire(import.meta.url);
const zh = chineseTable();

const record = (avgTs) => ({ gpu_info: 'NVIDIA GeForce RTX 4080', model_size: 4677120000, model_n_params: 7615616512,
  n_prompt: 0, n_gen: 128, avg_ts: avgTs });

test('a device too slow to plan names what was typed, in English and Chinese, never Infinity', async () => {
  const hp = await require(modulePath)();
  const cases = [
    [{ model: 'mistral-7b', quant: 'Q4_K_M', devices: ['rtx-3090', { id: 'rtx-3060-12gb', avg_ts: 1e-300 }] },
      { code: 'too_small', field: 'avg_ts', index: 1, limit: 1e-15 },
      "avg_ts, device 2: must be at least 1e-15, or the device's layer times add up past 1e15 (got 1e-300)",
      'avg_ts，第 2 台设备：至少为 1e-15，否则该设备的层时间之和超过 1000000000000000（输入为 1e-300）'],
    // A subnormal is no number the core reads: too small to read, in any field.
    [{ model: 'mistral-7b', quant: 'Q4_K_M', devices: ['rtx-3090', { id: 'rtx-3060-12gb', avg_ts: 5e-324 }] },
      { code: 'too_small', field: 'avg_ts', index: 1, limit: 2.2250738585072014e-308 },
      'avg_ts, device 2: is too small to read (got 5e-324): a number other than 0 must be at least 2.2250738585072014e-308 in size',
      'avg_ts，第 2 台设备：太小，无法读取（输入为 5e-324）：非 0 的数绝对值至少为 2.2250738585072014e-308'],
    [{ model: 'llama-3.1-8b', quant: 'Q4_K_M', devices: ['rtx-4080'], calibration: [record(1e-300)] },
      { code: 'too_small', field: 'calibration', index: 0 },
      'calibration, record 1: avg_ts must be at least 9.868060665978574e-16, or the layer times of the device it calibrates add up past 1e15 (got 1e-300)',
      '校准记录，第 1 条记录：avg_ts 至少为 9.868060665978574e-16，否则它所校准设备的层时间之和超过 1000000000000000（输入为 1e-300）'],
  ];
  for (const [input, fields, english, chinese] of cases) {
    let error;
    try { hp.plan(input); } catch (e) { error = e; }
    assert.ok(error instanceof Error, JSON.stringify(input));
    for (const [key, value] of Object.entries(fields)) assert.equal(error[key], value, key);
    assert.ok(Number.isFinite(error.limit) && Number.isFinite(error.value));
    assert.equal(error.message, english);
    assert.equal(zh.error(error, hp.limits), chinese);
  }
  // The explicit form's fastest layer: worded as the English is, not as the calculator's largest stage time.
  let tiny;
  try {
    hp.plan({ devices: [{ layer_times: [1e-300, 1e-301], memory_capacity: 1 }], layer_memory: [0, 0], links: [], cut_bytes: [0] });
  } catch (e) { tiny = e; }
  assert.equal(tiny.message, 'layer_times: some layer must take at least 1e-15 even on its fastest device (got 1e-300)');
  assert.equal(zh.error(tiny, hp.limits), '层时间：某一层即使在最快的设备上也至少需要 1e-15（输入为 1e-300）');
  // A custom device's bandwidth: its roofline term is the larger.
  let error;
  try {
    hp.plan({ model: 'mistral-7b', quant: 'Q4_K_M', devices: [{ name: 'x', memory: 24e9, memory_bandwidth: 1e-300, fp16_flops: 1e13 }] });
  } catch (e) { error = e; }
  assert.equal(error.code, 'too_small');
  assert.equal(error.field, 'memory_bandwidth');
  assert.ok(Number.isFinite(error.limit));
  assert.doesNotMatch(error.message + zh.error(error, hp.limits), /inf|NaN/i);
});
