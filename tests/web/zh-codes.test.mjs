// Every error code the module can return has its own Chinese sentence, never the table's catch-all
// “输入无效（code）”; and the planner's limits that no other Chinese test reaches are worded from the
// error itself, beside the module's English.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chineseTable, modulePath, root } from './helpers.mjs';

const require = createRequire(import.meta.url);
const zh = chineseTable();

// The codes of the d.ts's ErrorCode union, the module's public list.
function declaredCodes() {
  const dts = readFileSync(path.join(root, 'wasm', 'types', 'heteropipe.d.ts'), 'utf8');
  const union = dts.slice(dts.indexOf('type ErrorCode ='), dts.indexOf(';', dts.indexOf('type ErrorCode =')));
  return [...union.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
}

test('every declared error code has a case of its own in the Chinese tables', () => {
  const tables = ['zh.js', 'tools-zh.js', 'trace-zh.js', 'sim-zh.js', 'planner-zh.js']
    .map((f) => readFileSync(path.join(root, 'web', 'i18n', f), 'utf8')).join('\n');
  const codes = declaredCodes();
  assert.ok(codes.length >= 57, `the union lists ${codes.length} codes`);
  const missing = codes.filter((code) => !tables.includes(`'${code}'`));
  assert.deepEqual(missing, []);
});

function planError(hp, input) {
  try {
    hp.plan(input);
  } catch (e) {
    return e;
  }
  assert.fail('hp.plan accepted ' + JSON.stringify(input).slice(0, 200));
}

test("the planner's sums, delays and order searches past their limits, in English and Chinese", async () => {
  const hp = await require(modulePath)();
  const device = (times) => ({ layer_times: times, memory_capacity: 100 });
  const link = { latency: 0.5, bandwidth: 2 };
  const base = { devices: [device([1, 1]), device([2, 2])], layer_memory: [1, 1], links: [link], cut_bytes: [4], M: 8 };
  // The table's numbers are written plainly here (helpers.mjs); the page groups them.
  const cases = [
    [{ ...base, devices: [device([6e14, 6e14]), device([1, 1])] },
      { code: 'sum_too_large', field: 'layer_times', index: 0, value: 1.2e15, limit: 1e15 },
      '层时间，第 1 台设备：各层时间之和为 1200000000000000，超过上限 1000000000000000'],
    [{ ...base, links: [{ latency: 0.5, bandwidth: 1e-15 }] },
      { code: 'delay_too_large', field: 'links', index: 0, value: 0.5 + 4 / 1e-15, limit: 1e15 },
      '链路，第 1 条链路：传输最大切分处的数据需要 4000000000000000，超过上限 1000000000000000'],
    [{ ...base, links: [{ latency: 0.5, bandwidth: 1e-300 }], cut_bytes: [1e10] },
      { code: 'delay_too_large', field: 'links', index: 0, value: Number.MAX_VALUE, limit: 1e15 },
      '链路，第 1 条链路：传输最大切分处的数据所需时间超出双精度数能表示的范围（延迟加上最大切分数据量除以带宽已溢出），' +
      '超过上限 1000000000000000'],
    [{ ...base, order: 'search', devices: Array.from({ length: 7 }, (_, s) => device(Array(8).fill(1 + s))),
      links: Array.from({ length: 6 }, () => link), layer_memory: Array(8).fill(1), cut_bytes: Array(7).fill(4) },
      { code: 'too_many_to_order', field: 'order', value: 7, limit: hp.limits.max_order_search_devices },
      'order：尝试所有设备顺序最多允许 6 台设备（输入了 7 台）'],
    // Six distinct devices: 720 orders x 6 x 243 layers, just past the bound.
    [{ ...base, order: 'search', devices: Array.from({ length: 6 }, (_, s) => device(Array(243).fill(1 + s))),
      links: Array.from({ length: 5 }, () => link), layer_memory: Array(243).fill(1), cut_bytes: Array(242).fill(1) },
      { code: 'order_search_too_large', field: 'order', value: 720 * 6 * 243, limit: hp.limits.max_order_search_work },
      'order：尝试所有不同的设备顺序需要 1049760 步（顺序数 × 设备数 × 层数），超过上限 1048576'],
  ];
  for (const [input, fields, chinese] of cases) {
    const e = planError(hp, input);
    for (const [key, value] of Object.entries(fields)) assert.equal(e[key], value, `${fields.code}: ${key}`);
    assert.equal(zh.error(e, hp.limits), chinese);
    assert.ok(!/NaN|Infinity|\binf\b/.test(e.message), e.message);
  }
});

// Hunt 8: a key given twice, a device too fast to plan, and a trace file's refused whole numbers
// quoted as typed, each in English and Chinese.
test('a duplicate key, a too-fast device and a file number quoted as typed, in English and Chinese', async () => {
  const hp = await require(modulePath)();
  require(path.join(root, 'web', 'i18n', 'trace-zh.js'));
  const thrown = (call) => { try { call(); } catch (e) { return e; } return assert.fail('accepted'); };
  const planned = [
    ['{"devices":[{"layer_times":[1],"memory_capacity":1}],"layer_memory":[1],"M":1,"M":2}',
      "M: key 'M' is given a second time in its object (which of its values holds is not defined)",
      'M：键“M”在同一对象中第二次给出（以哪个值为准没有定义）'],
    [{ model: 'mistral-7b', quant: 'Q4_K_M', devices: ['rtx-3090', { id: 'rtx-3060-12gb', layer_time: 0 }], M: 8 },
      'layer_time, device 2: must be at least 1e-15 (got 0)', 'layer_time，第 2 台设备：至少为 1e-15（输入为 0）'],
    [{ model: 'mistral-7b', quant: 'Q4_K_M', devices: ['rtx-3090', { id: 'rtx-3060-12gb', avg_ts: 1e15 }], M: 8 },
      'avg_ts, device 2: must be at most 3.124e13 (got 1000000000000000)',
      'avg_ts，第 2 台设备：最大为 31240000000000（输入为 1000000000000000）'],
  ];
  for (const [input, english, chinese] of planned) {
    const e = thrown(() => hp.plan(input));
    assert.equal(e.message, english);
    assert.equal(zh.error(e, hp.limits), chinese);
  }
  const file = (text) => [{ name: 'a', bytes: new TextEncoder().encode(text) }];
  const traced = [
    ['{"baseTimeNanoseconds":9000000000000000001,"traceEvents":[]}',
      'a, byte 23: baseTimeNanoseconds must be between 0 and 9e18 (got 9000000000000000001)',
      '文件“a”，第 23 字节：baseTimeNanoseconds 超出范围（输入为 9000000000000000001）'],
    ['{"distributedInfo":{"rank":1.50},"traceEvents":[]}', 'a, byte 27: rank must be a whole number (got 1.50)',
      '文件“a”，第 27 字节：rank 必须是整数（输入为 1.50）'],
    ['stage,microbatch,kind,start_s,end_s\n0,0,compute,1000000000000,2\n',
      'a, line 2: start must be at most 100,000,000,000 (got 1000000000000)',
      '文件“a”，第 2 行：start 最大为 100000000000（输入为 1000000000000）'],
  ];
  for (const [text, english, chinese] of traced) {
    const e = thrown(() => hp.importTrace(file(text)));
    assert.equal(e.message, english);
    assert.equal(zh.trace.error(e, hp.limits), chinese);
  }
});
