// The planner takes a model of the user's own from a .gguf file (issue 24 item 1), in both languages
// at 1366 and 390 wide: chosen or dropped, it is read in the page's worker by hp.modelInfo (header
// and tensor table only; nothing leaves the machine), its facts are shown, and it plans in place of
// the catalog model, as hp.plan plans with "model": that object; the permalink keeps the catalog
// model and says so; a bad file's error is worded under the field; a button goes back to the catalog.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launch, open, fileBase, root, modulePath, foreignRequests, axeViolations, PAGES } from './helpers.mjs';

let context, full;
before(async () => {
  const require = createRequire(import.meta.url);
  [context, full] = await Promise.all([launch(), require(modulePath)()]);
});
after(async () => { await context?.close(); });

// Two devices: the test files' models have two layers.
const INPUT = { model: 'llama-3-70b', quant: 'Q4_K_M', phase: 'decode', objective: 'async',
  devices: ['rtx-4090', 'rtx-3090'], links: ['pcie4-x16'], context: 4096, tokens: 1, M: 1 };
const LINK = '#plan=' + encodeURIComponent(JSON.stringify({ devices: INPUT.devices, links: INPUT.links }));
const GGUF = path.join(root, 'tests', 'data', 'gguf');
const BAD = Buffer.from('NOTAGGUFFILE____________________');

// What the page shows for each file, computed here from the module in Node.
async function facts(file) {
  const bytes = readFileSync(path.join(GGUF, file));
  const info = await full.modelInfo(new Blob([bytes]));
  const { model, quant, ...rest } = INPUT;
  return { info, size: bytes.length, plan: full.plan({ ...rest, model: info }) };
}

async function stageRows(page) {
  return page.$$eval('#plan-result table.plan-stages tbody tr', (rows) =>
    rows.map((r) => Array.from(r.cells).slice(0, 3).map((c) => c.textContent)));
}
function expectedRows(plan) {
  const name = (id) => full.catalog().gpus.find((g) => g.id === id).name;
  return plan.stages.map((s) => [name(INPUT.devices[s.device]), `${s.first_layer}–${s.last_layer}`, String(s.layers)]);
}

// Waits until the plan shown has `rows`.
async function planShows(page, rows) {
  await page.waitForFunction((want) => JSON.stringify(Array.from(document.querySelectorAll('#plan-result table.plan-stages tbody tr'))
    .map((r) => Array.from(r.cells).slice(0, 3).map((c) => c.textContent))) === want, JSON.stringify(rows));
}

// The file dropped on the field's zone, as a person drags it from their files.
async function drop(page, name, bytes) {
  await page.evaluate(([n, b]) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(b)], n));
    const zone = document.getElementById('plan-gguf-drop');
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, [name, Array.from(bytes)]);
}

const planText = (url) => JSON.parse(new URLSearchParams(new URL(url).hash.slice(1)).get('plan'));

