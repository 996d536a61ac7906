// Issue 25 item 3, on issue 24 item 7's numbers: the planner's answer leads with one sentence, a
// stage above 95 % of its memory shows a warning marked data-warning="memory", and an input that no
// split fits says in GiB what is missing and what would fit, in both languages, at a laptop's and a
// phone's width, with axe at zero; and (issue 24.5) every speed shown carries its band, "17.6 tok/s
// (typically 15–20)", in the lead, the headline, the baselines' table and the what-if list.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { launch, open, fileBase, modulePath, axeViolations, PAGES } from './helpers.mjs';

let context, full;
before(async () => {
  const require = createRequire(import.meta.url);
  [context, full] = await Promise.all([launch(), require(modulePath)()]);
});
after(async () => { await context?.close(); });

const INPUT = { model: 'llama-3-70b', quant: 'Q4_K_M', phase: 'decode', objective: 'async',
  devices: ['rtx-4090', 'rtx-3090', 'rtx-3090'], links: ['pcie4-x16', 'pcie4-x16'], context: 4096, tokens: 1, M: 1 };
const name = (id) => full.catalog().gpus.find((g) => g.id === id).name;

// What the page's four-significant-digit numbers read as, in the page's locale.
const four = (lang, x) => new Intl.NumberFormat(lang, { maximumSignificantDigits: 4 }).format(x);
const gib = (lang, bytes) => four(lang, bytes / 2 ** 30) + ' GiB';

