// The "Measured run" section: loaded only when a trace is dropped or chosen; the recovered tau, d, M
// and T_real are the whole module's hp.importTrace for the same bytes (and the CLI's goldens); "Fill
// the calculator" puts them into the fields and the results follow; the real HTA traces give what
// the native tests assert; a bad file is the core's coded error naming the file and the byte, in
// both languages; plain files go to the worker as Files, with the progress bar filling; a gzip bomb
// stops at the limit; Cancel ends an import; axe finds no violations. The torch example's own
// per-rank traces (scripts/test.sh keeps them in build/torch-pipeline) import as its 2 stages and M,
// and its --steps 2 run's second step, chosen in the options, as the CLI imports it; the step stays
// in the permalink.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createGzip, gunzipSync } from 'node:zlib';
import { launch, open, fileBase, root, modulePath, settled, readyCount, pageValues, expectedValues, axeViolations, artifactDir, PAGES } from './helpers.mjs';

const traces = path.join(root, 'tests', 'data', 'traces');
const bad = path.join(root, 'tests', 'cli', 'traces');
const SYNTHETIC = [0, 1, 2].map((r) => path.join(traces, 'synthetic', `rank-${r}.json.gz`));
const REAL = [0, 1].map((r) => path.join(traces, `hta_sampled_rank-${r}.json.gz`));
// torch 2.x's form, peers named: the last stage returns its results to stage 0 (tests/cli/golden/trace_kineto_peers.txt).
const PEERS = [0, 1, 2].map((r) => path.join(bad, `kineto_peers_rank-${r}.json`));
// The real run of examples/torch-pipeline that scripts/test.sh imports with the CLI just before
// (tests/examples/torch_pipeline_test.py --keep), one folder per send mode; run here when absent.
const TORCH = process.env.HETEROPIPE_TORCH_RUN || path.join(root, 'build', 'torch-pipeline');
const TORCH_MODES = ['blocking', 'async'];
const MICROBATCH = '^microbatch_([0-9]+)$';
// The --steps 2 run: one file per rank holding two profiler steps.
const STEPS = path.join(TORCH, 'steps');
const CLI = path.join(root, 'build', 'native', 'cli', 'heteropipe');

let context, full;
before(async () => {
  for (const mode of TORCH_MODES) {
    if (existsSync(path.join(TORCH, mode, 'run.json'))) continue;
    execFileSync('/usr/bin/python3', [path.join(root, 'examples', 'torch-pipeline', 'pipeline.py'), '--mode', mode, '--stages', '2',
      '--microbatches', '16', '--width', '384', '--batch', '384', '--out', path.join(TORCH, mode)], { stdio: 'ignore' });
  }
  if (!existsSync(path.join(STEPS, 'run.json'))) {
    execFileSync('/usr/bin/python3', [path.join(root, 'examples', 'torch-pipeline', 'pipeline.py'), '--steps', '2', '--stages', '2',
      '--microbatches', '16', '--width', '384', '--batch', '384', '--out', STEPS], { stdio: 'ignore' });
  }
  const require = createRequire(import.meta.url);
  [context, full] = await Promise.all([launch(), require(modulePath)()]);
});
after(async () => { await context?.close(); });

// What the page hands the module: each file by its name, inflated.
const inflated = (paths) => paths.map((p) => {
  const raw = readFileSync(p);
  return { name: path.basename(p), bytes: new Uint8Array(p.endsWith('.gz') ? gunzipSync(raw) : raw) };
});

// The CLI's --json golden: the JSON between "# stdout:" and "# stderr:".
function golden(name) {
  const text = readFileSync(path.join(root, 'tests', 'cli', 'golden', name), 'utf8');
  return JSON.parse(text.slice(text.indexOf('# stdout:') + 9, text.indexOf('# stderr:')));
}

// The module's error for these bytes.
function refusal(files) {
  try { full.importTrace(files, { unit: 'ms' }); } catch (e) { return e; }
  assert.fail('the module accepted the file');
}

// Imports answered so far, and a wait for the next answer (a result or an error).
const answered = (page) => page.evaluate(() => Number(document.getElementById('trace-body')?.dataset.answered || 0));
const answer = (page, n) => page.waitForFunction((k) => Number(document.getElementById('trace-body')?.dataset.answered || 0) > k, n);

async function choose(page, files) {
  const n = await answered(page);
  await page.setInputFiles('#trace-files', files);
  await answer(page, n);
}

