// The "Variability and buffers" section: loaded only when opened, it runs the calculator's pipeline
// through the whole module's hp.simulate in a Web Worker. Deterministic service collapses the
// histogram on the calculator's T_async; every statistic shown is hp.simulate's for the same
// request and seed; the measured preset is the data set's four columns; a long run can be
// cancelled; a bad CV is the core's coded error in both languages; axe finds nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { launch, open, fileBase, root, modulePath, settled, readyCount, pageValues, typeInto, foreignRequests, axeViolations, PAGES } from './helpers.mjs';

let context, full;
before(async () => {
  const require = createRequire(import.meta.url);
  [context, full] = await Promise.all([launch(), require(modulePath)()]);
});
after(async () => { await context?.close(); });

// The statistics the section shows, as { key: data-value }.
async function shownStats(page) {
  return page.evaluate(() => {
    const out = {};
    document.querySelectorAll('#sim-result [data-key]').forEach((el) => { out[el.dataset.key] = el.dataset.value; });
    return out;
  });
}

// The same statistics from a result of hp.simulate.
function expectedStats(r) {
  const m = r.makespan;
  const out = { mean: m.mean, sd: m.sd, ci95: Array.from(m.ci95).join(','), p50: m.p50, p90: m.p90, p95: m.p95, p99: m.p99, min: m.min, max: m.max,
    deterministic_makespan: r.deterministic_makespan, jensen_gap: r.jensen_gap, jensen_gap_ci95: Array.from(r.jensen_gap_ci95).join(','), T_async: r.T_async, T_block: r.T_block, throughput_mean: r.throughput.mean };
  for (const k of Object.keys(out)) out[k] = String(out[k]);
  return out;
}

async function openSim(page) {
  await page.click('#sim-open');
  await page.waitForSelector('#sim-result .sim-stats');
}

// Sets a simulator field as typed and waits for the result that follows (a new statistics list or an error).
async function setField(page, id, value, waitFor = '#sim-result .sim-stats') {
  await page.evaluate(() => { const r = document.getElementById('sim-result'); r.innerHTML = ''; });
  if ((await page.$eval('#' + id, (el) => el.tagName)) === 'SELECT') await page.selectOption('#' + id, value);
  else await page.fill('#' + id, value);
  await page.waitForSelector(waitFor);
}

// The calculator's request as its fields hold it.
async function calculatorInput(page) {
  const typed = await page.evaluate(() => ({ tau: document.getElementById('tau').value, d: document.getElementById('d').value, M: document.getElementById('M').value }));
  return full.readRequest(typed).request;
}

for (const p of PAGES) {
  test(`${p.name}: deterministic service collapses on the calculator's T_async; the statistics are hp.simulate's`, async () => {
    const { page, problems, requests } = await open(context, fileBase + p.file);
    assert.ok(!requests.some((u) => u.endsWith('/heteropipe.js') || u.includes('sim-')), 'the simulator is not part of the first load');
    await openSim(page);
    // The default: lognormal service of CV 0.5, 1000 replications, seed 1.
    const input = await calculatorInput(page);
    const request = { tau: input.tau, d: input.d, M: input.M, links: 'async', reps: 1000, seed: 1, service: 'lognormal:cv=0.5',
      link_service: 'deterministic', buffers: 'inf' };
    assert.deepEqual(await shownStats(page), expectedStats(full.simulate(request)));

    await setField(page, 'sim-service', 'deterministic');
    const calc = await pageValues(page);
    const stats = await shownStats(page);
    for (const k of ['mean', 'p50', 'p99', 'min', 'max', 'deterministic_makespan']) assert.equal(stats[k], calc.T_async, k);
    assert.equal(stats.T_async, calc.T_async);
    assert.equal(stats.T_block, calc.T_block);
    assert.equal(stats.jensen_gap, '0');
    // One bar, on T_async: the histogram holds every replication in its one bin.
    assert.equal(await page.$$eval('#sim-result .sim-hist rect', (r) => r.length), 1);

    // Blocking links with bounded buffers: the page still shows hp.simulate's numbers, and the
    // sampled run's Gantt chart draws blocked time.
    await setField(page, 'sim-links', 'blocking');
    await setField(page, 'sim-buffers', '0');
    await setField(page, 'sim-service', 'exponential');
    const blocked = { ...request, links: 'blocking', buffers: '0', service: 'exponential' };
    assert.deepEqual(await shownStats(page), expectedStats(full.simulate(blocked)));
    assert.ok(await page.$('#sim-gantt-box svg path.blocked'), 'blocked time is drawn');
    assert.ok(!Object.values(await shownStats(page)).some((v) => /NaN|Infinity/.test(v)));
    assert.ok(!/NaN|Infinity/.test(await page.textContent('#simulate')));

    // The link carries the section's form: opened again, it opens itself with the same numbers.
    const { page: again } = await open(context, page.url());
    await again.waitForSelector('#sim-result .sim-stats');
    assert.equal(await again.inputValue('#sim-buffers'), '0');
    assert.deepEqual(await shownStats(again), expectedStats(full.simulate(blocked)));

    assert.deepEqual(problems, []);
    assert.deepEqual(foreignRequests(requests, fileBase), []);
    await Promise.all([page.close(), again.close()]);
  });
}

