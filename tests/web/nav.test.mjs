// First use: the page opens on a plain measured pipeline (no edge-case warning), and a nav in the
// first viewport leads to the planner, the measured run and the simulator through the fragment
// (#section=...), opening each section and scrolling to it while the rest of the state stays.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, fileBase, loadModule, typeInto, PAGES } from './helpers.mjs';

let context, hp;
before(async () => { [context, hp] = await Promise.all([launch(), loadModule()]); });
after(async () => { await context?.close(); });

const SIZES = [[1366, 900], [390, 844]];
const top = (page, sel) => page.$eval(sel, (e) => e.getBoundingClientRect().top);
const hashParams = (page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1))));

// Waits until the section element is at the top of the viewport (scrolling may be smooth).
async function atTop(page, id) {
  await page.waitForFunction((i) => Math.abs(document.getElementById(i).getBoundingClientRect().top) < 4, id);
}

for (const p of PAGES) {
  for (const [width, height] of SIZES) {
    test(`${p.name} at ${width}x${height}: the first page is a plain measured pipeline, and the nav is in view`, async () => {
      const { page, problems } = await open(context, fileBase + p.file);
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(100);
      // The legalone-measured preset: three hosts' dur_min in seconds, no link latencies.
      assert.equal(await page.inputValue('#tau'), '1.13, 2.901, 2.621');
      assert.equal(await page.inputValue('#d'), '');
      assert.equal(await page.inputValue('#unit'), 's');
      assert.equal(await page.getAttribute('button[data-preset="legalone-measured"]', 'aria-pressed'), 'true');
      const a = hp.analyze({ tau: [1.13, 2.901, 2.621], M: 8 });
      assert.equal(await page.getAttribute('#summary [data-key="T_async"]', 'data-value'), String(a.T_async));
      assert.equal(a.phase_transition, false);
      assert.equal(await page.getAttribute('#summary [data-key="phase_transition"]', 'data-value'), 'false');
      assert.equal(await page.locator('#summary .flag').count(), 0, 'no warning on the first page');
      const links = await page.$$eval('#jump a', (as) => as.map((a) => [a.dataset.section, a.getAttribute('href'), a.textContent.trim()]));
      assert.deepEqual(links.map((l) => l[0]), ['calculator', 'plan', 'measured-run', 'simulate']);
      assert.deepEqual(links.map((l) => l[1]), ['#section=calculator', '#section=plan', '#section=measured-run', '#section=simulate']);
      for (const l of links) assert.ok(l[2].length > 0);
      const nav = await page.$eval('#jump', (e) => e.getBoundingClientRect().toJSON());
      assert.ok(nav.top >= 0 && nav.bottom <= height, JSON.stringify(nav));
      assert.ok(await page.$eval('#jump', (e) => e.getAttribute('aria-label').length > 0));
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  test(`${p.name}: each nav link opens its section and moves to it, keeping what was typed`, async () => {
    const { page, problems } = await open(context, fileBase + p.file);
    await page.setViewportSize({ width: 390, height: 844 });
    await typeInto(page, 'tau', '2, 3, 4');
    await typeInto(page, 'M', '12');
    // The planner: its button's section loads and opens.
    await page.click('#jump a[data-section="plan"]');
    await page.waitForSelector('#plan-body:not([hidden])');
    await atTop(page, 'plan');
    let h = await hashParams(page);
    assert.equal(h.section, 'plan');
    assert.equal(h.tau, '2, 3, 4');
    assert.equal(h.M, '12');
    assert.equal(await page.inputValue('#tau'), '2, 3, 4');
    // The measured run: a file chooser, in view.
    await page.click('#jump a[data-section="measured-run"]');
    await atTop(page, 'measured-run');
    assert.ok(await page.isVisible('#trace-files'));
    assert.equal((await hashParams(page)).section, 'measured-run');
    // The simulator.
    await page.click('#jump a[data-section="simulate"]');
    await page.waitForSelector('#sim-body:not([hidden])');
    await atTop(page, 'simulate');
    h = await hashParams(page);
    assert.equal(h.section, 'simulate');
    assert.equal(h.tau, '2, 3, 4');
    // Back to the calculator: no section in the hash, the inputs in view.
    await page.click('#jump a[data-section="calculator"]');
    await page.waitForFunction(() => document.getElementById('inputs').getBoundingClientRect().top < 4);
    h = await hashParams(page);
    assert.equal(h.section, undefined);
    assert.equal(h.tau, '2, 3, 4');
    assert.ok(!/NaN|Infinity/.test(await page.textContent('body')));
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`${p.name}: a permalink with section= opens that section and keeps the rest of its state`, async () => {
    const { page, problems } = await open(context, fileBase + p.file + '#tau=1,2,3&d=0.5,0.5&M=6&unit=ms&section=simulate');
    await page.waitForSelector('#sim-body:not([hidden])');
    await atTop(page, 'simulate');
    assert.equal(await page.inputValue('#tau'), '1,2,3');
    assert.equal(await page.inputValue('#d'), '0.5,0.5');
    assert.equal(await page.inputValue('#M'), '6');
    assert.equal(await page.inputValue('#unit'), 'ms');
    const h = await hashParams(page);
    assert.equal(h.section, 'simulate');
    assert.equal(h.tau, '1,2,3');
    // A bare "#section=plan" typed into the address bar moves there and keeps the page's state.
    await page.evaluate(() => { location.hash = 'section=plan'; });
    await page.waitForSelector('#plan-body:not([hidden])');
    await atTop(page, 'plan');
    assert.equal(await page.inputValue('#tau'), '1,2,3');
    const again = await hashParams(page);
    assert.equal(again.section, 'plan');
    assert.equal(again.tau, '1,2,3');
    assert.equal(again.M, '6');
    assert.deepEqual(problems, []);
    await page.close();
  });
}
