// The layout facts a new user depends on: the summary above the fold on a laptop and a phone, the
// inputs beside the results on wide screens and kept in view, the makespan chart right after the
// summary, count errors held back while typing with the last results kept (nothing moves), the
// Gantt's bars each with their own title and keyboard focus, whole-number ticks, and exports off
// while the input is bad.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, fileBase, loadModule, settled, readyCount, PAGES } from './helpers.mjs';

let context, hp;
before(async () => { [context, hp] = await Promise.all([launch(), loadModule()]); });
after(async () => { await context?.close(); });

const box = (page, sel) => page.locator(sel).first().boundingBox();

for (const p of PAGES) {
  for (const [width, height] of [[1366, 900], [390, 844]]) {
    test(`${p.name} at ${width}x${height}: the summary is above the fold`, async () => {
      const { page, problems } = await open(context, fileBase + p.file);
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(150);
      const summary = await box(page, '#summary');
      assert.ok(summary.y >= 0 && summary.y + summary.height <= height, JSON.stringify(summary));
      const keys = await page.$$eval('#summary [data-key]', (els) => els.map((e) => e.dataset.key));
      assert.deepEqual(keys, ['T_async', 'T_block', 'gpipe_overestimate', 'bottleneck_stage', 'phase_transition']);
      // The first page: a plain measured pipeline (legalone-measured), no edge case.
      const a = hp.analyze({ tau: [1.13, 2.901, 2.621], M: 8 });
      assert.equal(await page.getAttribute('#summary [data-key="T_async"]', 'data-value'), String(a.T_async));
      assert.equal(await page.getAttribute('#summary [data-key="T_block"]', 'data-value'), String(a.T_block));
      assert.equal(a.phase_transition, false);
      if (width > 900) {
        // Inputs beside the results, the makespan chart right after the summary and on the first screen.
        const inputs = await box(page, '#inputs'), results = await box(page, '#results'), chart = await box(page, '#chart-curve');
        assert.ok(inputs.x + inputs.width <= results.x && inputs.y < results.y + results.height);
        assert.ok(chart.y > summary.y + summary.height && chart.y < height, JSON.stringify(chart));
        assert.equal(await page.$eval('#results', (e) => e.nextElementSibling.querySelector('figure').id), 'fig-curve');
        // The inputs stay in view while the pictures scroll.
        await page.evaluate(() => window.scrollTo(0, 1500));
        await page.waitForTimeout(50);
        const kept = await box(page, '#tau');
        assert.ok(kept.y >= 0 && kept.y < height, JSON.stringify(kept));
      }
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  test(`${p.name}: a count mismatch is held back while typing, and the results stay where they are`, async () => {
    const { page, problems } = await open(context, fileBase + p.file);
    let before = await readyCount(page);
    await page.click('button[data-preset="legalone-paper"]');
    await settled(page, before);
    assert.equal(await page.getAttribute('button[data-preset="legalone-paper"]', 'aria-pressed'), 'true');
    const rows = await page.locator('#result-groups tr').count();
    let chartTop = (await box(page, '#chart-curve')).y;
    await page.focus('#d');
    for (const key of '0.5, 0.3') {
      before = await readyCount(page);
      await page.keyboard.type(key);
      await settled(page, before);
      const s = await page.evaluate(() => ({
        error: !document.getElementById('d-error').hidden,
        invalid: document.getElementById('d').getAttribute('aria-invalid'),
        current: document.getElementById('results').getAttribute('data-current'),
        stale: !document.getElementById('stale-badge').hidden,
        exportsOff: [...document.querySelectorAll('button[data-export]')].every((b) => b.disabled),
        reason: document.querySelector('.export-reason').textContent,
      }));
      assert.equal(s.error, false, `no error while typing "${key}"`);
      assert.equal(s.invalid, null);
      assert.equal(await page.locator('#result-groups tr').count(), rows);
      if (s.current === 'false') assert.equal((await box(page, '#chart-curve')).y, chartTop, 'nothing moves');
      else chartTop = (await box(page, '#chart-curve')).y;
      // Between the keystrokes the text is a valid d of 1 or 2 values, or not: the marks follow it.
      assert.equal(s.current === 'false', s.stale);
      assert.equal(s.exportsOff, s.current === 'false');
      assert.equal(s.reason !== '', s.exportsOff);
    }
    // "0.5, 0.3" is two latencies for three stages: valid, so the results are current again.
    assert.equal(await page.getAttribute('#results', 'data-current'), 'true');
    // One value too many shows its error once the field loses focus.
    await page.keyboard.type(', 1');
    before = await readyCount(page);
    await page.focus('#M');
    await settled(page, before);
    assert.equal(await page.isVisible('#d-error'), true);
    assert.equal(await page.getAttribute('#d', 'aria-invalid'), 'true');
    assert.equal(await page.getAttribute('#results', 'data-current'), 'false');
    assert.equal(await page.locator('#result-groups tr').count(), rows);
    assert.ok(await page.isDisabled('button[data-export="json"]'));
    // Other errors show at once.
    before = await readyCount(page);
    await page.fill('#M', '0');
    await settled(page, before);
    assert.equal(await page.isVisible('#M-error'), true);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('every Gantt bar has its own title, takes keyboard focus and highlights its micro-batch', async () => {
  const { page, problems } = await open(context, fileBase + 'calculator.html#tau=0.5,1,1,5&d=0.2,0.1,0.3&M=6&unit=s');
  // The titled hit boxes follow the painted picture once the page is idle.
  await page.waitForSelector('#chart-gantt[data-hits] .hit');
  const titles = await page.$$eval('#chart-gantt .hit', (hits) => hits.map((h) => h.querySelector('title').textContent));
  assert.equal(titles.length, 4 * 6);
  assert.equal(new Set(titles).size, titles.length);
  const tl = hp.timeline({ tau: [0.5, 1, 1, 5], d: [0.2, 0.1, 0.3], M: 6, regime: 'async' });
  // Stage 2, micro-batch 3: cell (2, 1).
  const cell = 2 * 4 + 1;
  const title = await page.$eval('#chart-gantt .hit[data-m="2"][data-s="1"] title', (t) => t.textContent);
  assert.equal(title, `S2, micro-batch 3: ${tl.compute_start[cell]}\u00a0s to ${tl.compute_finish[cell]}\u00a0s (1\u00a0s)`);
  // One tab stop; arrow keys move between cells; focus shows the title and highlights the micro-batch.
  assert.equal(await page.locator('#chart-gantt .hit[tabindex="0"]').count(), 1);
  await page.focus('#chart-gantt .hit[tabindex="0"]');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await page.evaluate(() => [document.activeElement.dataset.m, document.activeElement.dataset.s]), ['1', '1']);
  assert.equal(await page.locator('#chart-gantt .hit.on').count(), 4);
  assert.match(await page.textContent('#gantt-tip'), /^S2, micro-batch 2: /);
  // The legend names compute, transfer and idle (and blocked time under blocking); transfers have a lane.
  const legend = await page.$$eval('#chart-gantt svg > text', (ts) => ts.map((t) => t.textContent));
  for (const word of ['compute', 'transfer on the link', 'idle']) assert.ok(legend.some((t) => t.startsWith(word)), word);
  assert.equal(await page.$eval('#chart-gantt path.xfer', (e) => Number(e.dataset.bars)), 3 * 6);
  // Zoom and pan along time, with a reset.
  const ticks = () => page.$$eval('#chart-gantt text.tick', (ts) => ts.map((t) => t.textContent));
  const whole = await ticks();
  await page.click('#gantt-zoom button[data-zoom="in"]');
  await page.click('#gantt-zoom button[data-zoom="in"]');
  assert.notDeepEqual(await ticks(), whole);
  await page.click('#gantt-zoom button[data-zoom="reset"]');
  assert.deepEqual(await ticks(), whole);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the Gantt reads at phone width and at 64 stages', async () => {
  const tau = Array.from({ length: 64 }, (_, i) => 1 + (i % 5)).join(',');
  const { page } = await open(context, fileBase + `calculator.html#tau=${tau}&M=30`);
  // Row labels are thinned so that none overlaps the next.
  const labels = await page.$$eval('#chart-gantt text.row-label', (ts) => ts.filter((t) => /^S\d+$/.test(t.textContent)).map((t) => { const b = t.getBBox(); return { y: b.y, height: b.height }; }));
  assert.ok(labels.length >= 8 && labels.length < 64);
  for (let i = 1; i < labels.length; i++) assert.ok(labels[i].y >= labels[i - 1].y + labels[i - 1].height, `label ${i}`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  const ticks = await page.$$eval('#chart-gantt text.tick', (ts) => ts.map((t) => t.textContent).filter((t) => /\d/.test(t)));
  assert.ok(ticks.length >= 3, ticks.join(' '));
  await page.close();
});

test('the M axis has whole-number ticks, and goes logarithmic for a wide range', async () => {
  for (const M of [3, 40, 1000]) {
    const { page } = await open(context, fileBase + `calculator.html#tau=0.5,1,1,5&d=0.2,0.1,0.3&M=${M}`);
    const ticks = (await page.getAttribute('#chart-curve', 'data-x-ticks')).split(',').map(Number);
    assert.ok(ticks.length >= 2 && ticks.every(Number.isInteger), `M=${M}: ${ticks}`);
    assert.equal(await page.getAttribute('.scale-toggle[data-chart="curve"]', 'aria-pressed'), 'false');
    await page.close();
  }
  const { page } = await open(context, fileBase + 'calculator.html#tau=0.5,1,1,5&d=0.2,0.1,0.3&M=1000000');
  assert.equal(await page.getAttribute('.scale-toggle[data-chart="curve"]', 'aria-pressed'), 'true');
  await page.click('.scale-toggle[data-chart="curve"]');
  assert.equal(await page.getAttribute('.scale-toggle[data-chart="curve"]', 'aria-pressed'), 'false');
  await page.close();
});

test('coinciding curves are named, and the legend shows the values at the current M', async () => {
  const { page } = await open(context, fileBase + 'calculator.html#tau=0.5,1,1,5&d=&M=8');
  assert.match(await page.textContent('#curve-note'), /T_async = T_block: no communication headroom/);
  assert.match(await page.textContent('#curve-note'), /T_free = T_async/);
  const legend = await page.$$eval('#chart-curve .u-legend .u-value', (v) => v.map((e) => e.textContent));
  const a = hp.analyze({ tau: [0.5, 1, 1, 5], M: 8 });
  assert.deepEqual(legend, ['8', '42.5', '42.5', '42.5', '55']);
  assert.equal(a.T_gpipe, 55);
  // Drag to zoom shows a reset, which brings back the whole range.
  assert.equal(await page.isVisible('.zoom-reset[data-chart="curve"]'), false);
  const over = await box(page, '#chart-curve .u-over');
  await page.mouse.move(over.x + over.width * 0.3, over.y + 50);
  await page.mouse.down();
  await page.mouse.move(over.x + over.width * 0.7, over.y + 50, { steps: 5 });
  await page.mouse.up();
  assert.equal(await page.isVisible('.zoom-reset[data-chart="curve"]'), true);
  const zoomed = await page.getAttribute('#chart-curve', 'data-x-ticks');
  await page.click('.zoom-reset[data-chart="curve"]');
  assert.equal(await page.isVisible('.zoom-reset[data-chart="curve"]'), false);
  assert.notEqual(await page.getAttribute('#chart-curve', 'data-x-ticks'), zoomed);
  await page.close();
});

test('the time unit labels the results and the axis, and the measured presets are in seconds', async () => {
  const { page } = await open(context, fileBase + 'calculator.html');
  let before = await readyCount(page);
  await page.click('button[data-preset="qwen-measured"]');
  await settled(page, before);
  assert.equal(await page.inputValue('#unit'), 's');
  assert.match(await page.textContent('#summary [data-key="T_async"]'), /\u00a0s$/);
  assert.match(await page.textContent('#result-groups [data-key="asymptotic_throughput_async"]'), /\/s$/);
  assert.match(page.url(), /unit=s/);
  // Another unit relabels the results at once.
  before = await readyCount(page);
  await page.selectOption('#unit', 'ms');
  await settled(page, before);
  assert.match(await page.textContent('#summary [data-key="T_async"]'), /\u00a0ms$/);
  await page.close();
});

test('the measured overlap is named ρ̂ and flagged outside [0, 1]', async () => {
  const { page } = await open(context, fileBase + 'calculator.html#tau=0.5,1,1,5&d=4.6,0.1,0.1&M=8&T_real=40');
  const box = await page.textContent('#reconcile');
  assert.match(box, /ρ̂ = [\d.,]+ is outside \[0, 1\]/);
  assert.equal(await page.textContent('#result-groups tr:has([data-key="overlap_ratio"]) th'), 'Measured overlap ρ̂');
  await page.close();
});

// A 620 px-high iframe: its first screen shows the link to the full page, the summary and at least
// one input, so the embed reads as a calculator, not a picture; a wide frame shows the chart there
// too. The chart fills its card at every width from the first load, without a resize.
for (const width of [390, 620, 900, 1000, 1366]) {
  test(`the embed at ${width}x620: the link, the summary and an input on the first screen, the chart filling its card`, async () => {
    for (const p of PAGES) {
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 620 });
      await page.goto(fileBase + p.file + '#embed=1&tau=1.13%2C2.901%2C2.621&d=&M=16&rho=1&T_real=');
      await page.waitForSelector('html[data-ready]');
      await page.waitForFunction(() => {
        const el = document.getElementById('chart-curve'), u = el.querySelector('.uplot');
        return u && Math.abs(u.getBoundingClientRect().width - el.clientWidth) <= 1;
      }, null, { timeout: 5000 }).catch(() => {});
      const chart = await box(page, '#chart-curve'), plot = await box(page, '#chart-curve .uplot');
      assert.ok(Math.abs(plot.width - chart.width) <= 1, JSON.stringify({ width, chart, plot }));
      const link = await box(page, '#open-full'), summary = await box(page, '#summary'), tau = await box(page, '#tau');
      assert.ok(await page.isVisible('#open-full'));
      assert.ok(link.y >= 0 && link.y + link.height <= 620, JSON.stringify(link));
      assert.ok(summary.y >= 0 && summary.y + summary.height <= 620, JSON.stringify(summary));
      assert.ok(tau.y >= 0 && tau.y + tau.height <= 620, JSON.stringify(tau));
      if (width >= 900) assert.ok(chart.y < 620, JSON.stringify(chart));
      assert.equal(await page.isVisible('#details'), false);
      assert.equal(await page.isVisible('#jump'), false);
      await page.close();
    }
  });
}