// The same files dropped on the drop zone, as a person drags them from the file manager.
async function drop(page, paths) {
  const files = paths.map((p) => ({ name: path.basename(p), bytes: Array.from(readFileSync(p)) }));
  const dataTransfer = await page.evaluateHandle((fs) => {
    const dt = new DataTransfer();
    fs.forEach((f) => dt.items.add(new File([Uint8Array.from(f.bytes)], f.name)));
    return dt;
  }, files);
  const n = await answered(page);
  await page.dispatchEvent('#trace-drop', 'drop', { dataTransfer });
  await answer(page, n);
}

// The summary's values as the page holds them (data-value: the core's numbers, unformatted).
async function summary(page) {
  return page.$$eval('.trace-summary [data-key]', (els) => Object.fromEntries(els.map((e) => [e.dataset.key, e.dataset.value])));
}

const csv = (xs) => Array.from(xs, String).join(',');

function assertRecovered(shown, t) {
  assert.equal(shown.tau, csv(t.tau));
  assert.equal(shown.d, csv(t.d));
  assert.equal(shown.M, String(t.M));
  assert.equal(shown.T_real, String(t.T_real));
  assert.equal(shown.clock_offsets, csv(t.clock_offsets));
  assert.equal(shown.bounds, csv([t.analysis.T_async, t.analysis.T_block]));
}

