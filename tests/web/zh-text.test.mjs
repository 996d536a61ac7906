// The Chinese page's running text: full-width colons and commas, stages named one way (第 N 阶段)
// in the results, the Gantt and the simulator, one list separator, and the summary's note on a line
// of its own so that "（相对 T_async 的高估）" never breaks inside its parenthesis.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, fileBase } from './helpers.mjs';

let context;
before(async () => { context = await launch(); });
after(async () => { await context?.close(); });

const STAGE = /^第 \d+ 阶段$/;

for (const [width, height] of [[1366, 900], [390, 844]]) {
  test(`zh at ${width}x${height}: full-width punctuation and one name for a stage`, async () => {
    const { page, problems } = await open(context, fileBase + 'calculator_zh.html#tau=0.5,1,1,5&d=0.2,0.1,0.3&M=8');
    await page.setViewportSize({ width, height });
    // The summary's bottleneck and the Gantt's rows name stages as 第 N 阶段.
    assert.equal(await page.textContent('#summary [data-key="bottleneck_stage"]'), '第 4 阶段');
    const rows = await page.$$eval('#chart-gantt text.row-label', (ts) => ts.map((t) => t.textContent).filter((t) => t.includes('阶段')));
    assert.ok(rows.length >= 4, JSON.stringify(rows));
    for (const r of rows) assert.ok(STAGE.test(r) || /：第 \d+ 阶段$/.test(r), r);
    // The GPipe note sits on its own line under the value: the value and the note do not share one.
    const [value, note] = await page.$eval('#summary [data-key="gpipe_overestimate"]', (dd) => {
      const small = dd.querySelector('small').getBoundingClientRect();
      const range = document.createRange(); range.selectNodeContents(dd.firstChild);
      return [range.getBoundingClientRect().toJSON(), small.toJSON()];
    });
    assert.ok(note.top >= value.bottom - 1, JSON.stringify([value, note]));
    assert.equal(await page.textContent('#summary [data-key="gpipe_overestimate"] small'), '（相对 T_async 的高估）');

    // The planner's what-if list: a full-width colon, no ASCII ": ".
    await page.click('#plan-open');
    await page.waitForSelector('#plan-result .plan-whatif li');
    const whatIf = await page.$$eval('#plan-result .plan-whatif li', (lis) => lis.map((li) => li.textContent));
    for (const w of whatIf) {
      assert.ok(w.includes('：'), w);
      assert.ok(!/[:,] /.test(w.replace(/M = /g, '')), w);
    }
    // The simulator's stages, per stage and in its table, are 第 N 阶段 too.
    await page.click('#sim-open');
    await page.waitForSelector('#sim-result table');
    const simStages = await page.$$eval('#sim-result table tbody tr td:first-child', (tds) => tds.map((t) => t.textContent));
    assert.ok(simStages.length === 4, JSON.stringify(simStages));
    for (const s of simStages) assert.ok(STAGE.test(s), s);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
