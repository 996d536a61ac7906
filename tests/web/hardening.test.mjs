// Exactness at the edges and bounded pages: the core decides every case, and the pages show what it
// decided in both languages; a huge pipeline does not put its lists into the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, fileBase, pageValues, PAGES } from './helpers.mjs';

let context;
before(async () => { context = await launch(); });
after(async () => { await context?.close(); });

function hash(fields) {
  return '#' + Object.entries(fields).map(([k, v]) => k + '=' + encodeURIComponent(v)).join('&');
}

for (const p of PAGES) {
  test(`${p.name}: M past 2^53 or not whole is refused, as typed`, async () => {
    for (const [M, en] of [['9007199254740993', 'Micro-batches M: must be between 1 and 2^53 (got 9007199254740993)'],
      ['9007199254740992.5', 'Micro-batches M: must be a whole number (got 9007199254740992.5)'],
      ['0.99999999999999999', 'Micro-batches M: must be a whole number (got 0.99999999999999999)']]) {
      const { page, problems } = await open(context, fileBase + p.file + hash({ tau: '1', M }));
      assert.equal(await page.getAttribute('#M', 'aria-invalid'), 'true', M);
      assert.equal(await page.inputValue('#M'), M);
      const shown = await page.textContent('#M-error');
      if (p.name === 'en') assert.equal(shown, en);
      else assert.ok(shown.includes(M), shown);
      assert.equal(await page.isHidden('#result-groups'), true);
      assert.deepEqual(problems, []);
    }
  });

  test(`${p.name}: 0.1 + 0.2 = 0.3 as typed is no phase transition; full-width digits read; -0 is 0`, async () => {
    const { page } = await open(context, fileBase + p.file + hash({ tau: '0.1, 0.3', d: '0.2', M: '8', rho: '-0' }));
    const v = await pageValues(page);
    assert.equal(v.phase_transition, 'false');
    assert.equal(v.link_margin, '0');
    assert.equal(v.full_bias, '0');
    assert.equal(v.overlap_headroom, 'false');
    assert.equal(v.sigma_max, v.tau_max);
    assert.equal(v.rho, '0');
    const { page: wide } = await open(context, fileBase + p.file + hash({ tau: '１.１３，２.９０，２.６２', M: '１００' }));
    const { page: narrow } = await open(context, fileBase + p.file + hash({ tau: '1.13, 2.90, 2.62', M: '100' }));
    assert.deepEqual(await pageValues(wide), await pageValues(narrow));
    assert.equal((await pageValues(wide)).T_gpipe, '295.8');
    // A value that rounds to zero is shown with no sign: a percentage of -0.001 % read '-0%'.
    const zeros = await page.evaluate(() => {
      const f = window.HP_I18N.fmt;
      return [f.percent(-1e-5), f.percent(-0), f.integer(-0.3), f.short(-0), f.four(-0), f.number(-0), f.percent(-0.5)];
    });
    assert.deepEqual(zeros, ['0%', '0%', '0', '0', '0', '0', '-50%']);
  });

  test(`${p.name}: the embed code of a 10,000-stage pipeline scrolls in a box of a few lines`, async () => {
    const tau = Array.from({ length: 10_000 }, (_, s) => String(1 + (s % 7))).join(',');
    const { page, problems } = await open(context, fileBase + p.file + hash({ tau, M: '8' }));
    const [height, scrolls, text] = await page.$eval('#embed-snippet', (code) => {
      const box = code.closest('pre');
      return [box.getBoundingClientRect().height, box.scrollHeight > box.clientHeight, code.textContent];
    });
    // The snippet carries the whole pipeline, yet takes at most ten lines of the page (it ran to
    // hundreds), and scrolls, by keyboard too.
    assert.ok(text.includes('tau=' + encodeURIComponent(tau.slice(0, 200))) && text.length > tau.length, text.slice(0, 80));
    assert.ok(height <= 12 * 10 + 24, `${height} px`);
    assert.ok(scrolls);
    assert.equal(await page.$eval('#embed-snippet', (code) => code.closest('pre').tabIndex), 0);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`${p.name}: a 200,000-stage pipeline keeps only the ends of its lists in the page`, async () => {
    const S = 200_000;
    const tau = Array.from({ length: S }, (_, s) => String(1 + (s % 7))).join(',');
    const { page, problems } = await open(context, fileBase + p.file + hash({ tau, M: '8' }));
    const cells = await page.evaluate(() => Array.from(document.querySelectorAll('#result-groups td.list'),
      (td) => ({ key: td.dataset.key, count: td.dataset.count, length: td.dataset.value.length, value: td.dataset.value })));
    assert.deepEqual(cells.map((c) => c.key), ['tau', 'd', 'sigma', 'link_slack', 'link_margin']);
    for (const c of cells) {
      assert.equal(c.count, String(c.key === 'tau' || c.key === 'sigma' ? S : S - 1));
      assert.ok(c.length < 200, `${c.key}: ${c.length} characters`);
    }
    assert.equal(cells[0].value, '1,2,3,4,5,6,7,1,…,3,4,5,6,7,1,2,3');
    const v = await pageValues(page);
    assert.equal(v.S, String(S));
    assert.equal(v.tau_max, '7');
    const html = await page.evaluate(() => document.getElementById('result-groups').innerHTML.length);
    assert.ok(html < 20_000, `results markup: ${html} characters`);
    assert.deepEqual(problems, []);
  });
}