for (const p of PAGES) {
  for (const [width, height] of [[1366, 900], [390, 844]]) {
    test(`${p.name} at ${width}x${height}: the plan's lead sentence, its memory warning, and an input that does not fit`, async () => {
      const { page, problems } = await open(context, fileBase + p.file + '#section=plan');
      await page.setViewportSize({ width, height });
      await page.waitForSelector('#plan-result table');
      const plan = full.plan(INPUT);

      // The lead: device 2 holds the fewest layers (18, as many as device 3: the two RTX 3090s
      // split their 36 evenly), and the plan without it is no slower.
      const fewest = plan.stages.reduce((a, s) => (s.layers < a.layers ? s : a));
      assert.deepEqual(plan.stages.map((s) => s.layers), [44, 18, 18]);
      assert.deepEqual([fewest.device, fewest.layers], [1, 18]);
      const without = plan.what_if.find((w) => w.change === 'remove' && w.device === 1);
      assert.ok(without.feasible && without.tokens_per_second_change >= 0);
      // Issue 24.5: every speed with its band, the core's tokens_per_second_band, to four significant figures.
      const speed = (x) => {
        const [lo, hi] = x.tokens_per_second_band.map((v) => four(p.lang, v));
        return p.name === 'en' ? `${four(p.lang, x.tokens_per_second)} tok/s (typically ${lo}–${hi})`
          : `${four(p.lang, x.tokens_per_second)} token/秒（通常 ${lo}–${hi}）`;
      };
      const lead = p.name === 'en'
        ? `Device 2 (${name('rtx-3090')}) holds 18 layers; without it you lose nothing: ${speed(without)}.`
        : `设备 2（${name('rtx-3090')}）只承担 18 层；去掉它不会损失速度：${speed(without)}。`;
      assert.equal(await page.$eval('#plan-result > :first-child', (e) => e.textContent), lead);
      assert.equal(await page.$eval('#plan-result > :first-child', (e) => e.className), 'plan-lead');
      const [lo, hi] = plan.tokens_per_second_band.map((v) => four(p.lang, v));
      const tps = four(p.lang, plan.tokens_per_second);
      assert.ok((await page.textContent('#plan-result .plan-headline')).startsWith(p.name === 'en'
        ? `Optimal split: ${tps} tok/s (tokens × M / T(M); typically ${lo}–${hi}).`
        : `最优切分：${tps} token/秒（token 数 × M / T(M)；通常 ${lo}–${hi}）。`));
      // One unit word per language in the whole section: tok/s, token/秒 (the headline said tokens/s).
      const section = await page.textContent('#plan');
      assert.equal(/tokens\/s|Tokens\/s|tokens per second/.test(section), false, 'tokens/s in the section');
      if (p.name !== 'en') assert.equal(section.includes('tok/s'), false, 'tok/s in the Chinese section');
      const head = await page.$$eval('#plan-result table:not(.plan-stages) th', (th) => th[1].textContent);
      // The speeds are at the plan's M, which the column names (it read M = 1 whatever M was).
      assert.equal(head, p.name === 'en' ? `tok/s (M = ${plan.analysis.M})` : `token/秒（M = ${plan.analysis.M}）`);
      // The baselines' tok/s column: the optimum, even and memory-proportional, each with its band.
      const cells = await page.$$eval('#plan-result table:not(.plan-stages) tbody tr', (rows) => rows.map((r) => r.cells[1].textContent));
      const cell = (x) => speed(x).replace(p.name === 'en' ? ' tok/s' : ' token/秒', '');
      assert.deepEqual(cells, [plan, plan.baselines.even, plan.baselines.memory_proportional].map(cell));
      // The loss column and the headline write a percent as every other percent of the page does
      // (Intl's 7.6%): no space, so a narrow column never wraps the % alone onto a line of its own.
      const short = (x) => new Intl.NumberFormat(p.lang, { maximumSignificantDigits: 3 }).format(x);
      const losses = await page.$$eval('#plan-result table:not(.plan-stages) tbody tr', (rows) => rows.map((r) => r.cells[3].textContent));
      assert.deepEqual(losses, ['—', short(plan.baselines.even.loss_percent) + '%', short(plan.baselines.memory_proportional.loss_percent) + '%']);
      const lossLines = await page.$$eval('#plan-result table:not(.plan-stages) tbody tr', (rows) => rows.slice(1).map((r) => {
        const range = document.createRange(); range.selectNodeContents(r.cells[3]); return range.getClientRects().length;
      }));
      assert.deepEqual(lossLines, [1, 1], 'a loss cell wraps');
      assert.ok((await page.textContent('#plan-result .plan-headline')).endsWith(p.name === 'en'
        ? ` The memory-proportional default costs ${short(plan.baselines.memory_proportional.loss_percent)}%.`
        : `按显存比例的默认切分损失 ${short(plan.baselines.memory_proportional.loss_percent)}%。`));
      // The what-if list: each feasible speed with its band, then its change.
      const items = await page.$$eval('#plan-result .plan-whatif li', (li) => li.map((e) => e.textContent));
      assert.equal(items.length, plan.what_if.length);
      plan.what_if.forEach((w, k) => {
        if (w.feasible) assert.ok(items[k].includes(speed(w) + (p.name === 'en' ? ', ' : '，')), items[k]);
      });
      // A phone shows the lead whole, inside the page's width.
      const box = await page.$eval('#plan-lead', (e) => { const r = e.getBoundingClientRect(); return [r.left, r.right]; });
      assert.ok(box[0] >= 0 && box[1] <= width, `lead at ${box}`);
      if (width > 1000) {
        // At M = 8 the column names M = 8, beside the plan's speed at M = 8.
        await page.fill('#plan-M', '8');
        const eight = full.plan({ ...INPUT, M: 8 });
        const expected = p.name === 'en' ? 'tok/s (M = 8)' : 'token/秒（M = 8）';
        await page.waitForFunction((e) => document.querySelectorAll('#plan-result table:not(.plan-stages) th')[1]?.textContent === e,
          expected);
        const first = await page.$eval('#plan-result table:not(.plan-stages) tbody tr', (r) => r.cells[1].textContent);
        assert.equal(first, cell(eight));
        await page.fill('#plan-M', '1');
        await page.waitForFunction(() => document.querySelectorAll('#plan-result table:not(.plan-stages) th')[1]?.textContent.includes('1'));
      }

      // The RTX 4090's stage is over 95 % full: one visible warning, with the core's fraction.
      assert.equal(plan.warnings.length, 1);
      const w = plan.warnings[0];
      assert.ok(w.fraction > 0.95 && w.fraction < 0.99, String(w.fraction));
      const warning = page.locator('#plan-result [data-warning="memory"]');
      assert.equal(await warning.count(), 1);
      assert.ok(await warning.isVisible());
      const percent = four(p.lang, w.fraction * 100);
      assert.equal(await warning.textContent(), p.name === 'en'
        ? `Device 1 (${name('rtx-4090')}) is ${percent}% full: a runtime that needs a little more memory than estimated will not load this split.`
        : `设备 1（${name('rtx-4090')}）的显存已用 ${percent}%：运行时只要比估算多需一点显存，就无法加载此切分。`);
      assert.deepEqual(await axeViolations(page), []);

      // F16 does not fit these three cards: the shortfall in GiB and what would fit, above the result.
      await page.selectOption('#plan-quant', 'F16');
      await page.waitForSelector('#plan-section-errors[data-error="memory"]');
      let e;
      try { full.plan({ ...INPUT, quant: 'F16' }); } catch (error) { e = error; }
      assert.deepEqual([e.code, e.field], ['memory_short', 'memory']);
      assert.ok(e.fits_quant, 'some smaller quantization fits');
      assert.ok(full.plan({ ...INPUT, quant: e.fits_quant }).stages.length, 'the quantization named fits');
      const shown = await page.textContent('#plan-section-errors');
      if (p.name === 'en') {
        assert.equal(shown, e.message);
        assert.match(shown, /GiB of memory is missing/);
      } else {
        const device = e.fits_with_device === null ? '' : `在链路末尾再加一台与设备 ${e.fits_with_device + 1} 相同的设备`;
        const fits = device ? `；改用量化 ${e.fits_quant} 可以放下，${device}也可以` : `；改用量化 ${e.fits_quant} 可以放下`;
        // The shortfall is the value; the devices hold the need less it (not the shortfall).
        assert.equal(shown, `显存：缺少 ${gib(p.lang, e.value)}（各层共需 ${gib(p.lang, e.limit)}，设备合计只有 ${gib(p.lang, e.limit - e.value)}）${fits}`);
      }
      assert.doesNotMatch(shown, /\d{7,}/, 'no raw byte counts');
      // The last good plan stays, dimmed; the error is announced.
      assert.equal(await page.getAttribute('#plan-result', 'class'), 'stale');
      assert.ok((await page.textContent('#plan-alert')).includes('GiB'));
      assert.deepEqual(await axeViolations(page), []);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
}
