// The planner section: loaded only when opened (the first load stays small), its numbers are the
// whole module's hp.plan, "Use this pipeline" hands tau and d to the calculator, the permalink
// carries the plan, and a bad field shows the core's coded error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { launch, open, serve, fileBase, site, root, modulePath, settled, readyCount, pageValues, expectedValues, foreignRequests, PAGES } from './helpers.mjs';

let context, full;
before(async () => {
  const require = createRequire(import.meta.url);
  [context, full] = await Promise.all([launch(), require(modulePath)()]);
});
after(async () => { await context?.close(); });

test('a runtime flag is copied with its button', async () => {
  const server = await serve();
  try {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base.replace(/\/$/, '') });
    const { page } = await open(context, server.base + 'calculator.html');
    await openPlanner(page);
    await page.click('#plan-result button[data-copy^="llama-server"]');
    await page.waitForFunction(() => document.getElementById('plan-copied').textContent !== '');
    assert.equal(await page.textContent('#plan-copied'), 'Copied.');
    const plan = full.plan(INPUT);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), plan.runtime.llama_cpp_command);
    assert.ok(plan.runtime.llama_cpp_command.endsWith(' -ts ' + plan.runtime.llama_cpp_tensor_split));
    await page.close();
  } finally { await server.close(); }
});

const INPUT = { model: 'llama-3-70b', quant: 'Q4_K_M', phase: 'decode', objective: 'async',
  devices: ['rtx-4090', 'rtx-3090', 'rtx-3090'], links: ['pcie4-x16', 'pcie4-x16'], context: 4096, tokens: 1, M: 1 };

async function openPlanner(page) {
  await page.click('#plan-open');
  await page.waitForSelector('#plan-result table');
}

// The stages' table as [device, layers, count] rows.
async function stageRows(page) {
  return page.$$eval('#plan-result table.plan-stages tbody tr', (rows) =>
    rows.map((r) => Array.from(r.cells).slice(0, 3).map((c) => c.textContent)));
}

// Rows name each device as the catalog does.
function expectedRows(plan, devices) {
  const name = (id) => full.catalog().gpus.find((g) => g.id === id).name;
  return plan.stages.map((s) => [name(devices[s.device]), `${s.first_layer}–${s.last_layer}`, String(s.layers)]);
}