for (const p of PAGES) {
  for (const width of [1366, 390]) test(`${p.name} at ${width}: a .gguf file plans in place of the catalog model`, async () => {
    const en = p.name === 'en';
    const { page, problems, requests } = await open(context, fileBase + p.file + LINK);
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await page.waitForSelector('#plan-result table');
    const catalogRows = await stageRows(page);
    assert.equal(await page.isVisible('#plan-gguf-model'), false);

    // A dense model, chosen with the file input.
    const dense = await facts('dense.gguf');
    assert.equal(dense.info.expert_count, 0);
    await page.setInputFiles('#plan-gguf', path.join(GGUF, 'dense.gguf'));
    await page.waitForSelector('#plan-gguf-model:not([hidden])');
    await planShows(page, expectedRows(dense.plan));
    const i = dense.info;
    assert.equal(await page.textContent('#plan-gguf-facts'), en
      ? `${i.name}: ${i.architecture}, ${i.layers} layers, 188.5 KiB, from dense.gguf.`
      : `${i.name}：架构 ${i.architecture}，${i.layers} 层，188.5 KiB，来自 dense.gguf。`);
    assert.equal(dense.size, 192992);
    // The catalog's two fields give way to the file's model; the link keeps the catalog's, and says so.
    assert.equal(await page.isVisible('#plan-model'), false);
    assert.equal(await page.isVisible('#plan-quant'), false);
    assert.equal(await page.textContent('#plan-gguf-link'), en
      ? 'The page’s link cannot carry a file: it keeps the catalog model, Llama 3 70B Q4_K_M.'
      : '页面链接无法携带文件：链接中保留的是目录模型 Llama 3 70B Q4_K_M。');
    assert.equal(planText(page.url()).model, 'llama-3-70b');
    assert.equal(JSON.stringify(planText(page.url())).includes(i.architecture + '"'), false);
    assert.deepEqual(await axeViolations(page), [], 'the file model shown');

    // A MoE model, dropped on the field.
    const moe = await facts('moe.gguf');
    assert.ok(moe.info.expert_count > 0);
    await drop(page, 'moe.gguf', readFileSync(path.join(GGUF, 'moe.gguf')));
    await planShows(page, expectedRows(moe.plan));
    const m = moe.info;
    assert.equal(await page.textContent('#plan-gguf-facts'), en
      ? `${m.name}: ${m.architecture}, ${m.layers} layers, 400 KiB, ${m.expert_count} experts (${m.expert_used_count} per token), from moe.gguf.`
      : `${m.name}：架构 ${m.architecture}，${m.layers} 层，400 KiB，${m.expert_count} 个专家（每个 token 用 ${m.expert_used_count} 个），来自 moe.gguf。`);
    // The page's plan is the module's for that model, tokens per second included. The dense file's plan
    // had the same rows (one layer each), so wait for the MoE plan's own speed before reading it.
    const four = new Intl.NumberFormat(p.lang, { maximumSignificantDigits: 4 }).format(moe.plan.tokens_per_second);
    const speed = four + (en ? ' tok/s' : ' token/秒');
    await page.waitForFunction((want) => document.querySelector('#plan-result .plan-headline')?.textContent.includes(want), speed,
      { timeout: 10000 }).catch(() => {});
    const tps = await page.textContent('#plan-result .plan-headline');
    assert.ok(tps.includes(speed), tps);
    // Two layers for three devices: one more device is no memory matter, and the what-if says why.
    const added = moe.plan.what_if.filter((w) => w.change === 'add');
    assert.ok(added.length > 0 && added.every((w) => !w.feasible && w.reason === 'fewer_layers_than_devices'));
    const whatIf = await page.$$eval('#plan-result .plan-whatif li', (li) => li.map((e) => e.textContent));
    moe.plan.what_if.forEach((w, k) => {
      if (w.change === 'add') assert.ok(whatIf[k].endsWith(en ? ': a device would run no layer (the model has fewer layers than devices)'
        : '：会有设备分不到层（模型的层数少于设备数）'), whatIf[k]);
    });

    // A bad file: its error under the field in the page's words, the model before it still planned.
    await page.setInputFiles('#plan-gguf', { name: 'bad.gguf', mimeType: 'application/octet-stream', buffer: BAD });
    await page.waitForSelector('#plan-gguf-error:not([hidden])');
    let error;
    try { await full.modelInfo(new Uint8Array(BAD)); } catch (e) { error = e; }
    assert.equal(error.code, 'not_gguf');
    assert.equal(await page.textContent('#plan-gguf-error'), en ? error.message
      : 'GGUF 文件，第 0 字节：文件开头不是 GGUF 字节，不是 GGUF 文件');
    assert.equal(error.message, 'GGUF file, byte 0: does not start with the bytes GGUF, so it is no GGUF file');
    assert.equal(await page.getAttribute('#plan-gguf', 'aria-invalid'), 'true');
    assert.ok((await page.getAttribute('#plan-gguf', 'aria-describedby')).split(' ').includes('plan-gguf-error'));
    assert.deepEqual(await stageRows(page), expectedRows(moe.plan));
    assert.deepEqual(await axeViolations(page), [], 'a bad file');
    await page.locator('#plan').screenshot({ path: path.join(root, 'build', 'test-artifacts', `planner-gguf-${p.name}-${width}.png`) });

    // Back to the catalog model: its two fields again, its plan, no error left.
    await page.click('#plan-gguf-catalog');
    await planShows(page, catalogRows);
    assert.deepEqual(catalogRows, expectedRows(full.plan(INPUT)));
    assert.equal(await page.isVisible('#plan-model'), true);
    assert.equal(await page.isVisible('#plan-gguf-model'), false);
    assert.equal(await page.isVisible('#plan-gguf-error'), false);
    assert.equal(await page.getAttribute('#plan-gguf', 'aria-invalid'), null);

    // Nothing left the machine, and nothing went wrong.
    assert.deepEqual(foreignRequests(requests, fileBase), []);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
