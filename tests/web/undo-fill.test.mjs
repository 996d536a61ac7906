// A button that hands values to the calculator's fields (a preset, the planner's "Use this
// pipeline", the measured run's "Fill") never loses what was typed: its message beside the fields
// has "Undo", which puts back every field as typed (bad text included) and the results it gave;
// typing in a field withdraws the offer, and a click that changes nothing offers none.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { launch, open, fileBase, root, settled, readyCount, pageValues, typeInto, PAGES } from './helpers.mjs';

let context;
before(async () => { context = await launch(); });
after(async () => { await context?.close(); });

const FIELDS = ['tau', 'd', 'M', 'rho', 'T_real', 'unit'];
const fieldValues = (page) => Promise.all(FIELDS.map((k) => page.inputValue('#' + k)));

// Clicks `selector`, waits for the page, and returns the fields it left.
async function click(page, selector) {
  const n = await readyCount(page);
  await page.click(selector);
  await settled(page, n);
  return fieldValues(page);
}

for (const p of PAGES) {
  const en = p.name === 'en';
  test(`${p.name}: a preset, the planner's pipeline and a measured run each offer Undo back to the fields as typed`, async () => {
    // Typed by hand: a good pipeline with T_real, then, for the planner, one with a bad item.
    const { page, problems } = await open(context, fileBase + p.file + '#tau=3,1,2&d=0.5,0.25&M=16&rho=0.5&T_real=40&unit=ms');
    const typed = await fieldValues(page), typedResults = await pageValues(page);
    assert.deepEqual(typed, ['3,1,2', '0.5,0.25', '16', '0.5', '40', 'ms']);

    // A preset: every field changes; Undo restores them, and the same results.
    const preset = await click(page, '#presets button[data-preset]');
    assert.notDeepEqual(preset, typed);
    const name = await page.textContent('#presets button[data-preset]');
    assert.equal(await page.textContent('#fill-status'), (en ? `The fields now hold the preset ${name}.` : `各字段已载入预设“${name}”。`) + ' ' + (en ? 'Undo' : '撤销'));
    assert.deepEqual(await click(page, '#fill-status button.undo-fill'), typed);
    assert.deepEqual(await pageValues(page), typedResults);
    assert.equal(await page.textContent('#fill-status'), en ? 'The fields hold what they held before.' : '各字段已恢复为之前的内容。');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'tau');

    // Typing after a preset withdraws its Undo: it would lose that typing.
    await click(page, '#presets button[data-preset]');
    await typeInto(page, 'M', '9');
    assert.equal(await page.$('#fill-status button.undo-fill'), null);
    // The same preset again changes nothing once its fields are back: no Undo to offer.
    await click(page, '#presets button[data-preset]');
    assert.ok(await page.$('#fill-status button.undo-fill'));
    await click(page, '#presets button[data-preset]');
    assert.equal(await page.$('#fill-status button.undo-fill'), null);

    // Bad text typed is kept too: the planner's pipeline, then Undo, gives back 'x' and its error.
    await typeInto(page, 'tau', '3, x, 2');
    const bad = await fieldValues(page);
    await page.click('#plan-open');
    await page.waitForSelector('#plan-result table');
    const used = await click(page, '#plan-use');
    assert.notDeepEqual(used, bad);
    assert.match(await page.textContent('#fill-status'), en ? /^The calculator now shows this pipeline: .* Undo$/ : /^计算器已载入此流水线：.* 撤销$/);
    assert.deepEqual(await click(page, '#fill-status button.undo-fill'), bad);
    assert.equal(await page.getAttribute('#tau', 'aria-invalid'), 'true');

    // A measured run's Fill, then Undo.
    await typeInto(page, 'tau', '3, 1, 2');
    const good = await fieldValues(page);
    const files = [0, 1, 2].map((r) => path.join(root, 'tests', 'data', 'traces', 'synthetic', `rank-${r}.json.gz`));
    const n = await page.evaluate(() => Number(document.getElementById('trace-body')?.dataset.answered || 0));
    await page.setInputFiles('#trace-files', files);
    await page.waitForFunction((k) => Number(document.getElementById('trace-body')?.dataset.answered || 0) > k, n);
    const filled = await click(page, '#trace-use');
    assert.notDeepEqual(filled, good);
    assert.equal(filled[4] !== '', true, 'T_real filled');
    assert.equal(await page.textContent('#fill-status'), (en ? 'The calculator now holds this run’s τ, d, M and T_real.' : '计算器已填入本次运行的 τ、d、M 和 T_real。') + ' ' + (en ? 'Undo' : '撤销'));
    assert.deepEqual(await click(page, '#fill-status button.undo-fill'), good);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