for (const p of PAGES) {
  test(`${p.name}: the planner loads on demand and shows the module's plan`, async () => {
    const { page, problems, requests } = await open(context, fileBase + p.file);
    assert.ok(!requests.some((u) => u.endsWith('/heteropipe.js')), 'the whole module is not part of the first load');
    await openPlanner(page);
    const plan = full.plan(INPUT);
    assert.deepEqual(await stageRows(page), expectedRows(plan, INPUT.devices));
    const flags = await page.textContent('#plan-result .plan-flags');
    for (const value of Object.values(plan.runtime)) assert.ok(flags.includes(value), value);

    // One device more: the plan follows.
    await page.click('#plan-add');
    await page.waitForFunction(() => document.querySelectorAll('#plan-result table.plan-stages tbody tr').length === 4);
    const more = { ...INPUT, devices: [...INPUT.devices, 'rtx-3090'], links: [...INPUT.links, 'pcie4-x16'] };
    assert.deepEqual(await stageRows(page), expectedRows(full.plan(more), more.devices));

    // Its pipeline into the calculator: tau and d in ms (where these read naturally), at most 6
    // significant digits, the plan's M, and the page at the summary, saying what changed.
    const planned = full.plan(more);
    const before = await readyCount(page);
    await page.click('#plan-use');
    await settled(page, before);
    const ms = (xs) => Array.from(xs, (x) => String(Number((x * 1e3).toPrecision(6))));
    assert.ok(Math.max(...planned.tau) >= 1e-3 && Math.max(...planned.tau) < 1, 'this plan reads in ms');
    assert.equal(await page.inputValue('#tau'), ms(planned.tau).join(', '));
    assert.equal(await page.inputValue('#d'), ms(planned.d).join(', '));
    assert.equal(await page.inputValue('#unit'), 'ms');
    assert.equal(await page.inputValue('#M'), String(planned.analysis.M));
    for (const v of [...ms(planned.tau), ...ms(planned.d)]) assert.ok(v.replace(/^0\.0*|\./g, '').length <= 6, v);
    const typedTau = ms(planned.tau).map(Number), typedD = ms(planned.d).map(Number);
    const shown = full.analyze({ tau: typedTau, d: typedD, M: planned.analysis.M, rho: 1 });
    assert.deepEqual(await pageValues(page), expectedValues(shown));
    // The typed pipeline is the plan's, to 6 digits.
    assert.ok(Math.abs(shown.T_async / (planned.analysis.T_async * 1e3) - 1) < 1e-5);
    const said = await page.textContent('#plan-use-status');
    assert.ok(said.includes(String(planned.analysis.M)) && said.includes('ms') && said.includes(String(planned.tau.length)), said);
    assert.equal(await page.getAttribute('#plan-use-status', 'role'), 'status');
    await page.waitForFunction(() => Math.abs(document.getElementById('results').getBoundingClientRect().top) < 4);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'results');

    // The link carries the plan: opened again, the planner opens itself with the same form.
    const { page: again } = await open(context, page.url());
    await again.waitForSelector('#plan-result table');
    assert.deepEqual(await stageRows(again), expectedRows(full.plan(more), more.devices));

    assert.deepEqual(problems, []);
    assert.deepEqual(foreignRequests(requests, fileBase), []);
    await Promise.all([page.close(), again.close()]);
  });

  for (const width of [1366, 390]) test(`${p.name} at ${width}: a custom device is typed in GiB and GB/s, plans from its typed facts, and a bad fact is the core's error`, async () => {
    const { page } = await open(context, fileBase + p.file);
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await openPlanner(page);
    await page.selectOption('#plan-devices select[data-device="2"]', 'custom');
    await page.waitForSelector('#plan-devices input[data-fact="memory"]');
    await page.fill('#plan-devices input[data-fact="memory"]', '48');
    await page.waitForFunction(() => document.querySelector('#plan-result table'));
    // It starts from the catalog's facts of the device it replaced (an RTX 3090), shown in GiB
    // and GB/s, as a person types them.
    const rtx3090 = full.catalog().gpus.find((g) => g.id === 'rtx-3090');
    assert.equal(rtx3090.memory_bandwidth, 936e9);
    assert.equal(await page.inputValue('#plan-devices input[data-fact="memory_bandwidth"]'), '936');
    // The core reads the value with its unit: 48 GiB is 48 x 2^30 bytes, the plan the same.
    const custom = { memory: '48 GiB', memory_bandwidth: '936 GB/s', fp16_flops: rtx3090.fp16_flops };
    const plan = full.plan({ ...INPUT, devices: ['rtx-4090', 'rtx-3090', custom] });
    const inBytes = full.plan({ ...INPUT, devices: ['rtx-4090', 'rtx-3090', { ...custom, memory: 48 * 2 ** 30, memory_bandwidth: 936e9 }] });
    assert.deepEqual(plan.stages, inBytes.stages);
    const rows = await stageRows(page);
    assert.deepEqual(rows.map((r) => r.slice(1)), plan.stages.map((s) => [`${s.first_layer}–${s.last_layer}`, String(s.layers)]));
    assert.equal(plan.stages[2].memory_capacity, inBytes.stages[2].memory_capacity);
    // The labels say the units.
    const labels = await page.$$eval('#plan-devices .plan-facts label', (ls) => ls.map((l) => l.textContent.trim()));
    assert.deepEqual(labels, p.name === 'en' ? ['memory (GiB)', 'bandwidth (GB/s)', 'FP16 (FLOP/s)'] : ['显存（GiB）', '带宽（GB/s）', 'FP16 算力（FLOP/秒）']);
    // The permalink keeps what was typed.
    const { page: again } = await open(context, page.url());
    await again.waitForSelector('#plan-devices input[data-fact="memory"]');
    assert.equal(await again.inputValue('#plan-devices input[data-fact="memory"]'), '48');
    assert.equal(await again.inputValue('#plan-devices input[data-fact="memory_bandwidth"]'), '936');
    await again.close();
    // A link saved when the facts were typed in bytes still opens, its facts shown in GiB and GB/s.
    const saved = { devices: ['rtx-4090', { memory: 25769803776, memory_bandwidth: 1008e9, fp16_flops: 1e14 }], links: ['pcie4-x16'] };
    const { page: old } = await open(context, fileBase + p.file + '#plan=' + encodeURIComponent(JSON.stringify(saved)));
    await old.waitForSelector('#plan-result table');
    assert.equal(await old.inputValue('#plan-devices input[data-fact="memory"]'), '24');
    assert.equal(await old.inputValue('#plan-devices input[data-fact="memory_bandwidth"]'), '1008');
    assert.equal(await old.inputValue('#plan-devices input[data-fact="fp16_flops"]'), '100000000000000');
    await old.close();
    // A hand-edited link whose values are of the wrong kind (a number for the model, an object for
    // M, a name for the link list, null and a list among the devices) opens with those fields'
    // defaults and the devices it can read, and plans: it once threw before the form was drawn.
    const hostile = { model: 5, M: {}, links: 'pcie4-x16', devices: [null, 'rtx-4090', ['x'], 'rtx-3090', 'rtx-3090'] };
    const { page: edited } = await open(context, fileBase + p.file + '#plan=' + encodeURIComponent(JSON.stringify(hostile)));
    await edited.waitForSelector('#plan-result table');
    assert.equal(await edited.$$eval('#plan-devices select[data-device]', (s) => s.length), 3);
    assert.equal(await edited.inputValue('#plan-M'), '1');
    await edited.close();
    // A bad fact: the core's error, named by the label the user sees, the text as typed.
    await page.fill('#plan-devices input[data-fact="memory_bandwidth"]', 'fast');
    await page.waitForSelector('#plan-devices .plan-field-error');
    assert.equal(await page.inputValue('#plan-devices input[data-fact="memory_bandwidth"]'), 'fast');
    let error;
    try { full.plan({ ...INPUT, devices: ['rtx-4090', 'rtx-3090', { ...custom, memory_bandwidth: 'fast GB/s' }] }); } catch (e) { error = e; }
    assert.deepEqual([error.code, error.field, error.index, error.detail], ['not_a_number', 'memory_bandwidth', 2, "device 3: 'fast' is not a number"]);
    // Under the typed fact, which is marked invalid and described by it.
    const fact = '#plan-devices input[data-fact="memory_bandwidth"]';
    assert.equal(await page.getAttribute(fact, 'aria-invalid'), 'true');
    const describedBy = await page.getAttribute(fact, 'aria-describedby');
    assert.equal(await page.textContent('#' + describedBy), p.name === 'en' ? "bandwidth (GB/s), device 3: 'fast' is not a number"
      : '带宽（GB/s），第 3 台设备：“fast”不是数字');
    // The FP16 rate read by the same parser: empty is empty, text is no number, full-width digits read.
    await page.fill('#plan-devices input[data-fact="memory_bandwidth"]', '936');
    const flops = '#plan-devices input[data-fact="fp16_flops"]';
    const flopsError = async () => page.textContent('#' + (await page.getAttribute(flops, 'aria-describedby')).split(' ')[0]);
    const typedFlops = await page.inputValue(flops);
    await page.fill(flops, '');
    await page.waitForFunction((f) => document.querySelector(f).getAttribute('aria-invalid') === 'true', flops);
    assert.equal(await flopsError(), p.name === 'en' ? 'FP16 (FLOP/s), device 3: is empty' : 'FP16 算力（FLOP/秒），第 3 台设备：不能为空');
    await page.fill(flops, 'abc');
    await page.waitForFunction((f) => /abc/.test(document.getElementById(document.querySelector(f).getAttribute('aria-describedby').split(' ')[0]).textContent), flops);
    assert.equal(await flopsError(), p.name === 'en' ? "FP16 (FLOP/s), device 3: 'abc' is not a number" : 'FP16 算力（FLOP/秒），第 3 台设备：“abc”不是数字');
    assert.equal(await page.inputValue(flops), 'abc');
    await page.fill(flops, typedFlops.replace(/[0-9]/g, (c) => String.fromCharCode(0xFF10 + Number(c))));
    await page.waitForFunction((f) => document.querySelector(f).getAttribute('aria-invalid') === null && !document.getElementById('plan-result').classList.contains('stale'), flops);
    // A value the core refuses quotes it as typed, with its unit.
    await page.fill('#plan-devices input[data-fact="memory_bandwidth"]', '936');
    await page.fill('#plan-devices input[data-fact="memory"]', '-1');
    await page.waitForFunction(() => /-1 GiB/.test(document.querySelector('#plan-devices .plan-field-error')?.textContent || ''));
    await page.screenshot({ path: path.join(root, 'build', 'test-artifacts', `planner-custom-${p.name}-${width}.png`) });
    // A fact typed with a unit of its own is read in it: 48 GB in the GiB box is 48e9 bytes.
    await page.fill('#plan-devices input[data-fact="memory"]', '48 GB');
    const inGB = full.plan({ ...INPUT, devices: ['rtx-4090', 'rtx-3090', { ...custom, memory: 48e9 }] });
    const capacity = (inGB.stages.find((s) => s.device === 2).memory_capacity / 2 ** 30).toPrecision(4);
    assert.notEqual(capacity, (plan.stages.find((s) => s.device === 2).memory_capacity / 2 ** 30).toPrecision(4));
    await page.waitForFunction((c) => Array.from(document.querySelectorAll('#plan-result table.plan-stages tbody tr'))
      .some((r) => r.cells[4].textContent.includes('/ ' + c)) && !document.querySelector('#plan-devices .plan-field-error'), capacity);
    assert.deepEqual((await stageRows(page)).map((r) => r.slice(1)), inGB.stages.map((s) => [`${s.first_layer}–${s.last_layer}`, String(s.layers)]));
    // One in a unit the core does not read is its coded error, the text as typed, the units named.
    await page.fill('#plan-devices input[data-fact="memory"]', '48 gigs');
    await page.waitForFunction(() => /gigs/.test(document.querySelector('#plan-devices .plan-field-error')?.textContent || ''));
    try { full.plan({ ...INPUT, devices: ['rtx-4090', 'rtx-3090', { ...custom, memory: '48 gigs' }] }); } catch (e) { error = e; }
    assert.deepEqual([error.code, error.field, error.index, error.token], ['unknown_unit', 'memory', 2, '48 gigs']);
    assert.equal(await page.textContent('#plan-devices .plan-field-error'), p.name === 'en'
      ? "memory (GiB), device 3: '48 gigs' is in no unit heteropipe reads (TiB, GiB, MiB, TB, GB, MB, B)"
      : '显存（GiB），第 3 台设备：“48 gigs”的单位无法识别：请按标签上的单位只填数字，或写数字和单位，如 24 GiB、24 GB');
    assert.equal(await page.inputValue('#plan-devices input[data-fact="memory"]'), '48 gigs');
    await page.close();
  });

  test(`${p.name}: a bad planner field shows the core's error and keeps the text`, async () => {
    const { page } = await open(context, fileBase + p.file);
    await openPlanner(page);
    const good = await stageRows(page);
    await page.fill('#plan-context', '4k');
    await page.waitForSelector('#plan-form .plan-field-error');
    assert.equal(await page.inputValue('#plan-context'), '4k');
    assert.equal(await page.isDisabled('#plan-use'), true);
    // The last good plan stays, dimmed.
    assert.deepEqual(await stageRows(page), good);
    assert.equal(await page.getAttribute('#plan-result', 'class'), 'stale');
    // Read by the core's parser as the calculator reads its fields: not a number, with the text as typed.
    let error;
    try { full.parseNumber('4k', 'T_real'); } catch (e) { error = e; }
    assert.deepEqual([error.name, error.code, error.token], ['HeteropipeError', 'not_a_number', '4k']);
    assert.equal(await page.getAttribute('#plan-context', 'aria-invalid'), 'true');
    const shown = await page.textContent('#' + await page.getAttribute('#plan-context', 'aria-describedby'));
    // Under its own field.
    assert.equal(await page.$eval('#plan-context', (c) => c.closest('.field').lastElementChild.id), await page.getAttribute('#plan-context', 'aria-describedby'));
    // The field named by its label in the page's language, not the key "context"; in English the
    // module's sentence without the key; the Chinese page words the code itself, with the text as typed.
    if (p.name === 'en') assert.equal(shown, "Context length (tokens): '4k' is not a number");
    else assert.equal(shown, '上下文长度（token）：“4k”不是数字');
    assert.equal(shown, p.name === 'en' ? 'Context length (tokens): ' + error.detail : shown);
    assert.ok(!/context/.test(shown), shown);
    // Several bad fields: each one's error under it, every one listed.
    await page.fill('#plan-M', '0');
    await page.waitForFunction(() => document.querySelectorAll('#plan-form .plan-field-error').length === 2);
    const mError = full.readRequest({ M: '0' }).errors.find((e) => e.field === 'M');
    assert.deepEqual([mError.code, mError.token], ['out_of_range', '0']);
    assert.equal(await page.getAttribute('#plan-M', 'aria-invalid'), 'true');
    const mShown = await page.textContent('#' + await page.getAttribute('#plan-M', 'aria-describedby'));
    if (p.name === 'en') assert.equal(mShown, 'Micro-batches M: must be between 1 and 2^53 (got 0)');
    else assert.equal(mShown, '微批次数 M：必须在 1 到 2^53 之间（输入为 0）');
    // Fixed: the errors go and the plan is current again.
    await page.fill('#plan-context', '4096');
    await page.fill('#plan-M', '1');
    await page.waitForFunction(() => !document.querySelector('.plan-field-error') && !document.getElementById('plan-result').classList.contains('stale'));
    assert.equal(await page.getAttribute('#plan-context', 'aria-invalid'), null);
    assert.equal(await page.isDisabled('#plan-use'), false);
    await page.close();
  });

  test(`${p.name}: the planner reads its numbers as the calculator reads its own`, async () => {
    const { page } = await open(context, fileBase + p.file);
    await openPlanner(page);
    const good = await stageRows(page);
    // The error shown under a field, or null.
    const shownUnder = (id) => page.evaluate((id) => {
      const c = document.getElementById(id);
      return c.getAttribute('aria-invalid') === 'true' ? document.getElementById(c.getAttribute('aria-describedby').split(' ')[0]).textContent : null;
    }, id);
    const settle = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 300))));
    const label = p.name === 'en' ? { context: 'Context length (tokens): ', tokens: 'Tokens per micro-batch: ', M: 'Micro-batches M: ', calcM: 'Micro-batches M: ' }
      : { context: '上下文长度（token）：', tokens: '每个微批次的 token 数：', M: '微批次数 M：', calcM: '微批数 M：' };
    const said = p.name === 'en'
      ? { empty: 'is empty', text: "'abc' is not a number", huge: 'must be between 1 and 2^53 (got 1e400)', half: 'must be a whole number (got 1.5)' }
      : { empty: '不能为空', text: '“abc”不是数字', huge: '必须在 1 到 2^53 之间（输入为 1e400）', half: '必须是整数（输入为 1.5）' };
    // An empty field, text and a number too large: the calculator's words, the field named by its label.
    for (const [typed, what] of [['', 'empty'], ['abc', 'text'], ['1e400', 'huge'], ['1.5', 'half']]) {
      await page.fill('#M', typed);
      await page.fill('#plan-M', typed);
      await page.waitForFunction(() => document.getElementById('plan-M').getAttribute('aria-invalid') === 'true');
      await settle();
      assert.equal(await shownUnder('plan-M'), label.M + said[what], typed);
      assert.equal(await page.textContent('#M-error'), label.calcM + said[what], typed);
      assert.equal(await page.inputValue('#plan-M'), typed);
    }
    await page.fill('#plan-M', '1');
    await page.fill('#M', '8');
    for (const k of ['context', 'tokens']) {
      await page.fill('#plan-' + k, '');
      await page.waitForFunction((k) => document.getElementById('plan-' + k).getAttribute('aria-invalid') === 'true', k);
      assert.equal(await shownUnder('plan-' + k), label[k] + said.empty);
      await page.fill('#plan-' + k, 'abc');
      await page.waitForFunction((k) => / abc|“abc”|'abc'/.test(document.getElementById(document.getElementById('plan-' + k).getAttribute('aria-describedby').split(' ')[0]).textContent), k);
      assert.equal(await shownUnder('plan-' + k), label[k] + said.text);
      // Nothing of the last good plan changes while a number is unread.
      assert.deepEqual(await stageRows(page), good);
      assert.equal(await page.getAttribute('#plan-result', 'class'), 'stale');
      // Past the doubles, below and above: its own range, as the plan JSON's -1e400 is (it said 'must be > 0',
      // and 1e400 'at most 1e15', read by T_real's rules), quoted as typed.
      for (const far of ['-1e400', '1e400']) {
        let e = null;
        try { full.plan({ ...INPUT, [k]: far }); } catch (x) { e = x.errors[0]; }
        assert.deepEqual([e.code, e.field, e.token], ['out_of_range', k, far]);
        await page.fill('#plan-' + k, far);
        await page.waitForFunction(([k, far]) => document.getElementById(document.getElementById('plan-' + k).getAttribute('aria-describedby').split(' ')[0]).textContent.includes(far), [k, far]);
        const range = k === 'context' ? ['0', '16,777,216'] : ['1', '1,048,576'];
        assert.equal(await shownUnder('plan-' + k), label[k] + (p.name === 'en' ? e.detail : '必须在 ' + range[0] + ' 到 ' + range[1] + ' 之间（输入为 ' + far + '）'));
        assert.equal(e.detail, 'must be between ' + range[0] + ' and ' + range[1] + ' (got ' + far + ')');
        assert.equal(await page.inputValue('#plan-' + k), far);
      }
      await page.fill('#plan-' + k, INPUT[k] === 4096 ? '4096' : '1');
    }
    // Full-width digits, as the calculator reads them: the same plan as the ASCII digits.
    await page.fill('#plan-context', '２０４８');
    await page.fill('#plan-M', '２');
    const plan = full.plan({ ...INPUT, context: 2048, M: 2 });
    await page.waitForFunction(() => !document.querySelector('.plan-field-error') && !document.getElementById('plan-result').classList.contains('stale'));
    await page.waitForFunction((want) => document.getElementById('plan-lead').textContent !== '' &&
      Array.from(document.querySelectorAll('#plan-result table.plan-stages tbody tr')).map((r) => r.cells[2].textContent).join() === want,
    plan.stages.map((s) => String(s.layers)).join());
    assert.equal(await page.inputValue('#plan-context'), '２０４８');
    assert.equal(await page.getAttribute('#plan-M', 'aria-invalid'), null);
    assert.equal(full.parseNumber('２０４８', 'T_real'), 2048);
    await page.close();
  });
}

