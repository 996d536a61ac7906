// Every error class a person can reach by typing, in both languages: the message is in the page's
// language, sits next to its field, names the item, marks the field for assistive technology,
// leaves the typed text alone, and no NaN or Infinity appears anywhere.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { launch, open, fileBase, loadModule, typeInto, artifactDir, PAGES } from './helpers.mjs';

let context, hp, artifacts;
before(async () => { [context, hp, artifacts] = await Promise.all([launch(), loadModule(), artifactDir()]); });
after(async () => { await context?.close(); });

const DEFAULTS = { tau: '0.5, 1, 1, 5', d: '', M: '8', rho: '1', T_real: '' };

// [field, typed text, error code, Chinese message, English message]. Both name the field as its label
// does (the results table's name), never by its key (tau, rho); the English is the module's sentence
// without the key (its detail) after that name.
// (not_finite cannot be typed: the parser reads 1e999 as too_large; too_many_cells and
// no_overlap_headroom are not field errors on this page.)
const CASES = [
  ['tau', '', 'empty', '阶段服务时间 τ：至少需要一个值',
    'Stage times τ: needs at least one value'],
  ['tau', '0.5, -1, 1', 'negative', '阶段服务时间 τ，第 2 项：必须 ≥ 0（输入为 -1）',
    'Stage times τ, item 2: must be >= 0 (got -1)'],
  ['tau', '0, 0', 'all_zero', '阶段服务时间 τ：至少要有一个阶段时间 > 0',
    'Stage times τ: at least one stage time must be > 0'],
  ['tau', '1e-20, 0', 'too_small', '阶段服务时间 τ：最大的阶段时间至少为 1e-15（输入为 1e-20）',
    'Stage times τ: the largest stage time must be at least 1e-15 (got 1e-20)'],
  ['tau', '1, 1e16', 'too_large', '阶段服务时间 τ，第 2 项：最大为 1e15（输入为 1e16）',
    'Stage times τ, item 2: must be at most 1e15 (got 1e16)'],
  ['tau', '1,,2', 'empty_item', '阶段服务时间 τ，第 2 项：分隔符之间缺少数值',
    'Stage times τ, item 2: empty item between separators'],
  ['tau', '1， abc', 'not_a_number', '阶段服务时间 τ，第 2 项：“abc”不是数字',
    "Stage times τ, item 2: 'abc' is not a number"],
  // A decimal comma in a list of blanks: it read as 5 stages, 0, 5, 1, 1 and 5.
  ['tau', '0,5 1 1 5', 'ambiguous_comma',
    '阶段服务时间 τ，第 1 项：“0,5”有歧义：数字之间的英文逗号可能是小数点或千位分隔符，而不是分隔符；请用小数点写数、不要分组（0.5、1000），并用逗号加空格分隔各项',
    "Stage times τ, item 1: '0,5' is ambiguous: a comma between digits may be a decimal or thousands mark, not a separator; write numbers with a decimal point and no grouping (0.5, 1000), and separate items with a comma and a blank"],
  // A time with its unit: the blank split it, and 'ms' was named as item 2.
  ['tau', '12 ms, 3 ms', 'has_unit', '阶段服务时间 τ，第 1 项：“12 ms”带有单位：请只输入数字，所有时间使用同一单位',
    "Stage times τ, item 1: '12 ms' has a unit: type plain numbers, every time in the same unit"],
  ['d', '1, 2', 'wrong_length', '链路延迟 d：需要 S−1 = 3 个链路延迟（每条链路一个），或者留空（输入了 2 个）',
    'Link latencies d: needs S-1 = 3 link latencies, one per link, or none (got 2)'],
  ['d', '1, -2, 3', 'negative', '链路延迟 d，第 2 项：必须 ≥ 0（输入为 -2）',
    'Link latencies d, item 2: must be >= 0 (got -2)'],
  ['M', '', 'empty', '微批数 M：不能为空',
    'Micro-batches M: is empty'],
  ['M', '2.5', 'not_integer', '微批数 M：必须是整数（输入为 2.5）',
    'Micro-batches M: must be a whole number (got 2.5)'],
  ['M', '0', 'out_of_range', '微批数 M：必须在 1 到 2^53 之间（输入为 0）',
    'Micro-batches M: must be between 1 and 2^53 (got 0)'],
  ['M', '1e999', 'out_of_range', '微批数 M：必须在 1 到 2^53 之间（输入为 1e999）',
    'Micro-batches M: must be between 1 and 2^53 (got 1e999)'],
  ['M', 'eight', 'not_a_number', '微批数 M：“eight”不是数字',
    "Micro-batches M: 'eight' is not a number"],
  ['rho', '1.5', 'out_of_range', '重叠率 ρ：必须在 0 到 1 之间（输入为 1.5）',
    'Overlap ratio ρ: must be between 0 and 1 (got 1.5)'],
  ['T_real', '0', 'not_positive', '实测完工时间 T_real：必须 > 0（输入为 0）',
    'Measured makespan T_real: must be > 0 (got 0)'],
  ['T_real', '1e20', 'too_large', '实测完工时间 T_real：最大为 1e15（输入为 1e20）',
    'Measured makespan T_real: must be at most 1e15 (got 1e20)'],
];