// The preset's hosts as the data set gives them (real_vs_formula.csv, legalone:8b): dur_min, dur_p5,
// dur_p50, dur_p95 of node-01, node-02, node-03.
const HOSTS = [[1.13, 7.006, 8.569, 10.3396], [2.901, 2.961, 4.817, 12.666], [2.621, 2.6381, 4.5855, 12.50665]];

// The data set is not in the repository; where a copy sits in ../shared beside it, the preset's
// numbers are its columns (the file prints two of them through binary floating point).
const DATA = path.join(root, '..', 'shared', 'data', 'real_vs_formula.csv');
test('the measured preset is the data set\'s dur_min, dur_p5, dur_p50, dur_p95 per host', { skip: !existsSync(DATA) && `no ${DATA}` }, () => {
  const [header, ...rows] = readFileSync(DATA, 'utf8').trim().split('\n').map((line) => line.split(','));
  const columns = ['dur_min', 'dur_p5', 'dur_p50', 'dur_p95'].map((c) => header.indexOf(c));
  const hosts = ['node-01', 'node-02', 'node-03'].map((node) => {
    const row = rows.find((r) => r[0] === 'legalone:8b' && r[1] === node);
    return columns.map((c) => Number(Number(row[c]).toPrecision(12)));
  });
  assert.deepEqual(hosts, HOSTS);
});

