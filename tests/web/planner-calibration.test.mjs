// The planner takes llama-bench's measured speeds (issue 24 items 3 and 9), in both languages at 1366
// and 390 wide: a file of `llama-bench -o json` records (or -o jsonl, one per line), chosen or
// dropped, goes to the core as the input's "calibration" text; the record calibrates its GPU, so
// that the plan of the record's own model runs at the record's avg_ts; the report's calibrated and
// calibration_unused are shown in words; a record naming two kinds of device, and bad JSON, are
// coded errors under the field; Remove goes back to the estimate; nothing leaves the machine.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { launch, open, fileBase, root, modulePath, foreignRequests, axeViolations, PAGES } from './helpers.mjs';

let context, full;
before(async () => {
  const require = createRequire(import.meta.url);
  [context, full] = await Promise.all([launch(), require(modulePath)()]);
});
after(async () => { await context?.close(); });

// Llama 2 7B Q4_0 on one RTX 4090, decoding with a short context, as llama-bench's tg128 runs it.
const INPUT = { model: 'llama-2-7b', quant: 'Q4_0', phase: 'decode', objective: 'async', devices: ['rtx-4090'],
  links: [], context: 512, tokens: 1, M: 1 };
const link = (input) => '#plan=' + encodeURIComponent(JSON.stringify(input));

// A record with llama-bench's whole key set (tools/llama-bench/llama-bench.cpp's JSON printer): that
// model's file (3.56 GiB, 6.74 B parameters, as llama-bench reports llama 7B Q4_0) measured in `test`.
function record(gpuInfo, test, avgTs) {
  const tg = test === 'tg';
  return {
    build_commit: '8cf427ff', build_number: 5163, cpu_info: 'AMD Ryzen 9 7950X 16-Core Processor', gpu_info: gpuInfo,
    backends: 'CUDA', model_filename: 'models/llama-2-7b.Q4_0.gguf', model_type: 'llama 7B Q4_0',
    model_size: 3825065984, model_n_params: 6738415616, n_batch: 2048, n_ubatch: 512, n_threads: 16,
    cpu_mask: '0x0', cpu_strict: false, poll: 50, type_k: 'f16', type_v: 'f16', n_gpu_layers: 99, split_mode: 'layer',
    main_gpu: 0, no_kv_offload: false, flash_attn: false, tensor_split: '0.00', use_mmap: true, embeddings: false,
    n_prompt: tg ? 0 : 512, n_gen: tg ? 128 : 0, test_time: '2025-04-24T11:57:09Z',
    avg_ns: Math.round((tg ? 128 : 512) / avgTs * 1e9), stddev_ns: 292241, avg_ts: avgTs, stddev_ts: 0.9,
    samples_ns: [], samples_ts: [],
  };
}
const TG = record('NVIDIA GeForce RTX 4090', 'tg', 152.41);
const PP = record('NVIDIA GeForce RTX 4090', 'pp', 11021.5);

