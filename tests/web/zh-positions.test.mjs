// Positions of two-dimensional and per-stage inputs, in both languages through the whole module: a
// replayed matrix's bad cell (service_matrix, link_matrix) by its row (the micro-batch) and its column
// (the stage, or the link), where the error once named the row alone; a whole row's error names the
// row; a measured run's clock offset by its stage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { chineseTable, modulePath, root } from './helpers.mjs';

const require = createRequire(import.meta.url);
const zh = chineseTable();

test("a matrix's bad cell names its row and column, in English and Chinese", async () => {
  const hp = await require(modulePath)();
  const cases = [
    [{ tau: [1, 2, 3], M: 2, service_matrix: [[1, 2, 3], [4, 5, -6]] },
      { code: 'negative', field: 'service_matrix', index: 1, column: 2 },
      'service_matrix, row 2, column 3: must be >= 0 (got -6)',
      '服务时间矩阵，第 2 行第 3 列：必须 ≥ 0（输入为 -6）'],
    [{ tau: [1, 2, 3], M: 2, link_matrix: [[1, NaN], [3, 4]] },
      { code: 'not_finite', field: 'link_matrix', index: 0, column: 1 },
      'link_matrix, row 1, column 2: must be a finite number (got NaN)',
      '传输时间矩阵，第 1 行第 2 列：必须是有限数（输入为 NaN）'],
    // A value that is no number at all is not_a_number, as in Python (it was not_finite).
    [{ tau: [1, 2, 3], M: 2, link_matrix: [[1, 'x'], [3, 4]] },
      { code: 'not_a_number', field: 'link_matrix', index: 0, column: 1 },
      'link_matrix, row 1, column 2: \'"x"\' is not a number',
      '传输时间矩阵，第 1 行第 2 列：“"x"”不是数字'],
    [{ tau: [1, 2, 3], M: 2, link_matrix: [[1, 2], [3]] },
      { code: 'wrong_length', field: 'link_matrix', index: 1, column: null },
      'link_matrix, row 2: needs S-1 = 2 values, one per link (got 1)',
      '传输时间矩阵，第 2 行：需要 2 个值（输入了 1 个）'],
  ];
  for (const [input, fields, english, chinese] of cases) {
    let error;
    try { hp.simulate(input); } catch (e) { error = e; }
    assert.ok(error instanceof Error, JSON.stringify(input));
    for (const [key, value] of Object.entries(fields)) assert.equal(error[key], value, key);
    assert.equal(error.message, english);
    assert.equal(zh.error(error, hp.limits), chinese);
  }
});

// The measured run's clock offsets, one per stage: the count and the stage (they read as the CSV's
// five values a row and as a pattern's character), and a finite offset past the limit.
test('a bad clock offset names its stage, in English and Chinese', async () => {
  const hp = await require(modulePath)();
  require(path.join(root, 'web', 'i18n', 'trace-zh.js'));
  const synthetic = [0, 1, 2].map((r) => {
    const raw = readFileSync(path.join(root, 'tests', 'data', 'traces', 'synthetic', `rank-${r}.json.gz`));
    return { name: `rank-${r}.json.gz`, bytes: new Uint8Array(gunzipSync(raw)) };
  });
  const cases = [
    [[0, 0], 'clock_offsets: needs S = 3 offsets, one per stage, or none (got 2)',
      '时钟偏移：需要 S = 3 个偏移（每个阶段一个），或者留空（输入了 2 个）'],
    [[0, 1e15, 0], 'clock_offsets, stage 2: must be at most 1e14 (got 1e+15)',
      '时钟偏移，第 2 个阶段：最大为 100000000000000（输入为 1000000000000000）'],
  ];
  for (const [offsets, english, chinese] of cases) {
    let error;
    try { hp.importTrace(synthetic, { clock_offsets: offsets }); } catch (e) { error = e; }
    assert.ok(error instanceof Error, JSON.stringify(offsets));
    assert.equal(error.message, english);
    assert.equal(zh.trace.error(error, hp.limits), chinese);
  }
});

// An option typed as text that is no number: quoted in both languages, as the CLI's --profiler-step x.
test('a profiler step that is no number is quoted as typed, in English and Chinese', async () => {
  const hp = await require(modulePath)();
  require(path.join(root, 'web', 'i18n', 'trace-zh.js'));
  const steps = [0, 1].map((r) => {
    const name = `torch_steps_rank-${r}.json`;
    return { name, bytes: new Uint8Array(readFileSync(path.join(root, 'tests', 'cli', 'traces', name))) };
  });
  let error;
  try { hp.importTrace(steps, { microbatch: '^microbatch_([0-9]+)$', profiler_step: 'x' }); } catch (e) { error = e; }
  assert.ok(error instanceof Error);
  assert.equal(error.message, "profiler_step: 'x' is not a number");
  assert.equal(zh.trace.error(error, hp.limits), '分析步：“x”不是数字');
});

// A file's number typed as a string: quoted as typed in both languages, the file's label kept apart.
test("a trace file's mistyped number is quoted as typed, in English and Chinese", async () => {
  const hp = await require(modulePath)();
  require(path.join(root, 'web', 'i18n', 'trace-zh.js'));
  const cases = [
    ['[{"ph":"X","name":"k","ts":"NaN","dur":2}]', 'r.json, byte 27: ts has the wrong type of value (got "NaN")',
      '文件“r.json”，第 27 字节：ts 的值类型不对（输入为 "NaN"）'],
    ['{"traceEvents":null}', 'r.json, byte 15: traceEvents must be a list of event objects (got null)',
      '文件“r.json”，第 15 字节：traceEvents 必须是事件对象的列表（输入为 null）'],
  ];
  for (const [text, english, chinese] of cases) {
    let error;
    try { hp.importTrace([{ name: 'r.json', bytes: new TextEncoder().encode(text) }]); } catch (e) { error = e; }
    assert.ok(error instanceof Error, text);
    assert.equal(error.token, 'r.json');
    assert.equal(error.message, english);
    assert.equal(zh.trace.error(error, hp.limits), chinese);
  }
});