for (const p of PAGES) {
  test(`${p.name}: the measured preset runs the data set's quantiles, far above the formula`, async () => {
    const { page, problems } = await open(context, fileBase + p.file);
    await openSim(page);
    await page.evaluate(() => { document.getElementById('sim-result').innerHTML = ''; });
    await page.click('#sim-preset');
    await page.waitForSelector('#sim-result .sim-stats');
    assert.equal(await page.inputValue('#sim-service'), 'measured');
    assert.equal(await page.inputValue('#tau'), '1.13, 2.901, 2.621');
    // Each host's four columns as quantiles at the probabilities they name.
    const request = { tau: [1.13, 2.901, 2.621], d: [], M: 8, links: 'async', reps: 1000, seed: 1, service_samples: HOSTS,
      service_probabilities: [0, 0.05, 0.5, 0.95], link_service: 'deterministic', buffers: 'inf' };
    const r = full.simulate(request);
    assert.deepEqual(await shownStats(page), expectedStats(r));
    // The same quantile function as 21 evenly spaced quantiles through the four points (straight
    // lines between, p95 at the top): the same draws but for rounding.
    const line = (a, b, k) => a + (b - a) * k / 9;
    const spaced = HOSTS.map(([min, p5, p50, p95]) => [min, ...[...Array(10).keys()].map((k) => line(p5, p50, k)),
      ...[...Array(9).keys()].map((k) => line(p50, p95, k + 1)), p95]);
    const even = full.simulate({ ...request, service_samples: spaced, service_probabilities: undefined, quantiles: true });
    assert.ok(Math.abs(even.makespan.mean - r.makespan.mean) <= 1e-9 * r.makespan.mean, `${even.makespan.mean} against ${r.makespan.mean}`);
    assert.ok(Math.abs(even.deterministic_makespan - r.deterministic_makespan) <= 1e-12 * r.deterministic_makespan);
    // The sampled run's Gantt rows end with its utilization, the core's busy over its makespan.
    const sampled = full.simulate({ ...request, reps: 1, timeline: true });
    const utilization = Array.from(sampled.run.utilization);
    const ends = await page.$$eval('#sim-gantt-box text.row-label:not([text-anchor])', (ts) => ts.map((t) => t.textContent));
    assert.deepEqual(ends.slice(0, 3), await page.evaluate((u) => u.map((x) => window.heteropipePage.format.percent(x)), utilization));
    assert.ok(utilization.every((u, s) => u === sampled.run.busy[s] / sampled.run.makespan && u > 0.3 && u < 1));
    // The paper's formula at dur_min against the distribution those hosts give.
    assert.equal(r.T_async, full.analyze({ tau: [1.13, 2.901, 2.621], M: 8 }).T_async);
    assert.ok(r.makespan.p50 > 2 * r.T_async, `p50 ${r.makespan.p50} against T_async ${r.T_async}`);
    assert.ok(r.jensen_gap > 0);
    assert.deepEqual(problems, []);
    await page.close();
  });

  for (const width of [1366, 390]) test(`${p.name} at ${width}: each bad field's error under it in user words, all at once, the last result kept and dimmed`, async () => {
    const { page } = await open(context, fileBase + p.file);
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await openSim(page);
    const zh = p.name === 'zh';
    // A bad CV: under its box, the field named by its label (not the key "service"), the text kept.
    await page.fill('#sim-cv', '5');
    await page.waitForSelector('#sim-controls .sim-field-error');
    let error;
    try { full.simulate({ tau: [1.13, 2.901, 2.621], M: 8, service: 'lognormal:cv=5' }); } catch (e) { error = e; }
    assert.deepEqual([error.code, error.field, error.detail], ['out_of_range', 'service', 'must be between 0 and 4 (got 5)']);
    assert.equal(await page.inputValue('#sim-cv'), '5');
    assert.equal(await page.getAttribute('#sim-cv', 'aria-invalid'), 'true');
    const cvError = (await page.getAttribute('#sim-cv', 'aria-describedby')).split(' ')[0];
    const shown = await page.textContent('#' + cvError);
    assert.equal(shown, zh ? '变异系数（均匀分布：相对幅度）：必须在 0 到 4 之间（输入为 5）'
      : 'Coefficient of variation (uniform: relative spread): must be between 0 and 4 (got 5)');
    assert.ok(!/service/.test(shown));
    // The error sits in the CV box's own field, under it.
    assert.ok(await page.$eval('#' + cvError, (e) => e.closest('.field') === document.getElementById('sim-cv').closest('.field')));
    // The last good result stays, dimmed.
    assert.ok(await page.$('#sim-result .sim-stats'));
    assert.equal(await page.getAttribute('#sim-result', 'class'), 'stale');

    // Three bad fields at once: each under its own, the seed as typed (no NaN).
    await page.fill('#sim-reps', '0');
    await page.fill('#sim-seed', 'x');
    await page.waitForFunction(() => document.querySelectorAll('#sim-controls .sim-field-error').length === 3);
    let three;
    try { full.simulate({ tau: [1.13, 2.901, 2.621], M: 8, service: 'lognormal:cv=5', reps: 0, seed: 'x' }); } catch (e) { three = e; }
    // The seed's own reading comes first: typed text, read by the core as the CLI reads --seed.
    assert.deepEqual(three.errors.map((e) => e.field), ['seed', 'service', 'reps']);
    for (const id of ['sim-cv', 'sim-reps', 'sim-seed']) assert.equal(await page.getAttribute('#' + id, 'aria-invalid'), 'true', id);
    const seedShown = await page.textContent('#' + (await page.getAttribute('#sim-seed', 'aria-describedby')).split(' ')[0]);
    // Not "must be a finite number (got "x")": x is no number at all.
    assert.equal(seedShown, zh ? '随机种子：“x”不是数字' : "Seed: 'x' is not a number");
    assert.equal(three.errors[0].message, "seed: 'x' is not a number");
    // An empty CV box: the number after cv= is missing, not an unknown distribution.
    const cvShown = () => page.evaluate(() => {
      const hint = document.getElementById('sim-cv').getAttribute('aria-describedby') || '';
      return document.getElementById(hint.split(' ')[0])?.textContent || '';
    });
    await page.fill('#sim-cv', '');
    await page.waitForFunction(() => /cv=/.test(document.querySelector('#sim-cv')?.closest('.field')?.textContent || ''));
    assert.equal(await cvShown(), zh ? '变异系数（均匀分布：相对幅度）：cv= 之后缺少数值（输入为 lognormal:cv=）'
      : "Coefficient of variation (uniform: relative spread): the value after cv= is missing (got 'lognormal:cv=')");
    await page.fill('#sim-cv', '5');
    // A seed that is a number but no whole one.
    await page.fill('#sim-seed', '1.5');
    await page.waitForFunction(() => /1\.5/.test(document.querySelector('#sim-seed')?.closest('.field')?.textContent || ''));
    const seedWhole = await page.textContent('#' + (await page.getAttribute('#sim-seed', 'aria-describedby')).split(' ')[0]);
    assert.equal(seedWhole, zh ? '随机种子：必须是整数（输入为 1.5）' : 'Seed: must be a whole number (got 1.5)');
    // Past the doubles: the text goes to the core as typed (as the CLI's --seed 1e400 does), never as
    // a JS number, which would be Infinity.
    let seedHuge;
    try { full.simulate({ tau: [1.13, 2.901, 2.621], M: 8, seed: '1e400' }); } catch (e) { seedHuge = e; }
    assert.deepEqual([seedHuge.code, seedHuge.field, seedHuge.token], ['out_of_range', 'seed', '1e400']);
    await page.fill('#sim-seed', '1e400');
    await page.waitForFunction(() => /1e400/.test(document.querySelector('#sim-seed')?.closest('.field')?.textContent || ''));
    const hugeShown = await page.textContent('#' + (await page.getAttribute('#sim-seed', 'aria-describedby')).split(' ')[0]);
    // Out of its range as a seed of 1e20 is (it said "at most 2^53" beside 1e20's "between 0 and 2^53").
    assert.equal(seedHuge.detail, 'must be between 0 and 2^53 (got 1e400)');
    assert.equal(hugeShown, zh ? '随机种子：必须在 0 到 2^53 之间（输入为 1e400）' : 'Seed: ' + seedHuge.detail);
    assert.ok(!/Infinity/.test(await page.textContent('#sim-controls')));
    assert.ok(!/NaN/.test(await page.textContent('#sim-controls')));
    // The hint stays described too.
    assert.match(await page.getAttribute('#sim-seed', 'aria-describedby'), / sim-seed-hint$/);
    // Fixed: the errors go, the result is current again and the hint alone describes the box.
    await page.fill('#sim-cv', '0.5');
    await page.fill('#sim-reps', '1000');
    await page.fill('#sim-seed', '1');
    await page.waitForFunction(() => !document.querySelector('.sim-field-error') && !document.getElementById('sim-result').classList.contains('stale'));
    assert.equal(await page.getAttribute('#sim-seed', 'aria-invalid'), null);
    assert.equal(await page.getAttribute('#sim-seed', 'aria-describedby'), 'sim-seed-hint');

    // Per stage: under that stage's box, named by its label and the stage.
    await page.check('#sim-perStage');
    await page.waitForSelector('#sim-stages input[data-stage-cv="2"]');
    await page.fill('#sim-stages input[data-stage-cv="2"]', 'x');
    await page.waitForSelector('#sim-stages .sim-field-error');
    let stageError;
    try { full.simulate({ tau: [1.13, 2.901, 2.621], M: 8, service: ['lognormal:cv=0.5', 'lognormal:cv=0.5', 'lognormal:cv=x'] }); } catch (e) { stageError = e; }
    assert.equal(stageError.index, 2);
    assert.equal(await page.textContent('#sim-stages .sim-field-error'), zh ? '变异系数或幅度，第 3 个阶段：“x”不是数字' : "CV or spread, stage 3: 'x' is not a number");
    assert.equal(await page.getAttribute('#sim-stages input[data-stage-cv="2"]', 'aria-invalid'), 'true');
    assert.equal(await page.inputValue('#sim-stages input[data-stage-cv="2"]'), 'x');

    // A work limit that only the pipeline and the buffer together break: the buffers' history.
    await page.uncheck('#sim-perStage');
    await typeInto(page, 'd', '');
    await typeInto(page, 'tau', '1, 1, 1, 1, 1, 1, 1, 1');
    await typeInto(page, 'M', '1000000');
    await setField(page, 'sim-reps', '1');
    await page.evaluate(() => { document.getElementById('sim-result').innerHTML = ''; });
    await setField(page, 'sim-buffers', '600000', '#sim-controls .sim-field-error');
    let historyError;
    try { full.simulate({ tau: Array(8).fill(1), M: 1e6, buffers: '600000' }); } catch (e) { historyError = e; }
    assert.deepEqual([historyError.code, historyError.field, historyError.index, historyError.value],
      ['buffer_history_too_large', 'buffers', 0, 4800008]);
    assert.equal(await page.getAttribute('#sim-buffers', 'aria-invalid'), 'true');
    assert.equal(await page.inputValue('#sim-buffers'), '600000');
    const historyShown = await page.textContent('#sim-controls .sim-field-error');
    if (p.name === 'en') assert.equal(historyShown, 'Buffers, ' + historyError.detail);
    else assert.equal(historyShown, '缓冲区，第 1 条链路：S × (缓冲区 + 1) = 4,800,008 个需保留的释放时间，超过上限 4,194,304（请用更小的缓冲区，或 inf）');
    await page.locator('#simulate').screenshot({ path: path.join(root, 'build', 'test-artifacts', `sim-errors-${p.name}-${width}.png`) });
    await page.close();
  });
}