// The file dropped on the field's zone, as a person drags it from their files.
async function drop(page, name, text) {
  await page.evaluate(([n, t]) => {
    const data = new DataTransfer();
    data.items.add(new File([t], n, { type: 'application/json' }));
    const zone = document.getElementById('plan-bench-drop');
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, [name, text]);
}

const headline = (page) => page.textContent('#plan-result .plan-headline');
async function headlineChanges(page, from) {
  await page.waitForFunction((f) => {
    const h = document.querySelector('#plan-result .plan-headline');
    return h && h.textContent !== f && !document.getElementById('plan-result').classList.contains('stale');
  }, from);
  return headline(page);
}
// The plan's speed as the headline shows it, read back as a number.
function speedOf(text, lang) {
  const m = text.match(lang === 'en' ? /Optimal split: ([\d,.]+) tok\/s/ : /最优切分：([\d,.]+) token\/秒/);
  assert.ok(m, text);
  return Number(m[1].replace(/,/g, ''));
}

for (const p of PAGES) {
  for (const width of [1366, 390]) test(`${p.name} at ${width}: a llama-bench file calibrates the plan`, async () => {
    const en = p.name === 'en';
    const four = (x) => new Intl.NumberFormat(p.lang, { maximumSignificantDigits: 4 }).format(x);
    const { page, problems, requests } = await open(context, fileBase + p.file + link(INPUT));
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await page.waitForSelector('#plan-result table');
    const estimated = await headline(page);
    assert.equal(await page.isVisible('#plan-bench-used'), false);

    // A -o json file, chosen: its decode record calibrates the 4090, and the plan of the record's own
    // model (Llama 2 7B Q4_0, what its model_size and model_n_params describe) runs at its avg_ts.
    const json = JSON.stringify([PP, TG], null, 2);
    await page.setInputFiles('#plan-bench', { name: 'bench.json', mimeType: 'application/json', buffer: Buffer.from(json) });
    const calibrated = await headlineChanges(page, estimated);
    const module = full.plan({ ...INPUT, calibration: [PP, TG] });
    assert.deepEqual(module.calibrated.map((c) => [c.device, c.record]), [[0, 1]]);
    assert.deepEqual(module.calibration_unused.map((u) => [u.record, u.reason]), [[0, 'other_phase']]);
    const shown = speedOf(calibrated, p.name);
    assert.ok(Math.abs(shown / TG.avg_ts - 1) < 0.05, `${shown} tok/s against avg_ts ${TG.avg_ts}`);
    assert.equal(shown, Number(four(module.tokens_per_second).replace(/,/g, '')));
    // Without the record the estimate was off by more than that: the record changed it.
    assert.ok(Math.abs(speedOf(estimated, p.name) / TG.avg_ts - 1) > 0.05, estimated);

    // The report's calibrated and calibration_unused, in words; the file's name, and that a link cannot carry it.
    const name = full.catalog().gpus.find((g) => g.id === 'rtx-4090').name;
    const factor = four(module.calibrated[0].factor);
    assert.deepEqual(await page.$$eval('#plan-bench-list li', (li) => li.map((e) => e.textContent)), en
      ? [`Device 1 (${name}): calibrated by record 2, ${factor} × the estimate’s speed.`,
        'Record 1 unused: its test is not of the planned phase (tg: decode, pp: prefill).']
      : [`设备 1（${name}）：由第 2 条记录校准，速度为估算的 ${factor} 倍。`,
        '第 1 条记录未使用：它的测试不属于所规划的阶段（tg：解码，pp：预填充）。']);
    assert.equal(await page.textContent('#plan-bench-facts'), en ? 'Calibrating with bench.json.' : '正在用 bench.json 校准。');
    assert.equal(await page.textContent('#plan-bench-link'), en
      ? 'The page’s link cannot carry a file: after a reload, choose it again.'
      : '页面链接无法携带文件：重新加载后请再次选择。');
    assert.deepEqual(await axeViolations(page), [], 'calibrated');

    // A reload (or the link shared) cannot carry the file: the section says the plan is not calibrated
    // and names the file to choose again; the plan is the estimate.
    const again = await open(context, page.url());
    await again.page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await again.page.waitForSelector('#plan-result .plan-headline');
    assert.equal(await headline(again.page), estimated);
    assert.equal(await again.page.textContent('#plan-bench-facts'), en
      ? 'This link was planned with bench.json, which a link cannot carry: the plan below is not calibrated. Choose the file again.'
      : '此链接规划时用了 bench.json，但链接无法携带文件：下面的规划未经校准。请再次选择该文件。');
    assert.equal(await again.page.isVisible('#plan-bench-facts'), true);
    assert.equal(await again.page.textContent('#plan-bench-link'), '');
    assert.deepEqual(await axeViolations(again.page), [], 'reloaded');
    await again.page.click('#plan-bench-remove');
    await again.page.waitForSelector('#plan-bench-used', { state: 'hidden' });
    assert.equal(new URLSearchParams(new URL(again.page.url()).hash.slice(1)).get('plan').includes('bench.json'), false);
    assert.deepEqual(again.problems, []);
    await again.page.close();

    // The same records as -o jsonl (one per line), dropped: the same plan.
    await page.click('#plan-bench-remove');
    assert.equal(await headlineChanges(page, calibrated), estimated);
    await drop(page, 'bench.jsonl', [PP, TG].map((r) => JSON.stringify(r)).join('\n') + '\n');
    assert.equal(await headlineChanges(page, estimated), calibrated);

    // Bad JSON: the core's not_json under the field, at the file's own byte; the last plan kept, dimmed.
    const broken = JSON.stringify([TG]).slice(0, -1) + ',';
    await page.setInputFiles('#plan-bench', { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(broken) });
    await page.waitForSelector('#plan-form ~ .plan-bench .plan-field-error, .plan-bench .plan-field-error');
    let error;
    try { full.plan({ ...INPUT, calibration: broken }); } catch (e) { error = e.errors[0]; }
    assert.deepEqual([error.code, error.field, error.value], ['not_json', 'calibration', broken.length]);
    const fieldError = () => page.$eval('.plan-bench .plan-field-error', (e) => e.textContent);
    // Named by the field's words, not the key: 'llama-bench file: not valid JSON (reading stopped at byte N)'.
    assert.equal(await fieldError(), en ? `llama-bench file: ${error.detail}` : `llama-bench 文件：不是有效的 JSON（读到第 ${broken.length} 字节处停止）`);
    assert.ok(error.detail.endsWith(`byte ${broken.length})`), error.detail);
    assert.equal(await page.getAttribute('#plan-bench', 'aria-invalid'), 'true');
    assert.ok(await page.$eval('#plan-result', (e) => e.classList.contains('stale')));
    assert.equal(await headline(page), calibrated);
    // The refused file is named as unused, and the list of what the earlier file calibrated is gone
    // (it read 'Calibrating with broken.json.' beside the earlier file's devices).
    assert.equal(await page.textContent('#plan-bench-facts'), en ? 'Not calibrating with broken.json: its error is below.' : '未用 broken.json 校准：错误见下方。');
    assert.deepEqual(await page.$$eval('#plan-bench-list li', (li) => li.length), 0);
    await page.click('#plan-bench-remove');
    assert.equal(await headlineChanges(page, calibrated), estimated);
    assert.equal(await page.getAttribute('#plan-bench', 'aria-invalid'), null);
    assert.deepEqual(foreignRequests(requests, fileBase), []);
    assert.deepEqual(problems, []);
    await page.close();

    // Two GPUs of different kinds in one gpu_info: ambiguous_device, coded, under the field.
    const two = { ...INPUT, devices: ['rtx-4090', 'rtx-3090'], links: ['pcie4-x16'] };
    const second = await open(context, fileBase + p.file + link(two));
    await second.page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await second.page.waitForSelector('#plan-result table');
    const both = record('NVIDIA GeForce RTX 4090, NVIDIA GeForce RTX 3090', 'tg', 60.2);
    await drop(second.page, 'bench.json', JSON.stringify(both));
    await second.page.waitForSelector('.plan-bench .plan-field-error');
    try { full.plan({ ...two, calibration: [both] }); } catch (e) { error = e.errors[0]; }
    assert.deepEqual([error.code, error.field, error.index], ['ambiguous_device', 'calibration', 0]);
    assert.equal(await second.page.$eval('.plan-bench .plan-field-error', (e) => e.textContent), en ? `llama-bench file, ${error.detail}`
      : 'llama-bench 文件，第 1 条记录：“NVIDIA GeForce RTX 4090, NVIDIA GeForce RTX 3090”同时指向设备 1 和设备 2，二者型号不同；请在记录中加上 "device"（目录 id 或设备的 name）');
    assert.equal(await second.page.getAttribute('#plan-bench', 'aria-invalid'), 'true');
    assert.ok((await second.page.getAttribute('#plan-bench', 'aria-describedby')).split(' ').some((id) => id.startsWith('plan-error-')));
    assert.deepEqual(await axeViolations(second.page), [], 'an ambiguous record');
    await second.page.locator('#plan').screenshot({ path: path.join(root, 'build', 'test-artifacts', `planner-calibration-${p.name}-${width}.png`) });
    assert.deepEqual(foreignRequests(second.requests, fileBase), []);
    assert.deepEqual(second.problems, []);
    await second.page.close();
  });
}
