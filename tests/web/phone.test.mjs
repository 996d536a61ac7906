// The planner and the simulator as a visitor reads them, at a laptop's and a phone's width: each
// device and its link on their own lines, the split chart's GPU names at a legible size, a GPU's name
// on one line in the tables, numbers to 4 significant figures with their units, and the simulator's
// per-stage table with units and its caption aligned with it, and no table of the planner or the
// measured run wider than the page (stacked, each cell named by its column, on a phone).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { launch, open, fileBase, root, artifactDir, PAGES } from './helpers.mjs';

let context;
before(async () => { context = await launch(); });
after(async () => { await context?.close(); });

// Two real per-rank traces (tests/data/traces), imported by the measured-run section.
const REAL = [0, 1].map((r) => path.join(root, 'tests', 'data', 'traces', `hta_sampled_rank-${r}.json.gz`));

// Each of the section's tables (in its scrolling box, `box`): how much wider it is than the box,
// and what a narrow screen shows before a body cell's value (its column's name there, none on a wide one).
function overflow(page, box) {
  return page.$$eval(box, (boxes) => boxes.map((b) => {
    const heads = Array.from(b.querySelectorAll('thead th'), (th) => th.textContent);
    const cells = Array.from(b.querySelectorAll('tbody tr:first-child td'));
    return { wider: b.scrollWidth - b.clientWidth, right: b.querySelector('table').getBoundingClientRect().right, heads,
      before: cells.map((c) => getComputedStyle(c, '::before').content) };
  }));
}

// No table wider than its box or the page; at 390 px, each cell named by its column's head.
function assertFits(tables, width, what) {
  assert.ok(tables.length > 0, what);
  for (const t of tables) {
    assert.equal(t.wider, 0, what + ': ' + JSON.stringify(t));
    assert.ok(t.right <= width, what + ': ' + JSON.stringify(t));
    assert.deepEqual(t.before, t.heads.map((h) => (width < 720 ? JSON.stringify(h) : 'none')), what);
  }
}

// Significant digits of a number as the page wrote it (grouping and sign left out).
const digits = (text) => text.replace(/[^0-9.]/g, '').replace(/^0*\.?0*/, '').replace('.', '').length;

for (const p of PAGES) {
  for (const [width, height] of [[1366, 900], [1280, 800], [390, 844]]) {
    test(`${p.name} at ${width}x${height}: the planner, the simulator and the measured run read at this width, no table scrolling sideways`, async () => {
      const { page, problems } = await open(context, fileBase + p.file + '#section=plan');
      await page.setViewportSize({ width, height });
      await page.waitForSelector('#plan-result table');
      // Redraw at this width (a device chosen again replans).
      await page.selectOption('#plan-devices select[data-device="0"]', 'rtx-4090');
      await page.waitForSelector('#plan-result table');
      await page.waitForTimeout(300);

      // Each device's link on a line of its own, below the device's select and its Remove button.
      const lines = await page.$$eval('#plan-devices li', (lis) => lis.map((li) => {
        const r = (el) => el && el.getBoundingClientRect();
        const link = r(li.querySelector('.plan-link')), select = r(li.querySelector('select[data-device]')), remove = r(li.querySelector('button[data-remove]'));
        return { link: link && link.top, above: Math.max(select.bottom, remove.bottom) };
      }));
      assert.equal(lines.length, 3);
      for (const l of lines.slice(0, -1)) assert.ok(l.link >= l.above - 1, JSON.stringify(l));
      assert.equal(lines[2].link, null, 'the last device has no link after it');

      // The split chart's names: drawn at the page's size, not scaled down.
      const names = await page.$$eval('#plan-result text.plan-name', (ts) => ts.map((t) => t.getBoundingClientRect().height));
      assert.equal(names.length, 3);
      for (const h of names) assert.ok(h >= 11, String(h));
      const chart = await page.$eval('#plan-result svg.plan-bars', (s) => s.getBoundingClientRect().right);
      assert.ok(chart <= width, 'the chart fits the page');

      // A GPU's name on one line in the stages table; 4 significant figures at most.
      const cells = await page.$$eval('#plan-result .plan-stages tbody tr', (rows) => rows.map((r) => {
        const range = document.createRange(); range.selectNodeContents(r.cells[0]);
        return { lines: new Set(Array.from(range.getClientRects(), (x) => Math.round(x.top))).size, tau: r.cells[3].textContent, memory: r.cells[4].textContent };
      }));
      for (const c of cells) {
        assert.equal(c.lines, 1, JSON.stringify(c));
        assert.ok(digits(c.tau) <= 4, c.tau);
        for (const part of c.memory.split('/')) assert.ok(digits(part) <= 4, c.memory);
      }
      // No table scrolls sideways: at a phone's width each row is a block of named cells.
      assertFits(await overflow(page, '#plan-result .plan-scroll'), width, 'planner');
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= width);
      const headline = await page.textContent('#plan-result .plan-headline');
      const tps = headline.match(/[0-9][0-9.,]*/)[0];
      assert.ok(digits(tps) <= 4, headline);
      // The what-if: tokens per second with its unit, and the change with its unit.
      const whatIf = await page.$$eval('#plan-result .plan-whatif li', (lis) => lis.map((li) => li.textContent));
      assert.ok(whatIf.length > 0);
      const unit = p.name === 'en' ? 'tok/s' : 'token/秒';
      for (const w of whatIf) if (!w.includes(p.name === 'en' ? 'no split' : '没有能放进')) assert.equal(w.split(unit).length - 1, 2, w);

      // The simulator's per-stage table: a unit in each time column, the caption aligned with it.
      await page.click('#sim-open');
      await page.waitForSelector('#sim-result table.sim-table');
      const heads = await page.$$eval('#sim-result table.sim-table thead th', (ths) => ths.map((t) => t.textContent));
      assert.equal(heads.length, 4);
      for (const h of heads.slice(1)) assert.ok(/\(s\)|（s）/.test(h), h);
      const [caption, table] = await page.$eval('#sim-result table.sim-table', (t) => [t.caption.getBoundingClientRect().left, t.getBoundingClientRect().left]);
      assert.ok(Math.abs(caption - table) <= 1, JSON.stringify([caption, table]));

      // The measured run's tables (per stage, per link, per rank) read without sideways scrolling too.
      await page.setInputFiles('#trace-files', REAL);
      await page.waitForSelector('#trace-body .trace-scroll');
      const traceTables = await overflow(page, '#trace-body .trace-scroll');
      assert.equal(traceTables.length, 3);
      assertFits(traceTables, width, 'measured run');
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= width);
      await (await page.$('#plan-result')).screenshot({ path: path.join(await artifactDir(), `phone-planner-${p.name}-${width}.png`) });
      await (await page.$('#trace-body')).screenshot({ path: path.join(await artifactDir(), `phone-trace-${p.name}-${width}.png`) });
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
}