// The module's English message for a text, found the way the page finds it (hp.readRequest).
function moduleMessage(text) {
  const typed = { tau: text.tau, d: text.d, M: text.M };
  for (const k of ['rho', 'T_real']) if (text[k].trim() !== '') typed[k] = text[k];
  const [e] = hp.readRequest(typed).errors;
  return e && { field: e.field, code: e.code, message: e.message, detail: e.detail };
}

async function fieldState(page, field) {
  return page.evaluate((k) => {
    const input = document.getElementById(k), error = document.getElementById(k + '-error');
    return {
      message: error.hidden ? null : error.textContent,
      nextToField: input.closest('.field') === error.closest('.field'),
      invalid: input.getAttribute('aria-invalid'),
      describedby: (input.getAttribute('aria-describedby') || '').split(' '),
      value: input.value,
      resultsHidden: document.getElementById('result-groups').hidden,
      current: document.getElementById('results').getAttribute('data-current'),
      rows: document.querySelectorAll('#result-groups tr').length,
      text: document.body.innerText,
    };
  }, field);
}

for (const p of PAGES) {
  test(`${p.name}: every error class is shown next to its field, in the page's language`, async () => {
    const { page, problems } = await open(context, fileBase + p.file);
    for (const [field, typed, code, zh, en] of CASES) {
      for (const [k, v] of Object.entries(DEFAULTS)) if (k !== field && await page.inputValue('#' + k) !== v) await typeInto(page, k, v);
      const rowsBefore = (await fieldState(page, field)).rows;
      await typeInto(page, field, typed);
      // A count mismatch shows once the typing pauses (or the field loses focus); the rest at once.
      if (code === 'wrong_length') await page.waitForSelector('#d-error:not([hidden])');
      const expected = moduleMessage({ ...DEFAULTS, [field]: typed });
      assert.equal(expected.code, code, `${field}=${typed}`);
      const s = await fieldState(page, field);
      assert.equal(s.message, p.name === 'en' ? en : zh, `${field}=${typed}`);
      assert.ok(en.endsWith(expected.detail) && !en.startsWith(field + ':') && !en.startsWith(field + ','), en);
      assert.ok(s.nextToField);
      assert.equal(s.invalid, 'true');
      assert.ok(s.describedby.includes(field + '-error'));
      assert.equal(s.value, typed);
      // The last valid results stay, every row of them, marked as not current.
      assert.ok(!s.resultsHidden);
      assert.equal(s.current, 'false');
      assert.equal(s.rows, rowsBefore);
      assert.doesNotMatch(s.text, /NaN|Infinity/);
      if (p.name === 'zh') assert.doesNotMatch(s.message, /item|must|number|empty|between/);
      // Fixing the field clears the mark.
      await typeInto(page, field, DEFAULTS[field] === '' ? '1' : DEFAULTS[field]);
      if (field === 'd') await typeInto(page, field, '');
      const fixed = await fieldState(page, field);
      assert.equal(fixed.message, null);
      assert.equal(fixed.invalid, null);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`${p.name}: several bad fields are all marked at once`, async () => {
    const { page } = await open(context, fileBase + p.file + '#tau=1,x&d=&M=0&rho=2&T_real=-3');
    for (const k of ['tau', 'M', 'rho', 'T_real']) {
      const s = await fieldState(page, k);
      assert.equal(s.invalid, 'true', k);
      assert.ok(s.message, k);
    }
    assert.equal((await fieldState(page, 'd')).invalid, null);
    assert.equal(await page.inputValue('#tau'), '1,x');
    await page.close();
  });

  for (const width of [1366, 390]) test(`${p.name} at ${width}: every field's error names it as its label does, not by its key`, async () => {
    const { page, problems } = await open(context, fileBase + p.file + '#tau=1,x,3&d=1,-2&M=0&rho=2&T_real=-3');
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    const shown = await page.evaluate(() => ['tau', 'd', 'M', 'rho', 'T_real'].map((k) => {
      const e = document.getElementById(k + '-error'), box = e.getBoundingClientRect();
      return { k, text: e.hidden ? null : e.textContent, fits: box.left >= 0 && box.right <= document.documentElement.clientWidth };
    }));
    const en = p.name === 'en';
    assert.deepEqual(shown.map((x) => x.text), en ? [
      "Stage times τ, item 2: 'x' is not a number",
      'Link latencies d, item 2: must be >= 0 (got -2)',
      'Micro-batches M: must be between 1 and 2^53 (got 0)',
      'Overlap ratio ρ: must be between 0 and 1 (got 2)',
      'Measured makespan T_real: must be > 0 (got -3)',
    ] : [
      '阶段服务时间 τ，第 2 项：“x”不是数字',
      '链路延迟 d，第 2 项：必须 ≥ 0（输入为 -2）',
      '微批数 M：必须在 1 到 2^53 之间（输入为 0）',
      '重叠率 ρ：必须在 0 到 1 之间（输入为 2）',
      '实测完工时间 T_real：必须 > 0（输入为 -3）',
    ]);
    // Each starts with the words of the field's own label, and names no key.
    const labels = await page.evaluate(() => ['tau', 'd', 'M', 'rho', 'T_real'].map((k) => document.querySelector('label[for="' + k + '"]').textContent));
    shown.forEach((x, k) => {
      assert.ok(labels[k].startsWith(x.text.split(/[,:，：]/)[0]), `${labels[k]} / ${x.text}`);
      assert.doesNotMatch(x.text, /\b(tau|rho)\b|^(d|M|T_real)[,:]/);
      assert.ok(x.fits, x.k);
    });
    await page.locator('#inputs').screenshot({ path: path.join(artifacts, `calculator-errors-${p.name}-${width}.png`) });
    assert.deepEqual(problems, []);
    await page.close();
  });

  // The same texts tests/core/text_test.cpp holds text::bound to: the page words a limit as the core does.
  test(`${p.name}: limits read as people write them, as the core's sentences write them`, async () => {
    const { page } = await open(context, fileBase + p.file);
    const shown = await page.evaluate(() => [1e-9, 1e-4, 0.95, 1.5e-7, 2.5e13, 1e15, 1e-15, 2 ** 53, 1e7]
      .map((x) => window.HP_I18N.fmt.bound(x)));
    assert.deepEqual(shown, ['1e-9', '0.0001', '0.95', '1.5e-7', '2.5e13', '1e15', '1e-15', '2^53', '10,000,000']);
    await page.close();
  });

  // The page reads the field while the input event is handled, so the error is there when the event
  // returns: the test reads it then, not after the browser's own layout of 20 MB of typed text.
  test(`${p.name}: more than 10,000,000 stage times is refused with the limit`, async () => {
    const { page, problems } = await open(context, fileBase + p.file);
    const hash = await page.evaluate(() => location.hash);
    const s = await page.evaluate(() => {
      const el = document.getElementById('tau');
      el.value = '1,'.repeat(10_000_001);
      el.dispatchEvent(new Event('input'));
      return [document.getElementById('tau-error').textContent, el.value.length, location.hash];
    });
    assert.deepEqual(s, [p.name === 'en' ? 'Stage times τ, item 10000001: at most 10,000,000 values' : '阶段服务时间 τ，第 10000001 项：最多 10,000,000 个值',
      20_000_002, hash]);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