// Two significant places as the test writes them itself: the first significant digit of x.
const placesOf = (x) => (x > 0 ? Math.max(0, Math.min(6, -Math.floor(Math.log10(x)))) : 0);
const signed = (x, places) => (x > 0 ? '+' : x < 0 ? '-' : '') + Math.abs(x).toFixed(places) + '%';

for (const p of PAGES) {
  for (const width of [1366, 390]) {
    test(`${p.name} at ${width}: the headline is the mean and p99 against T_async in percent with the mean's interval; the cost of variability has its interval; the marks' labels never overlap`, async () => {
      const { page, problems } = await open(context, fileBase + p.file);
      await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
      await openSim(page);
      const zh = p.name === 'zh';
      const input = await calculatorInput(page);
      const request = { tau: input.tau, d: input.d, M: input.M, links: 'async', reps: 1000, seed: 1, service: 'lognormal:cv=0.5',
        link_service: 'deterministic', buffers: 'inf' };
      const r = full.simulate(request);
      // The core's percentages, as this test works them out from the statistics.
      assert.ok(Math.abs(r.mean_vs_T_async_percent - (r.makespan.mean - r.T_async) / r.T_async * 100) < 1e-9);
      assert.ok(Math.abs(r.mean_vs_T_async_ci95_percent - (r.makespan.ci95[1] - r.makespan.mean) / r.T_async * 100) < 1e-9);
      assert.ok(Math.abs(r.p99_vs_T_async_percent - (r.makespan.p99 - r.T_async) / r.T_async * 100) < 1e-9);
      const places = placesOf(r.mean_vs_T_async_ci95_percent);
      const mean = signed(r.mean_vs_T_async_percent, places), half = r.mean_vs_T_async_ci95_percent.toFixed(places) + '%';
      const p99 = signed(r.p99_vs_T_async_percent, placesOf(Math.abs(r.p99_vs_T_async_percent) / 10));
      const headline = await page.textContent('#sim-result .sim-headline');
      if (zh) assert.ok(headline.includes('：均值 ' + mean + '（±' + half + '），p99 ' + p99 + '。'), headline);
      else assert.ok(headline.startsWith(mean + ' mean (±' + half + '), ' + p99 + ' at p99, against the formula’s T_async = '), headline);
      // The cost of variability in plain words, with its interval (the core's).
      const stats = await shownStats(page);
      assert.equal(stats.jensen_gap_ci95, Array.from(r.jensen_gap_ci95).join(','));
      assert.equal(await page.$eval('#sim-result dd[data-key="jensen_gap"]', (dd) => dd.previousElementSibling.textContent),
        zh ? '随机波动的代价（均值减去上一项）' : 'Cost of variability (mean minus that)');
      assert.ok(!/Jensen|詹森/.test(await page.textContent('#sim-result')));
      const gapLine = await page.textContent('#sim-result .sim-gap');
      assert.ok(gapLine.startsWith(zh ? '随机波动的代价' : 'Cost of variability'), gapLine);

      // The labels of T_async, T_block and p99 do not overlap: equal closed forms (no d), close
      // ones and apart ones.
      for (const d of ['', '0.01, 0.01', '2, 2']) {
        await page.evaluate(() => { document.getElementById('sim-result').innerHTML = ''; });
        await typeInto(page, 'd', d);
        // This d's own result (a run for the previous d may land first), then every box at once.
        const T_async = String(full.analyze({ ...(await calculatorInput(page)) }).T_async);
        await page.waitForFunction((t) => document.querySelector('#sim-result [data-key="T_async"]')?.dataset.value === t &&
          document.getElementById('sim-progress').hidden, T_async);
        const [svgBox, boxes, bars] = await page.$eval('#sim-result .sim-hist', (svg) => {
          const box = (el) => { const b = el.getBoundingClientRect(); return { mark: el.dataset.mark, left: b.left, right: b.right, top: b.top, bottom: b.bottom }; };
          return [box(svg), Array.from(svg.querySelectorAll('text.sim-mark'), box), Array.from(svg.querySelectorAll('rect.bin'), box)];
        });
        // No label over a bar: the bars stay below the labels' band (they sat over the tallest bars).
        const lowest = Math.max(...boxes.map((b) => b.bottom));
        assert.ok(bars.length > 0 && bars.every((b) => b.top >= lowest - 0.5), `a bar reaches the labels at d = '${d}'`);
        assert.deepEqual(boxes.map((b) => b.mark), ['T_async', 'T_block', 'p99']);
        for (let i = 0; i < boxes.length; i++) {
          assert.ok(boxes[i].left >= svgBox.left - 0.5 && boxes[i].right <= svgBox.right + 0.5, `${boxes[i].mark} inside the chart (d = ${d})`);
          for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i], b = boxes[j];
            const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
            assert.ok(apart, `${a.mark} and ${b.mark} overlap at d = '${d}': ${JSON.stringify([a, b])}`);
          }
        }
      }
      // The sampled run's title stays inside its chart (it ran 8 px past it at 390 wide).
      await page.waitForSelector('#sim-gantt-box svg text.head');
      const [chart, title] = await page.$eval('#sim-gantt-box svg', (svg) =>
        [svg.getBoundingClientRect(), svg.querySelector('text.head').getBoundingClientRect()].map((b) => [b.left, b.right]));
      assert.ok(title[0] >= chart[0] - 0.5 && title[1] <= chart[1] + 0.5, `the title ${title} past the chart ${chart}`);
      await page.locator('#simulate').screenshot({ path: path.join(root, 'build', 'test-artifacts', `sim-headline-${p.name}-${width}.png`) });
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
}

test('a long run shows progress and can be cancelled; the page stays usable', async () => {
  const { page, problems } = await open(context, fileBase + 'calculator.html#tau=0.5,1,1,5&d=4.6,0.1,0.1&M=8');
  await openSim(page);
  // 57,000 replications of 250 micro-batches on 4 exponential stages: 994,536,000 steps with
  // the draws and each replication's streams, just inside the work limit: seconds of work, long
  // enough to cancel.
  await typeInto(page, 'M', '250');
  await setField(page, 'sim-service', 'exponential');
  await page.evaluate(() => { document.getElementById('sim-result').innerHTML = ''; });
  await page.fill('#sim-reps', '57000');
  await page.waitForSelector('#sim-cancel:not([hidden])');
  await page.waitForFunction(() => document.getElementById('sim-progress').value > 0);
  // Typing in the calculator meanwhile still updates it (ρ: the same simulation starts again).
  const before = await readyCount(page);
  await typeInto(page, 'rho', '0.5');
  assert.ok((await readyCount(page)) > before);
  await page.waitForSelector('#sim-cancel:not([hidden])');
  await page.click('#sim-cancel');
  assert.equal(await page.isHidden('#sim-cancel'), true);
  assert.equal(await page.textContent('#sim-note'), 'Cancelled: the results shown are not current.');
  // A short run afterwards completes with the module's numbers.
  await setField(page, 'sim-reps', '100');
  const input = await calculatorInput(page);
  const r = full.simulate({ tau: input.tau, d: input.d, M: input.M, links: 'async', reps: 100, seed: 1, service: 'exponential', link_service: 'deterministic', buffers: 'inf' });
  assert.deepEqual(await shownStats(page), expectedStats(r));
  assert.deepEqual(problems, []);
  await page.close();
});

for (const p of PAGES) {
  test(`${p.name}: no axe violations with the simulator open, light and dark`, async () => {
    const { page } = await open(context, fileBase + p.file);
    await openSim(page);
    await setField(page, 'sim-links', 'blocking');
    await setField(page, 'sim-buffers', '0');
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(150);
      assert.deepEqual(await axeViolations(page), [], scheme);
    }
    await page.close();
  });
}