// A device the optimum would rather leave out: "allow idle devices", which the core's
// fewer_layers_than_devices sentence names, is on the form, goes to the core as the input's
// allow_idle_devices, and the link keeps it.
for (const p of PAGES) {
  test(`${p.name}: allowing idle devices plans with the devices the optimum uses, and the link keeps it`, async () => {
    const { page, problems } = await open(context, fileBase + p.file);
    await openPlanner(page);
    const small = { ...INPUT, model: 'llama-2-7b', quant: 'Q4_0', devices: ['rtx-4090', 'tesla-p40', 'rtx-3090'] };
    await page.selectOption('#plan-model', small.model);
    await page.selectOption('#plan-quant', small.quant);
    await page.selectOption('#plan-devices select[data-device="1"]', 'tesla-p40');
    const every = full.plan(small), idle = full.plan({ ...small, allow_idle_devices: true });
    // The case is one where the option changes the plan: the optimum leaves devices idle.
    assert.equal(every.stages.length, 3);
    assert.ok(idle.stages.length < 3 && idle.tokens_per_second > every.tokens_per_second);
    await page.waitForFunction((n) => document.querySelectorAll('#plan-result table.plan-stages tbody tr').length === n, 3);
    assert.deepEqual(await stageRows(page), expectedRows(every, small.devices));
    assert.equal(await page.isChecked('#plan-allow_idle_devices'), false);
    await page.check('#plan-allow_idle_devices');
    await page.waitForFunction((n) => document.querySelectorAll('#plan-result table.plan-stages tbody tr').length === n, idle.stages.length);
    assert.deepEqual(await stageRows(page), expectedRows(idle, small.devices));
    const label = await page.textContent('label:has(#plan-allow_idle_devices)');
    assert.equal(label.trim(), p.name === 'en' ? 'Allow idle devices (a device may get no layer)' : '允许空闲设备（设备可以不分层）');
    const { page: again } = await open(context, page.url());
    await again.waitForSelector('#plan-result table');
    assert.equal(await again.isChecked('#plan-allow_idle_devices'), true);
    assert.deepEqual(await stageRows(again), expectedRows(idle, small.devices));
    assert.deepEqual(problems, []);
    await Promise.all([page.close(), again.close()]);
  });
}
