// Accessibility: axe-core (npm, run inside the page) finds no violation on either page in the light
// and dark themes, with a bad input showing its error, with the planner open, and in the embed; the page announces only the
// summary, once typing settles; the skip link reaches the results; a <noscript> message exists.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launch, open, fileBase, settled, readyCount, site, axeViolations, PAGES } from './helpers.mjs';

let context;
before(async () => { context = await launch(); });
after(async () => { await context?.close(); });

for (const p of PAGES) {
  test(`${p.name}: no axe violations in light, dark, error, planner and embed states`, async () => {
    const { page, problems } = await open(context, fileBase + p.file + '#tau=0.5,1,1,5&d=0.2,4.6,0.3&M=12&rho=0.5&T_real=70&unit=s');
    assert.deepEqual(await axeViolations(page), [], 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(150);
    assert.deepEqual(await axeViolations(page), [], 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    const before = await readyCount(page);
    await page.fill('#tau', '1, x');
    await settled(page, before);
    assert.equal(await page.isVisible('#tau-error'), true);
    assert.deepEqual(await axeViolations(page), [], 'error');
    await page.click('#plan-open');
    await page.waitForSelector('#plan-result table');
    assert.deepEqual(await axeViolations(page), [], 'planner open');
    const { page: embed } = await open(context, fileBase + p.file + '#embed=1&tau=1.13%2C2.901%2C2.621&d=&M=16&rho=1&T_real=');
    assert.deepEqual(await axeViolations(embed), [], 'embed');
    await embed.emulateMedia({ colorScheme: 'dark' });
    await embed.waitForTimeout(150);
    assert.deepEqual(await axeViolations(embed), [], 'embed, dark');
    assert.deepEqual(problems, []);
    await Promise.all([page.close(), embed.close()]);
  });

  test(`${p.name}: only the summary is announced, after typing settles; the skip link reaches the results`, async () => {
    const { page } = await open(context, fileBase + p.file);
    const live = await page.$$eval('[aria-live]', (els) => els.map((e) => e.id));
    assert.deepEqual(live, ['announce']);
    await page.focus('#M');
    for (const key of ['0', '0']) {
      const before = await readyCount(page);
      await page.keyboard.type(key);
      await settled(page, before);
      assert.equal(await page.textContent('#announce'), '', 'nothing while typing');
    }
    await page.waitForFunction(() => document.getElementById('announce').textContent !== '');
    const said = await page.textContent('#announce');
    assert.ok(said.includes(await page.textContent('#summary [data-key="T_async"]')), said);
    // The language switch's accessible name starts with the text it shows.
    const sw = await page.$eval('#lang-switch', (a) => [a.textContent, a.getAttribute('aria-label')]);
    assert.ok(sw[1].startsWith(sw[0]), sw.join(' | '));
    // The skip link is the first stop and moves focus to the results.
    const first = await page.evaluate(() => document.querySelector('a[href], button, input, select, [tabindex]').className);
    assert.equal(first, 'skip');
    await page.focus('.skip');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'results');
    // The inputs are still the ones typed (the hash that holds them is untouched).
    assert.equal(await page.inputValue('#M'), '800');
    // Typed on into a bad value, the error is what is said once typing settles: the numbers of the
    // last good input (M = 800, while 800x was already refused) were said instead.
    await page.focus('#M');
    for (const key of ['0', 'x']) {
      const before = await readyCount(page);
      await page.keyboard.type(key);
      await settled(page, before);
    }
    await page.waitForFunction(() => document.getElementById('announce').textContent === document.getElementById('M-error').textContent);
    const error = await page.textContent('#M-error');
    assert.ok(error.includes('8000x'), error);
    await page.close();
  });

  test(`${p.name}: the page says what to do with JavaScript off`, async () => {
    const html = await readFile(site + '/' + p.file, 'utf8');
    assert.match(html, /<noscript>.+<\/noscript>/s);
  });
}
