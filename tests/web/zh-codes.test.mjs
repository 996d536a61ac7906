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
      '层时间，第 1 项：各层时间之和为 1200000000000000，超过上限 1000000000000000'],
    [{ ...base, links: [{ latency: 0.5, bandwidth: 1e-15 }] },
      { code: 'delay_too_large', field: 'links', index: 0, value: 0.5 + 4 / 1e-15, limit: 1e15 },
      '链路，第 1 项：传输最大切分处的数据需要 4000000000000000，超过上限 1000000000000000'],
    [{ ...base, links: [{ latency: 0.5, bandwidth: 1e-310 }] },
      { code: 'delay_too_large', field: 'links', index: 0, value: Number.MAX_VALUE, limit: 1e15 },
      '链路，第 1 项：传输最大切分处的数据所需时间超出双精度数能表示的范围（延迟加上最大切分数据量除以带宽已溢出），' +
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
