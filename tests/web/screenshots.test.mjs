// Screenshots of both pages with every picture drawn (light, dark, phone width, print, the first
// screen at 1366x900 and 390x844, the embed), saved to build/test-artifacts/ for people to look at;
// the test asserts that each picture is on screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { launch, open, fileBase, artifactDir, PAGES } from './helpers.mjs';

let context, dir;
before(async () => { [context, dir] = await Promise.all([launch(), artifactDir()]); });
after(async () => { await context?.close(); });

const STATE = '#tau=0.5%2C1%2C1%2C5&d=0.2%2C4.6%2C0.3&M=12&rho=0.5&T_real=70';

async function assertPictures(page) {
  for (const id of ['#chart-curve canvas', '#chart-over canvas', '#chart-gantt svg', '#chart-slack svg']) {
    assert.ok(await page.isVisible(id), id);
    const box = await page.locator(id).first().boundingBox();
    assert.ok(box.width > 200 && box.height > 60, `${id} ${JSON.stringify(box)}`);
  }
  const bars = await page.$$eval('#chart-gantt path.mb', (ps) => ps.reduce((n, e) => n + Number(e.dataset.bars), 0));
  assert.equal(bars, 4 * 12);
}

for (const p of PAGES) {
  test(`${p.name}: screenshots with all pictures`, async () => {
    const { page, problems } = await open(context, fileBase + p.file + STATE);
    await assertPictures(page);
    await page.screenshot({ path: path.join(dir, `calculator-${p.name}.png`), fullPage: true });

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(100);
    await page.screenshot({ path: path.join(dir, `calculator-${p.name}-dark.png`), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });

    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(250);
    await assertPictures(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px at phone width`);
    await page.screenshot({ path: path.join(dir, `calculator-${p.name}-phone.png`), fullPage: true });

    for (const [width, height] of [[1366, 900], [390, 844]]) {
      await page.setViewportSize({ width, height });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(250);
      await page.screenshot({ path: path.join(dir, `calculator-${p.name}-first-screen-${width}.png`) });
    }

    await page.setViewportSize({ width: 1100, height: 900 });
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: path.join(dir, `calculator-${p.name}-print.png`), fullPage: true });
    assert.ok(!(await page.isVisible('#share')));
    assert.deepEqual(problems, []);
    await page.close();

    const { page: embed } = await open(context, fileBase + p.file + '#embed=1&tau=1.13%2C2.901%2C2.621&d=&M=16&rho=1&T_real=&unit=s');
    await embed.setViewportSize({ width: 620, height: 620 });
    await embed.waitForTimeout(250);
    await embed.screenshot({ path: path.join(dir, `calculator-${p.name}-embed.png`) });
    await embed.close();
  });
}

test('keyboard alone: tab reaches the fields, presets and toggles, and Enter presses them', async () => {
  const { page } = await open(context, fileBase + 'calculator.html');
  await page.focus('#T_real');
  const seen = [];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    seen.push(await page.evaluate(() => document.activeElement.getAttribute('data-preset')));
  }
  assert.ok(seen.includes('phase'));
  while (await page.evaluate(() => document.activeElement.getAttribute('data-preset')) !== 'phase') await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('d').value === '4.6, 0.1, 0.1');
  assert.equal(await page.getAttribute('[data-key="phase_transition"]', 'data-value'), 'true');
  await page.close();
});

test('the Chinese page has no English left in its interface, apart from symbols, units and names', async () => {
  const { page } = await open(context, fileBase + 'calculator_zh.html#tau=0.5,1,1,5&d=0.2,4.6,0.3&M=12&T_real=70');
  const text = await page.evaluate(() => {
    document.getElementById('embed-snippet').textContent = ''; // HTML code to copy, not interface text
    return [document.title, document.body.innerText,
      ...[...document.querySelectorAll('[aria-label], title')].map((e) => e.getAttribute('aria-label') || e.textContent)].join(' ');
  });
  // Symbols (T_async, d_s, max), proper names (GPipe, heteropipe, WebAssembly, the author, the models,
  // hosts and data file, the profilers whose traces the measured run reads), file formats, and the name
  // of the other language on its switch.
  const allowed = /^(T_(free|async|block|gpipe|real)|M?T_\w+|max|d_s|GPipe|MGPipe|heteropipe|WebAssembly|ZHU|Wenbo|legalone:?|qwen|node-|real_vs_formula\.csv|dur_(min|p)|Kineto|PNG|SVG|JSON|json\.gz|CSV|English)$/;
  const words = [...new Set(text.match(/[A-Za-z][A-Za-z_.:-]{2,}/g))].filter((w) => !allowed.test(w));
  assert.deepEqual(words, []);
  await page.close();
});
