// Sharing: the permalink round trip, the language switch, copy link, the exports' contents,
// the Gantt regime toggle, and the embed mode through web/embed-example.html.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { launch, open, serve, fileBase, loadModule, modulePath, typeInto, pageValues, expectedValues, foreignRequests, PAGES } from './helpers.mjs';

let context, server, hp;
before(async () => { [context, server, hp] = await Promise.all([launch(), serve(), loadModule()]); });
after(async () => { await context?.close(); await server?.close(); });

const TEXT = { tau: '1.13，2.901 2.621', d: '0.4, 5', M: '37', rho: '0.25', T_real: '120' };
const INPUT = { tau: [1.13, 2.901, 2.621], d: [0.4, 5], M: 37, rho: 0.25, T_real: 120 };

async function typeAll(page) { for (const [k, v] of Object.entries(TEXT)) await typeInto(page, k, v); }

async function download(page, selector) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: d.suggestedFilename(), body: await readFile(await d.path()) };
}

for (const p of PAGES) {
  test(`${p.name}: a link restores the typed state, and the language switch keeps it`, async () => {
    const { page } = await open(context, fileBase + p.file);
    await typeAll(page);
    await page.click('#regime-toggle button[data-regime="blocking"]');
    // The link follows after the next paint (app.js): on a busy machine, later than the click.
    await page.waitForFunction(() => location.hash.includes('regime=blocking'));
    const url = page.url();
    assert.match(url, /#/);
    const expected = expectedValues(hp.analyze(INPUT));
    assert.deepEqual(await pageValues(page), expected);

    const { page: again } = await open(context, url);
    for (const [k, v] of Object.entries(TEXT)) assert.equal(await again.inputValue('#' + k), v);
    assert.deepEqual(await pageValues(again), expected);
    assert.equal(await again.getAttribute('#regime-toggle button[data-regime="blocking"]', 'aria-pressed'), 'true');

    // The other language, reached by its switch, shows the same state.
    await again.click('#lang-switch');
    await again.waitForFunction((lang) => document.documentElement.lang !== lang && document.documentElement.hasAttribute('data-ready'), p.lang);
    for (const [k, v] of Object.entries(TEXT)) assert.equal(await again.inputValue('#' + k), v);
    assert.deepEqual(await pageValues(again), expected);
    // A link with a bad field restores the bad text and its error.
    const { page: bad } = await open(context, fileBase + p.file + '#tau=1%2C%2C2&M=8');
    assert.equal(await bad.inputValue('#tau'), '1,,2');
    assert.equal(await bad.getAttribute('#tau', 'aria-invalid'), 'true');
    await Promise.all([page.close(), again.close(), bad.close()]);
  });

  test(`${p.name}: exports hold the module's numbers`, async () => {
    // A link with stage times and no unit: the times carry none (the first page's are in s).
    const { page, problems } = await open(context, fileBase + p.file + '#tau=1');
    await typeAll(page);
    const a = hp.analyze(INPUT);
    const json = await download(page, 'button[data-export="json"]');
    assert.match(json.name, /\.json$/);
    // The analysis under the module's version and the time unit (none here), numbers as
    // JavaScript writes them: the shortest text that reads back to the same double.
    const exported = JSON.parse(json.body.toString());
    assert.equal(exported.heteropipe_version, hp.version);
    assert.equal(exported.time_unit, null);
    const { heteropipe_version: _v, time_unit: _u, ...rest } = exported;
    assert.deepEqual(rest, JSON.parse(JSON.stringify(a)));
    assert.ok(json.body.toString().includes('"T_async": ' + String(a.T_async) + ','));

    const csv = await download(page, 'button[data-export="csv"]');
    const rows = csv.body.toString().trim().split('\n').map((r) => r.split(','));
    assert.deepEqual(rows[0], ['M', 'T_free', 'T_async', 'T_block', 'T_gpipe', 'gpipe_overestimate']);
    const batches = hp.curveBatches({ tau: INPUT.tau, d: INPUT.d, M: INPUT.M, points: 240 });
    const curve = hp.makespanCurve({ tau: INPUT.tau, d: INPUT.d, batches });
    assert.equal(rows.length - 1, curve.M.length);
    rows.slice(1).forEach((r, i) => assert.deepEqual(r.map(Number), rows[0].map((k) => curve[k][i])));
    assert.ok(curve.M.includes(37) && curve.M.includes(Math.ceil(a.crossover_batches)));

    // PNGs: light whatever the page's theme (here dark), at twice the chart's CSS width.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(100);
    for (const kind of ['png-curve', 'png-over']) {
      const png = await download(page, `button[data-export="${kind}"]`);
      assert.deepEqual([...png.body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], kind);
      assert.ok(png.body.length > 5000, kind);
      const css = await page.$eval(kind === 'png-curve' ? '#chart-curve' : '#chart-over', (e) => Math.max(280, e.clientWidth));
      assert.equal(png.body.readUInt32BE(16), 2 * css, kind);
      assert.deepEqual(firstPixel(png.body), [255, 255, 255, 255], kind);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    const gantt = (await download(page, 'button[data-export="svg-gantt"]')).body.toString();
    assert.match(gantt, /^<\?xml/);
    // 3 stages x 24 micro-batches shown (of 37), each bar styled by its class from one style block,
    // in the light theme (white background) whatever the page's.
    const bars = [...gantt.matchAll(/<path class="mb mb\d" data-bars="(\d+)" d="([^"]*)"\/>/g)];
    assert.equal(bars.reduce((sum, b) => sum + Number(b[1]), 0), 3 * 24);
    assert.equal(bars.reduce((sum, b) => sum + (b[2].match(/M/g) || []).length, 0), 3 * 24);
    assert.equal((gantt.match(/<style>/g) || []).length, 1);
    assert.doesNotMatch(gantt, / style="| fill="rgb/);
    assert.match(gantt, /<rect width="100%" height="100%" fill="#ffffff"\/>/);
    assert.match(gantt, /path\.mb\.mb0\{fill:rgb\(56, 103, 168\)/);
    // The regime is named in the picture itself, for print and export.
    assert.ok(gantt.includes(p.name === 'en' ? 'Schedule timeline (asynchronous transfers)' : '调度时间线（异步传输）'));
    // The schedule as CSV: every cell and transfer of the timeline shown, exactly the engine's.
    const schedule = (await download(page, 'button[data-export="csv-schedule"]')).body.toString().trim().split('\n');
    const tl = hp.timeline({ tau: INPUT.tau, d: INPUT.d, M: 24, regime: 'async' });
    assert.equal(schedule[0], 'stage,microbatch,kind,start,end');
    assert.equal(schedule.length - 1, 24 * 3 + 24 * 2);
    assert.equal(schedule[1], `0,0,compute,${tl.compute_start[0]},${tl.compute_finish[0]}`);
    assert.equal(schedule[2], `0,0,transfer,${tl.transfer_start[0]},${tl.transfer_finish[0]}`);
    assert.equal(schedule.at(-1), `2,23,compute,${tl.compute_start[71]},${tl.compute_finish[71]}`);
    const slack = (await download(page, 'button[data-export="svg-slack"]')).body.toString();
    assert.equal((slack.match(/class="slack-bar( past)?"/g) || []).length, 1 + 2); // legend + 2 links
    assert.match(slack, /class="slack-bar past"/); // d[1] = 5 > tau_max - tau[1] = 0
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('with a time unit, the CSV columns name it, and trace import reads the schedule back in it', async () => {
  const whole = await createRequire(import.meta.url)(modulePath)();
  const { page, problems } = await open(context, fileBase + 'calculator.html#tau=1.5,2,1&d=0.25,0.5&M=6&unit=ms');
  const curve = (await download(page, 'button[data-export="csv"]')).body.toString().split('\n');
  assert.equal(curve[0], 'M,T_free_ms,T_async_ms,T_block_ms,T_gpipe_ms,gpipe_overestimate');
  const schedule = (await download(page, 'button[data-export="csv-schedule"]')).body.toString();
  assert.equal(schedule.split('\n')[0], 'stage,microbatch,kind,start_ms,end_ms');
  // Read back in ms: the pipeline typed, and the engine's makespan as T_real.
  const r = whole.importTrace([{ name: 'schedule.csv', bytes: schedule }], { unit: 'ms' });
  assert.deepEqual([r.tau, r.d, r.M], [[1.5, 2, 1], [0.25, 0.5], 6]);
  assert.equal(r.T_real, hp.analyze({ tau: [1.5, 2, 1], d: [0.25, 0.5], M: 6 }).T_async);
  assert.deepEqual(problems, []);
  await page.close();
});

test('each Gantt row ends with its stage\'s utilization, the engine\'s, in both regimes', async () => {
  const { page, problems } = await open(context, fileBase + 'calculator.html#tau=1,2,1&d=3,0.5&M=10');
  const shares = () => page.$$eval('#chart-gantt text.row-label', (ts) => ts.map((t) => t.textContent).filter((x) => x.endsWith('%')));
  const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });
  for (const regime of ['async', 'blocking']) {
    if (regime === 'blocking') {
      await page.click('#regime-toggle button[data-regime="blocking"]');
      await page.waitForSelector('#regime-toggle button[data-regime="blocking"][aria-pressed="true"]');
    }
    const tl = hp.timeline({ tau: [1, 2, 1], d: [3, 0.5], M: 10, regime });
    assert.deepEqual(await shares(), Array.from(tl.utilization, (u) => percent.format(u)), regime);
  }
  // Blocking, sigma = [4, 2.5, 1]: stage 0 holds 40 of the 10 x 4 + 2 + 0.5 + 1 = 43.5.
  assert.deepEqual((await shares())[0], percent.format(40 / 43.5));
  assert.deepEqual(problems, []);
  await page.close();
});

test('the Gantt toggle switches between the engine\'s asynchronous and blocking schedules', async () => {
  const { page } = await open(context, fileBase + 'calculator.html#tau=1,2,1&d=3,0.5&M=30');
  // Every bar is one subpath "Mx y h..." of its colour's path.
  const bars = () => page.$$eval('#chart-gantt path.mb', (ps) => ps.flatMap((e) => e.getAttribute('d').split('M').slice(1)));
  const asyncBars = await bars();
  assert.equal(asyncBars.length, 3 * 24);
  assert.match(await page.textContent('#gantt-note'), /24 of 30/);
  await page.click('#regime-toggle button[data-regime="blocking"]');
  await page.waitForSelector('#regime-toggle button[data-regime="blocking"][aria-pressed="true"]');
  assert.notDeepEqual(await bars(), asyncBars);
  // Blocking: each send holds its stage (drawn as blocked time on the row) while it runs on the link.
  const count = (sel) => page.$$eval(sel, (ps) => ps.reduce((n, e) => n + Number(e.dataset.bars), 0));
  assert.equal(await count('#chart-gantt path.blocked'), 2 * 24);
  assert.equal(await count('#chart-gantt path.xfer'), 2 * 24);
  assert.match(await page.textContent('#chart-gantt'), /Schedule timeline \(blocking transfers\)/);
  // The bottleneck row is named: under blocking, sigma = [4, 2.5, 1] puts it on stage 1.
  assert.match(await page.textContent('#chart-gantt'), /bottleneck: S1/);
  await page.close();
});

test('the permalink writes regime=async or blocking, and still reads the former asynchronous and block', async () => {
  const pressed = (page, regime) => page.getAttribute('#regime-toggle button[data-regime="' + regime + '"]', 'aria-pressed');
  for (const [written, regime] of [['asynchronous', 'async'], ['async', 'async'], ['block', 'blocking'], ['blocking', 'blocking']]) {
    const { page } = await open(context, fileBase + 'calculator.html#tau=1,2,1&d=3,0.5&M=10&regime=' + written);
    assert.equal(await pressed(page, regime), 'true', written);
    await page.close();
  }
  const { page } = await open(context, fileBase + 'calculator.html#tau=1,2,1&d=3,0.5&M=10&regime=blocking');
  await page.click('#regime-toggle button[data-regime="async"]');
  await page.waitForFunction(() => /[#&]regime=async(&|$)/.test(location.hash));
  await page.close();
});

// A link holds at most MAX_LINK_CHARS (web/js/state.js) characters. Longer inputs are still read and
// shown; the address bar, the language switch and the embed code keep the last inputs that fit, and
// Copy link is off, with the reason beside it in the page's language.
for (const p of PAGES) {
  test(`${p.name}: inputs too long for a link stay on the page, and the link keeps the last that fit`, async () => {
    const { page, problems } = await open(context, fileBase + p.file + '#tau=2,3&M=5');
    const limit = 1048576;
    const fitted = await page.evaluate(() => [location.hash, document.getElementById('lang-switch').getAttribute('href')]);
    // Blanks around a number are not part of it: a valid T_real just over the limit on its own.
    const long = ' '.repeat(limit) + '7';
    const before = Number(await page.getAttribute('html', 'data-ready'));
    await page.evaluate((t) => { const el = document.getElementById('T_real'); el.value = t; el.dispatchEvent(new Event('input')); }, long);
    await page.waitForFunction((n) => Number(document.documentElement.getAttribute('data-ready')) > n, before);
    const shown = await page.evaluate(() => ({
      hash: location.hash, lang: document.getElementById('lang-switch').getAttribute('href'),
      copy: document.getElementById('copy-link').disabled, reason: document.getElementById('link-reason').textContent,
      typed: document.getElementById('T_real').value.length,
      T_real: document.querySelector('[data-key="T_real"]')?.dataset.value,
    }));
    assert.deepEqual([shown.hash, shown.lang], fitted);
    assert.equal(shown.copy, true);
    assert.equal(shown.reason, p.name === 'en'
      ? 'The inputs are too long for a link (over 1,048,576 characters): the address bar keeps the last inputs that fit.'
      : '输入过长，放不进链接（超过 1,048,576 个字符）：地址栏保留最后一次放得下的输入。');
    assert.equal(shown.typed, limit + 1);
    assert.equal(shown.T_real, '7');
    // Back under the limit, the link follows the inputs again.
    await typeInto(page, 'T_real', '8');
    const after = await page.evaluate(() => [location.hash, document.getElementById('copy-link').disabled, document.getElementById('link-reason').textContent]);
    assert.match(after[0], /[#&]T_real=8(&|$)/);
    assert.deepEqual(after.slice(1), [false, '']);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('copy link puts the permalink on the clipboard', async () => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base.replace(/\/$/, '') });
  const { page } = await open(context, server.base + 'calculator.html#tau=2,3&d=1&M=5&rho=1&T_real=');
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('copy-status').textContent !== '');
  assert.equal(await page.textContent('#copy-status'), 'Link copied.');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), page.url());
  await page.close();
});

for (const origin of ['file', 'http']) {
  test(`the embed example shows the compact calculator (${origin})`, async () => {
    const base = origin === 'file' ? fileBase : server.base;
    const { page, problems, requests } = await openPlain(base + 'embed-example.html');
    const frame = page.frame({ url: /calculator\.html/ });
    assert.ok(frame);
    await frame.waitForSelector('html[data-ready]');
    assert.ok(await frame.evaluate(() => document.body.classList.contains('embed')));
    const values = await frame.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-key]')].map((e) => [e.dataset.key, e.dataset.value])));
    assert.equal(values.T_async, String(hp.analyze({ tau: [1.13, 2.901, 2.621], M: 16 }).T_async));
    assert.ok(await frame.isVisible('#chart-curve canvas'));
    assert.ok(!(await frame.isVisible('#fig-gantt')));
    assert.ok(!(await frame.isVisible('#share')));
    assert.ok(await frame.isVisible('#open-full'));
    assert.deepEqual(problems, []);
    assert.deepEqual(foreignRequests(requests, base), []);
    await page.close();
  });
}

// The RGBA of a PNG's top-left pixel (8-bit RGBA): whatever the row's filter, the first pixel of the
// first row is stored as is.
function firstPixel(png) {
  const idat = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at), type = png.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  assert.equal(png[25], 6, 'RGBA');
  return [...inflateSync(Buffer.concat(idat)).subarray(1, 5)];
}

// The embed example has no data-ready of its own: open it and wait for its frame instead.
async function openPlain(url) {
  const page = await context.newPage();
  const problems = [], requests = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url);
  await page.waitForSelector('#embedded');
  for (let i = 0; i < 100 && !page.frame({ url: /calculator\.html/ }); i++) await page.waitForTimeout(50);
  return { page, problems, requests };
}