for (const p of PAGES) {
  test(`${p.name}: a synthetic per-rank .json.gz set imports as the module and the CLI import it, and fills the calculator`, async () => {
    const { page, problems, requests } = await open(context, fileBase + p.file);
    assert.ok(!requests.some((u) => /\/heteropipe\.js|trace-page\.js|trace-(en|zh)\.js/.test(u)), 'nothing of the section is in the first load');
    await (p.name === 'en' ? choose : drop)(page, SYNTHETIC);
    const expected = full.importTrace(inflated(SYNTHETIC), { stat: 'min', unit: 'ms' });
    const cli = golden('trace_synthetic_json.txt');
    assert.deepEqual([expected.tau, expected.d, expected.M, expected.T_real], [cli.tau, cli.d, cli.M, cli.T_real]);
    assertRecovered(await summary(page), expected);
    assert.equal(await page.textContent('.trace-headline'), p.name === 'en'
      ? 'A pipeline of 3 stages and 8 micro-batches: T_real = 23 ms, inside the sandwich T_async ≤ T_real ≤ T_block.'
      : '流水线共 3 个阶段、8 个微批次：T_real = 23 ms，位于夹逼区间 T_async ≤ T_real ≤ T_block 之内。');

    // Both schedules drawn, every micro-batch on every stage, on one time axis.
    const bars = (id) => page.$$eval(`#${id} path.mb`, (ps) => ps.reduce((n, x) => n + Number(x.dataset.bars), 0));
    assert.equal(await bars('trace-m'), expected.M * expected.tau.length);
    assert.equal(await bars('trace-x'), expected.M * expected.tau.length);
    const ticks = (id) => page.$$eval(`#${id} text.tick`, (ts) => ts.map((t) => t.textContent + '@' + t.getAttribute('x')));
    assert.deepEqual(await ticks('trace-m'), await ticks('trace-x'));
    await page.selectOption('#trace-regime', 'blocking');
    await page.waitForSelector('#trace-x path.blocked');

    // Into the calculator: the fields, the unit, and the results of the module's analysis.
    const before = await readyCount(page);
    await page.click('#trace-use');
    await settled(page, before);
    assert.equal(await page.inputValue('#tau'), expected.tau.join(', '));
    assert.equal(await page.inputValue('#d'), expected.d.join(', '));
    assert.equal(await page.inputValue('#M'), String(expected.M));
    assert.equal(await page.inputValue('#T_real'), String(expected.T_real));
    assert.equal(await page.inputValue('#unit'), 'ms');
    await page.waitForFunction(() => !document.querySelector('#results .stale'));
    assert.deepEqual(await pageValues(page), expectedValues(full.analyze({ tau: expected.tau, d: expected.d, M: expected.M, rho: 1, T_real: expected.T_real })));
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`${p.name}: the real HTA traces give the native tests' pipeline, ranks and warning`, async () => {
    const { page, problems } = await open(context, fileBase + p.file);
    await choose(page, REAL);
    const expected = full.importTrace(inflated(REAL), { stat: 'p50', unit: 'ms' });
    // tests/io/trace_files_test.cpp and tests/cli/golden/trace_real_hta.txt.
    assert.equal(expected.pipeline, true);
    assert.deepEqual([expected.tau, expected.M, expected.T_real, expected.position], [[48.972, 75.7965], 10, 1231.165, 'above_block']);
    assertRecovered(await summary(page), expected);
    const ranks = await page.$$eval('.trace-scroll:last-of-type tbody tr', (rows) => rows.map((r) => Array.from(r.cells).slice(0, 3).map((c) => c.textContent)));
    const stage = (n) => (p.name === 'en' ? 'S' + n : '第 ' + n + ' 阶段');
    assert.deepEqual(ranks, [['0', stage(1), '1154'], ['1', stage(2), '1104']]);
    const warnings = await page.$$eval('.trace-warnings li', (li) => li.map((x) => x.textContent));
    assert.deepEqual(warnings, p.name === 'en' ? expected.warnings.map((w) => w.message)
      : ['只找到 2 个 rank，作业的 world_size 为 128', '链路 0：各对传输给出的时钟界限相互矛盾（接收方的偏移须至少为 1.75，至多为 -116.539）；时钟有漂移或配对有误']);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`${p.name}: results returned to stage 0 are set aside, and the warnings say so`, async () => {
    const { page, problems } = await open(context, fileBase + p.file);
    await choose(page, PEERS);
    const expected = full.importTrace(inflated(PEERS), { unit: 'ms' });
    assert.deepEqual([expected.tau, expected.M, expected.T_real], [[0.1, 0.3, 0.2], 4, 1.55]);
    assertRecovered(await summary(page), expected);
    const warnings = await page.$$eval('.trace-warnings li', (li) => li.map((x) => x.textContent));
    assert.deepEqual(warnings, p.name === 'en' ? expected.warnings.map((w) => w.message)
      : ['最后一个阶段发往阶段 0 的 4 条消息和阶段 0 的 4 次接收是返回给阶段 0 的结果，已搁置：流水线只由各阶段到下一阶段的链路构成',
        '2 次传输标明的对端不是相邻阶段，已搁置']);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`${p.name}: T_real explained first, as a sentence and a stacked bar that draws a negative part leftwards`, async () => {
    const { page, problems } = await open(context, fileBase + p.file);
    await choose(page, REAL);
    const expected = full.importTrace(inflated(REAL), { unit: 'ms' });
    // tests/cli/golden/trace_real_hta.txt: 822.663 + 271.908 + 136.594 + 0 = 1231.165.
    assert.deepEqual(expected.explain.map((x) => x.cause), ['model', 'variability', 'blocking', 'other']);
    assert.equal(expected.explain[3].time, 0);
    assert.equal(await page.textContent('.trace-explain-sentence'), p.name === 'en'
      ? 'T_real 1,231.17 ms = model 822.663 + variability 271.908 + blocking 136.594 + other 0 ms'
      : 'T_real 1,231.17 ms ＝ 模型 822.663 ＋ 波动 271.908 ＋ 阻塞 136.594 ＋ 其他 0 ms');
    // The explanation comes before the headline and the summary.
    assert.deepEqual(await page.$$eval('#trace-result > *', (els) => els.slice(1, 3).map((e) => e.className)),
      ['trace-explain', 'trace-headline']);
    const parts = () => page.$$eval('.explain-bar rect.part', (rs) => rs.map((r) => ({
      cause: r.dataset.cause, time: Number(r.dataset.time), x: Number(r.getAttribute('x')), w: Number(r.getAttribute('width')),
      negative: r.classList.contains('negative') })));
    const total = () => page.$eval('.explain-bar .explain-total', (l) => Number(l.getAttribute('x1')));
    let bars = await parts();
    // A part of 0 takes no room; the others stack from 0 in order, as wide as their times.
    assert.deepEqual(bars.map((b) => [b.cause, b.time, b.negative]), expected.explain.slice(0, 3).map((x) => [x.cause, x.time, false]));
    for (let i = 1; i < bars.length; i++) assert.ok(Math.abs(bars[i].x - (bars[i - 1].x + bars[i - 1].w)) < 0.02);
    assert.ok(Math.abs(bars[1].w / bars[0].w - expected.explain[1].time / expected.explain[0].time) < 1e-3);
    assert.ok(Math.abs(await total() - (bars[2].x + bars[2].w)) < 0.02);
    assert.equal(await page.$eval('.explain-bar', (s) => s.getAttribute('aria-label')), await page.textContent('.trace-explain-sentence'));

    // A run that beat its own replay (tests/core/trace_replay_test.cpp, worked by hand): other is -1,
    // drawn leftwards from the sum 16 and hatched, and T_real ends the bar at 15.
    const dir = mkdtempSync(path.join(tmpdir(), 'hp-explain-'));
    try {
      const csvFile = path.join(dir, 'beat.csv');
      writeFileSync(csvFile, 'stage,microbatch,kind,start,end\n0,0,compute,0,2\n0,1,compute,2,6\n0,2,compute,6,8\n' +
        '0,0,transfer,2,3\n0,1,transfer,6,7\n0,2,transfer,8,11\n1,0,compute,3,6\n1,1,compute,7,10\n1,2,compute,10,15\n');
      await choose(page, [csvFile]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // The page's unit is ms: the CSV's microseconds are thousandths.
    assert.equal(await page.textContent('.trace-explain-sentence'), p.name === 'en'
      ? 'T_real 0.015 ms = model 0.012 + variability 0.004 + blocking 0 + other -0.001 ms'
      : 'T_real 0.015 ms ＝ 模型 0.012 ＋ 波动 0.004 ＋ 阻塞 0 ＋ 其他 -0.001 ms');
    bars = await parts();
    assert.deepEqual(bars.map((b) => [b.cause, b.negative]), [['model', false], ['variability', false], ['other', true]]);
    const [model, variability, other] = bars;
    // The sum before `other` is 16 (model 12 + variability 4): the negative part ends there and reaches back to 15.
    assert.ok(Math.abs(other.x + other.w - (variability.x + variability.w)) < 0.02);
    assert.ok(Math.abs(other.w / model.w - 1 / 12) < 1e-3);
    assert.ok(Math.abs(await total() - other.x) < 0.02);
    assert.equal(await page.$eval('.explain-bar rect.negative', (r) => getComputedStyle(r).fill), 'url("#explain-negative")');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`${p.name}: the torch example's own traces import as its 2 stages and M, and T_real is explained in full`, async () => {
    const { page, problems } = await open(context, fileBase + p.file);
    for (const mode of TORCH_MODES) {
      const dir = path.join(TORCH, mode);
      const run = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8'));
      const files = [0, 1].map((r) => path.join(dir, `rank-${r}.json`));
      await choose(page, files);
      if (mode === TORCH_MODES[0]) {
        // The micro-batch ranges named in the options, as docs/traces.md's tutorial says; they stay for the next files.
        await page.click('.trace-options summary');
        await page.fill('#trace-microbatch', MICROBATCH);
        const n = await answered(page);
        await page.click('#trace-again');
        await answer(page, n);
      }
      const expected = full.importTrace(inflated(files), { microbatch: MICROBATCH, unit: 'ms' });
      assert.deepEqual([expected.pipeline, expected.tau.length, expected.M], [true, run.stages, run.microbatches], mode);
      assert.equal(run.stages, 2);
      assertRecovered(await summary(page), expected);
      // A measured ratio outside [0, 1] says it is no overlap ratio, as the calculator says (it read as one).
      for (const key of ['overlap_ratio', 'overlap_ratio_replay']) {
        const x = expected[key];
        if (x === undefined) continue;
        const said = await page.$eval(`.trace-summary [data-key="${key}"] small`, (e) => e.textContent).catch(() => null);
        assert.equal(said, x < 0 || x > 1 ? (p.name === 'en'
          ? 'outside [0, 1]: the run is outside the model, so this is no overlap ratio'
          : '超出 [0, 1]：该运行已在模型之外，不能视为重叠率') : null, `${mode} ${key} ${x}`);
      }
      // The parts sum to T_real, in the module's result and as the page draws them (a part of 0 is not drawn).
      assert.deepEqual(expected.explain.map((x) => x.cause), ['model', 'variability', 'blocking', 'other']);
      const sum = (xs) => xs.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum(expected.explain.map((x) => x.time)) - expected.T_real) <= 1e-9 * expected.T_real, mode);
      const drawn = await page.$$eval('.explain-bar rect.part', (rs) => rs.map((r) => Number(r.dataset.time)));
      assert.ok(Math.abs(sum(drawn) - Number((await summary(page)).T_real)) <= 1e-9 * expected.T_real, `${mode}: ${drawn}`);
      const v = String.raw`-?[0-9][0-9,]*(\.[0-9]+)?`;
      assert.match(await page.textContent('.trace-explain-sentence'), new RegExp(p.name === 'en'
        ? `^T_real ${v} ms = model ${v} \\+ variability ${v} \\+ blocking ${v} \\+ other ${v} ms$`
        : `^T_real ${v} ms ＝ 模型 ${v} ＋ 波动 ${v} ＋ 阻塞 ${v} ＋ 其他 ${v} ms$`));
      if (mode === TORCH_MODES[TORCH_MODES.length - 1]) {
        // Into the calculator as a person types them: every digit the trace holds, no float noise
        // (a median's halving wrote 5.4815000000000005 where the section showed 5.4815).
        const before = await readyCount(page);
        await page.click('#trace-use');
        await settled(page, before);
        const typed = (xs) => xs.map((x) => String(Number(x.toPrecision(12)))).join(', ');
        assert.equal(await page.inputValue('#tau'), typed(expected.tau));
        assert.equal(await page.inputValue('#d'), typed(expected.d));
        for (const item of (await page.inputValue('#tau')).split(', ')) {
          assert.ok(item.replace(/[^0-9]/g, '').replace(/^0+/, '').length <= 12, item);
        }
      }
    }
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`${p.name}: the profiler step typed in the options imports that step, as the CLI does, and the link keeps it`, async () => {
    const files = [0, 1].map((r) => path.join(STEPS, `rank-${r}.json`));
    // The CLI's imports: the first step by default, whose warning names the steps; the second by --profiler-step.
    const cli = (...more) => JSON.parse(execFileSync(CLI, ['trace', '--json', '--unit', 'ms', '--microbatch', MICROBATCH, ...more, ...files],
      { encoding: 'utf8' }));
    const first = cli();
    const steps = first.warnings.find((w) => w.code === 'profiler_steps');
    assert.deepEqual([steps.value, steps.limit], [2, steps.index + 1]);
    const second = cli('--profiler-step', String(steps.limit));
    assert.ok(second.pipeline);
    assert.notEqual(second.T_real, first.T_real);
    const { page, problems } = await open(context, fileBase + p.file);
    await choose(page, files);
    await page.click('.trace-options summary');
    await page.fill('#trace-microbatch', MICROBATCH);
    const imported = async () => {
      const n = await answered(page);
      await page.click('#trace-again');
      await answer(page, n);
    };
    await imported();
    assertRecovered(await summary(page), first);
    await page.fill('#trace-profiler_step', String(steps.limit));
    await imported();
    assertRecovered(await summary(page), second);
    // The options as typed are in the link; a page opened by it imports the files with them.
    const hash = await page.evaluate(() => location.hash);
    assert.deepEqual(JSON.parse(new URLSearchParams(hash.slice(1)).get('trace')), { microbatch: MICROBATCH, profiler_step: String(steps.limit) });
    const again = await open(context, fileBase + p.file + hash);
    await choose(again.page, files);
    assert.equal(await again.page.inputValue('#trace-profiler_step'), String(steps.limit));
    assertRecovered(await summary(again.page), second);
    // The options as reopened, at a wide and a phone width: every field inside the section (and a
    // screenshot to look at in build/test-artifacts).
    await again.page.click('.trace-options summary');
    const artifacts = await artifactDir();
    for (const [width, height] of [[1366, 900], [390, 844]]) {
      await again.page.setViewportSize({ width, height });
      const section = again.page.locator('#measured-run');
      const overflow = await section.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return [...el.querySelectorAll('.trace-options input, .trace-options select')]
          .map((f) => f.getBoundingClientRect()).filter((r) => r.left < box.left - 1 || r.right > box.right + 1).length;
      });
      assert.equal(overflow, 0, `${width}: an option field past the section's edge`);
      await section.screenshot({ path: path.join(artifacts, `trace-options-${p.name}-${width}.png`) });
    }
    assert.deepEqual(again.problems, []);
    await again.page.close();
    // A step the files lack: the core's coded error, its sentence in each language.
    await page.fill('#trace-profiler_step', '7');
    await imported();
    let missing = null;
    try { full.importTrace(inflated(files), { microbatch: MICROBATCH, unit: 'ms', profiler_step: 7 }); } catch (e) { missing = e; }
    assert.deepEqual([missing.code, missing.field, missing.index, missing.value, missing.limit], ['unknown_id', 'profiler_step', 0, 7, steps.limit]);
    // Each names the option by its label on the form, and marks it.
    const step = p.name === 'en' ? 'Profiler step (N of ProfilerStep#N)' : '分析步（ProfilerStep#N 的 N）';
    const byLabel = (e) => step + e.message.slice('profiler_step'.length);
    assert.equal(await page.textContent('#trace-result .error'), p.name === 'en' ? byLabel(missing)
      : `${step}：第 1 个文件中没有 ProfilerStep#7（这些文件的最后一步是 ProfilerStep#${steps.limit}）`);
    assert.equal(await page.getAttribute('#trace-profiler_step', 'aria-invalid'), 'true');
    assert.equal(await page.getAttribute('#trace-profiler_step', 'aria-describedby'), 'trace-error');
    // Text that is no number: refused by the core as the CLI's --profiler-step two is, quoting what was typed.
    await page.fill('#trace-profiler_step', 'two');
    await imported();
    let typed = null;
    try { full.importTrace(inflated(files), { microbatch: MICROBATCH, unit: 'ms', profiler_step: 'two' }); } catch (e) { typed = e; }
    assert.deepEqual([typed.code, typed.field, typed.token, typed.message], ['not_a_number', 'profiler_step', 'two', "profiler_step: 'two' is not a number"]);
    assert.equal(await page.textContent('#trace-result .error'), p.name === 'en' ? `${step}: 'two' is not a number` : `${step}：“two”不是数字`);
    // A number past the doubles goes as typed too: out of its range from 0 (ProfilerStep#0) as 1e20 is, never
    // Infinity, quoted as typed in Chinese too (it said "（输入为 0）").
    await page.fill('#trace-profiler_step', '1e400');
    await imported();
    let huge = null;
    try { full.importTrace(inflated(files), { microbatch: MICROBATCH, unit: 'ms', profiler_step: '1e400' }); } catch (e) { huge = e; }
    assert.deepEqual([huge.code, huge.field, huge.token, huge.message], ['out_of_range', 'profiler_step', '1e400', 'profiler_step: must be between 0 and 2^53 (got 1e400)']);
    assert.equal(await page.textContent('#trace-result .error'), p.name === 'en' ? byLabel(huge) : `${step}：必须在 0 到 2^53 之间（输入为 1e400）`);
    await page.fill('#trace-profiler_step', '-1');
    await imported();
    assert.equal(await page.textContent('#trace-result .error'), p.name === 'en' ? `${step}: must be between 0 and 2^53 (got -1)` : `${step}：必须在 0 到 2^53 之间（输入为 -1）`);
    // A pattern's error names its option and the character at fault; a good import clears the mark.
    await page.fill('#trace-profiler_step', '');
    await page.fill('#trace-microbatch', 'mb([');
    await imported();
    const pattern = await page.textContent('#trace-result .error');
    if (p.name === 'en') assert.equal(pattern, "Micro-batch ranges (regex), character 4: 'mb([' is not a valid pattern");
    else assert.match(pattern, /^微批次区间（正则），第 4 个字符：/);
    assert.equal(await page.getAttribute('#trace-microbatch', 'aria-invalid'), 'true');
    assert.equal(await page.getAttribute('#trace-profiler_step', 'aria-invalid'), null);
    await page.fill('#trace-microbatch', MICROBATCH);
    await imported();
    assert.equal(await page.getAttribute('#trace-microbatch', 'aria-invalid'), null);
    assert.equal(await page.$('#trace-result .error'), null);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`${p.name}: a micro-batch pattern that matches no range says which range names the trace holds`, async () => {
    const cpu = [0, 1].map((r) => path.join(bad, `cpu_gloo_rank-${r}.json`));
    const none = full.importTrace(cpu.map((f) => ({ name: path.basename(f), bytes: new Uint8Array(readFileSync(f)) })),
      { microbatch: '^mb([0-9]+)$', unit: 'ms' });
    assert.deepEqual([none.reason, none.range_names], ['no_microbatch_ranges', [{ name: 'microbatch_0', count: 6 }]]);
    const { page, problems } = await open(context, fileBase + p.file);
    await choose(page, cpu);
    await page.click('.trace-options summary');
    await page.fill('#trace-microbatch', '^mb([0-9]+)$');
    const n = await answered(page);
    await page.click('#trace-again');
    await answer(page, n);
    const headline = await page.textContent('.trace-headline');
    if (p.name === 'en') {
      assert.equal(headline, 'No pipeline: ' + none.reason_message + '.');
    } else {
      assert.ok(headline.startsWith('不是流水线：某个阶段没有事件名称匹配微批次模式'), headline);
      assert.ok(headline.endsWith('；这些阶段最常见的区间名称（括号内为同一形式、仅数字不同的区间个数）：\'microbatch_0\'（6）。'), headline);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`${p.name}: a file that is no pipeline says why; bad files are coded errors naming the file and the byte`, async () => {
    const { page, problems } = await open(context, fileBase + p.file);
    await choose(page, [REAL[0]]);
    const one = full.importTrace(inflated([REAL[0]]), { unit: 'ms' });
    assert.deepEqual([one.pipeline, one.reason], [false, 'one_rank']);
    assert.equal(await page.textContent('.trace-headline'), p.name === 'en'
      ? 'No pipeline: fewer than two ranks were found, so there is no chain of stages.'
      : '不是流水线：找到的 rank 不到两个，没有阶段链。');

    const error = async () => page.textContent('#trace-result .error');
    // Truncated JSON: the core's not_json at the byte where reading stopped,
    // the text's end (limit: its length), so the file was cut short.
    await choose(page, [path.join(bad, 'truncated.json')]);
    const cut = refusal(inflated([path.join(bad, 'truncated.json')]));
    assert.equal(cut.code, 'not_json');
    assert.equal(cut.limit, cut.index);
    assert.equal(await error(), p.name === 'en' ? cut.message
      : `文件“truncated.json”，第 ${cut.index} 字节：不是有效的 JSON：文本在 JSON 中途结束，文件被截断了（某个 rank 崩溃，或追踪仍在写入）`);
    // Binary garbage, given a trace's name.
    const junk = { name: 'junk.json', mimeType: 'application/octet-stream', buffer: Buffer.from([0x00, 0xff, 0x13, 0x37, 0x42]) };
    await choose(page, junk);
    const garbage = refusal([{ name: 'junk.json', bytes: new Uint8Array(junk.buffer) }]);
    assert.equal(garbage.code, 'not_a_trace');
    assert.equal(await error(), p.name === 'en' ? garbage.message
      : `文件“junk.json”，第 ${garbage.index} 字节：既不是 trace JSON，也不是调度 CSV（stage,microbatch,kind,start,end）`);
    // A gzip file cut short: the browser's inflater stops; the error names the file.
    await choose(page, [path.join(bad, 'cut.json.gz')]);
    const size = readFileSync(path.join(bad, 'cut.json.gz')).length;
    assert.equal(await error(), p.name === 'en' ? `cut.json.gz, byte ${size}: the gzip data is damaged or cut short`
      : `文件“cut.json.gz”，第 ${size} 字节：gzip 数据已损坏或不完整`);
    // The section still imports after an error.
    await choose(page, SYNTHETIC);
    assert.ok(await page.$('.trace-summary'));
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('a gzip bomb stops at the limit while it inflates in the worker, with the core\'s coded error naming the file', async () => {
  // Zeros past the limit (max_trace_bytes) by a few chunks, compressed as they stream: about a megabyte.
  const limit = full.limits.max_trace_bytes, chunk = Buffer.alloc(1 << 20);
  const gzip = createGzip({ level: 1 }), parts = [];
  gzip.on('data', (b) => parts.push(b));
  for (let n = 0; n <= limit; n += chunk.length) if (!gzip.write(chunk)) await once(gzip, 'drain');
  gzip.end();
  await once(gzip, 'end');
  const dir = mkdtempSync(path.join(tmpdir(), 'hp-bomb-')), bomb = path.join(dir, 'bomb.json.gz');
  writeFileSync(bomb, Buffer.concat(parts));
  const size = statSync(bomb).size;
  const { page, problems } = await open(context, fileBase + 'calculator.html');
  await choose(page, SYNTHETIC);
  await choose(page, [bomb]);
  const e = await page.evaluate(async () => {
    const file = document.getElementById('trace-files').files[0];
    try { await heteropipePage.tools.run('importTrace', [[{ name: file.name, bytes: file }]]).promise; } catch (err) {
      return { code: err.code, field: err.field, token: err.token, index: err.index, value: err.value, limit: err.limit, message: err.message };
    }
    return null;
  });
  assert.ok(e, 'refused');
  assert.deepEqual([e.code, e.field, e.token, e.limit], ['too_large', 'trace', 'bomb.json.gz', limit]);
  assert.ok(e.value > e.limit && e.value <= e.limit + (1 << 20), String(e.value));
  assert.ok(e.index > 0 && e.index <= size, String(e.index));
  assert.equal(e.message, `bomb.json.gz, byte ${e.index}: more than 536,870,912 bytes once decompressed`);
  // The page shows the same refusal, and the worker's memory was not filled: the next import runs.
  assert.equal(await page.textContent('#trace-result .error'), e.message);
  await choose(page, SYNTHETIC);
  assert.ok(await page.$('.trace-summary'));
  assert.deepEqual(problems, []);
  await page.close();
  rmSync(dir, { recursive: true });
});

test('Cancel ends an import at once; the next one runs', async () => {
  const { page, problems } = await open(context, fileBase + 'calculator.html');
  await choose(page, SYNTHETIC);
  // About 20 MB of events: long enough to cancel while it is read.
  const event = '{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":1,"dur":1},\n';
  const big = Buffer.from('{"traceEvents":[' + event.repeat(280000) + event.slice(0, -2) + ']}');
  await page.setInputFiles('#trace-files', { name: 'big.json', mimeType: 'application/json', buffer: big });
  await page.waitForSelector('#trace-cancel:not([hidden])');
  await page.click('#trace-cancel');
  assert.equal(await page.textContent('#trace-status'), 'Cancelled.');
  assert.equal(await page.isHidden('#trace-cancel'), true);
  await page.waitForTimeout(300);
  assert.ok(await page.$('.trace-summary'), 'the last result stays');
  const n = await answered(page);
  await choose(page, SYNTHETIC);
  assert.equal(await answered(page), n + 1, 'the cancelled import never answered');
  assert.equal(await page.textContent('#trace-status'), '');
  assert.deepEqual(problems, []);
  await page.close();
});

test('plain JSON files go to the worker as Files: the same result as their text, and the progress bar fills', async () => {
  const { page, problems } = await open(context, fileBase + 'calculator.html');
  await choose(page, SYNTHETIC);
  const plain = inflated(SYNTHETIC).map((f) => ({ name: f.name.replace(/\.gz$/, ''), mimeType: 'application/json', buffer: Buffer.from(f.bytes) }));
  // The progress bar's values as they change (each change's value before it, then the last): the
  // share of the files read, then indeterminate.
  await page.evaluate(() => {
    window.seen = [];
    new MutationObserver((records) => records.forEach((r) => window.seen.push(r.oldValue === null ? 'indeterminate' : Number(r.oldValue))))
      .observe(document.getElementById('trace-progress'), { attributes: true, attributeFilter: ['value'], attributeOldValue: true });
  });
  await choose(page, plain);
  await page.evaluate(() => window.seen.push(document.getElementById('trace-progress').hasAttribute('value') ? 'a value' : 'indeterminate'));
  const expected = full.importTrace(inflated(SYNTHETIC), { stat: 'min', unit: 'ms' });
  assert.deepEqual([expected.tau, expected.M, expected.T_real], [[1, 2.5, 1.5], 8, 23]);
  assertRecovered(await summary(page), expected);
  assert.equal(await page.textContent('#trace-status'), '');
  // The first is the bar as the import before left it (indeterminate); this one starts from 0.
  const seen = (await page.evaluate(() => window.seen)).slice(1), shares = seen.slice(0, -1);
  assert.equal(seen[0], 0, seen.join(' '));
  assert.deepEqual(seen.slice(-2), [1, 'indeterminate'], seen.join(' '));
  assert.ok(shares.length >= 3 && shares.every((f, k) => typeof f === 'number' && f <= 1 && (k === 0 || f > shares[k - 1])), seen.join(' '));
  assert.deepEqual(problems, []);
  await page.close();
});

test('detach: the files\' buffers are let go once in the module, and the result is the same', async () => {
  const { page, problems } = await open(context, fileBase + 'calculator.html');
  const files = inflated(SYNTHETIC).map((f) => ({ name: f.name, bytes: Array.from(f.bytes) }));
  const [kept, detached] = await page.evaluate(async (fs) => {
    // The whole module, here in the page itself.
    const hp = await (await heteropipePage.tools.part('whole', 'heteropipe.js'))()();
    const copy = () => fs.map((f) => ({ name: f.name, bytes: Uint8Array.from(f.bytes) }));
    const plain = copy(), freed = copy();
    const a = hp.importTrace(plain, { unit: 'ms' });
    const b = hp.importTrace(freed, { unit: 'ms', detach: true });
    return [[a, plain.map((f) => f.bytes.byteLength)], [b, freed.map((f) => f.bytes.byteLength)]];
  }, files);
  assert.deepEqual(detached[0], kept[0]);
  assert.deepEqual(kept[1], files.map((f) => f.bytes.length));
  assert.deepEqual(detached[1], files.map(() => 0));
  assert.deepEqual(kept[0].tau, golden('trace_synthetic_json.txt').tau);
  assert.deepEqual(problems, []);
  await page.close();
});

for (const p of PAGES) {
  test(`${p.name}: axe finds no violations with the section open, light and dark, and with an error`, async () => {
    const { page } = await open(context, fileBase + p.file);
    assert.deepEqual(await axeViolations(page), [], 'closed');
    await choose(page, SYNTHETIC);
    await page.click('.trace-options summary');
    assert.deepEqual(await axeViolations(page), [], 'open, light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(150);
    assert.deepEqual(await axeViolations(page), [], 'open, dark');
    await choose(page, [path.join(bad, 'truncated.json')]);
    assert.deepEqual(await axeViolations(page), [], 'error');
    await page.close();
  });
}