// The whole module runs in the worker only: the page instantiates one WebAssembly module, its own
// (the calculator's), whichever sections run. Before, the simulator's and the planner's sections
// instantiated the whole module on the page too, and ran simulate and analyze there again.
test('the whole module is instantiated in the worker only, whatever the sections run', async () => {
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    window.instances = 0;
    const count = (f) => function (...args) { window.instances++; return f.apply(this, args); };
    WebAssembly.instantiate = count(WebAssembly.instantiate);
    WebAssembly.instantiateStreaming = count(WebAssembly.instantiateStreaming);
    WebAssembly.Instance = new Proxy(WebAssembly.Instance, { construct(T, args) { window.instances++; return new T(...args); } });
  });
  await page.goto(fileBase + 'calculator.html');
  await page.waitForSelector('html[data-ready]');
  await openSim(page);
  await page.click('#plan-open');
  await page.waitForSelector('#plan-result table');
  const input = await calculatorInput(page);
  const r = full.simulate({ tau: input.tau, d: input.d, M: input.M, links: 'async', reps: 1000, seed: 1, service: 'lognormal:cv=0.5',
    link_service: 'deterministic', buffers: 'inf' });
  assert.deepEqual(await shownStats(page), expectedStats(r));
  // The Gantt chart of the sampled run, drawn from the worker's answer.
  assert.ok(await page.$('#sim-gantt-box svg'));
  assert.equal(await page.evaluate(() => window.instances), 1);
  assert.deepEqual(problems, []);
  await page.close();
});
