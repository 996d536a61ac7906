// Hand-edited permalinks of the sections other than the planner (planner.test.mjs has its own):
// the calculator's fields and settings, the simulator's form (`sim`) and the trace import's options
// (`trace`), each given null, lists, objects, NaN, Infinity, 1e400, negatives, huge counts, very long
// strings, bad percent-encoding and unknown keys. The page opens every one: no page error, each field
// at its default or holding the text as typed (with the core's coded error beside it), and no NaN or
// Infinity shown but where the user typed it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { launch, open, fileBase, root, PAGES } from './helpers.mjs';

let context;
before(async () => { context = await launch(); });
after(async () => { await context?.close(); });

const LONG = 'x'.repeat(200000);
const KINDS = ['deterministic', 'exponential', 'lognormal', 'gamma', 'uniform'];
// Values a hand-edited JSON form may hold in place of any one key's, as JSON text (1e400 parses as Infinity).
const JSON_VALUES = ['null', '[]', '[1,2]', '{}', '{"a":1}', '"NaN"', '"Infinity"', '1e400', '-1', '1e300',
  '9007199254740993', '""', JSON.stringify(LONG), '"\\ud800"', '"\\u0000<b>x</b>"', 'true'];

// Text a page shows that no one typed: NaN or Infinity, as a number written by the page.
function untyped(text, typed) {
  return /NaN|Infinity/.test(text.replace(/\s+/g, ' ')) && !/NaN|Infinity|1e400|ud800/.test(typed);
}

// Opens `hash` on page p and checks it: ready, no page error, and what `visible` says is shown.
async function opens(p, hash, settle) {
  const { page, problems } = await open(context, fileBase + p.file + hash);
  if (settle) await settle(page);
  const text = await page.evaluate(() => document.body.innerText);
  const values = await page.evaluate(() => Array.from(document.querySelectorAll('[data-value]')).map((e) => e.dataset.value).join(' '));
  return { page, problems: problems.filter((x) => !/favicon/.test(x)), text, values };
}

for (const p of PAGES) {
  // Every value on the English page; on the Chinese one, whose code is the same, a few of each kind.
  const all = p.name === 'en';
  const jsonValues = all ? JSON_VALUES : ['null', '{}', '1e400', '"NaN"', JSON.stringify(LONG)];
  test(`${p.name}: hand-edited calculator links open with the text as typed or the defaults`, async () => {
    const raw = ['null', '[1]', '{}', 'NaN', 'Infinity', '1e400', '-1', '-1e400', '99999999999999999999999', '1e-400',
      '%ED%A0%80', '%FF%FE', '%', '%E0%A4%A', encodeURIComponent('１，２'), 'x'.repeat(100000)];
    for (const field of ['tau', 'd', 'M', 'rho', 'T_real']) {
      for (const value of all ? raw : ['NaN', '1e400', '%ED%A0%80', 'x'.repeat(100000)]) {
        const hash = `#tau=1,2&d=0.5&M=8&${field}=${value}`;
        const { page, problems, text, values } = await opens(p, hash);
        assert.deepEqual(problems, [], hash.slice(0, 80));
        // The field keeps what the link holds, as URLSearchParams decodes it.
        const typed = new URLSearchParams(hash.slice(1)).get(field);
        assert.equal(await page.inputValue('#' + field), typed, hash.slice(0, 80));
        assert.ok(!/NaN|Infinity/.test(values), `${hash.slice(0, 80)}: ${values.slice(0, 200)}`);
        assert.ok(!untyped(text, typed), `${hash.slice(0, 80)} shows NaN or Infinity`);
        await page.close();
      }
    }
    // Settings that are none of their choices, and unknown keys: the defaults, no error.
    for (const hash of ['#tau=1,2&unit=parsec&regime=sideways&section=nowhere&embed=yes&zzz=1',
      '#tau=1,2&unit=&regime=&section=&embed=', '#tau=1,2&unit=null&regime=[]&section={}&plan=null&sim=null&trace=null',
      '#' + 'a=1&'.repeat(20000), '#tau=1,2&tau=3,4&M=2&M=3', '#=&&=&tau']) {
      const { page, problems, text, values } = await opens(p, hash);
      assert.deepEqual(problems, [], hash.slice(0, 80));
      assert.ok(!/NaN|Infinity/.test(values), hash.slice(0, 80));
      assert.ok(!untyped(text, ''), `${hash.slice(0, 80)} shows NaN or Infinity`);
      await page.close();
    }
  });

  test(`${p.name}: hand-edited simulator links open the section with the defaults or a coded error`, async () => {
    const settle = (page) => page.waitForSelector('#sim-result .sim-stats, #sim-result .error, #sim-controls .sim-field-error, #sim-result [role="alert"], #sim-result p');
    const keys = ['service', 'cv', 'perStage', 'stages', 'linkService', 'linkCv', 'links', 'shared', 'buffers', 'reps', 'seed', 'zzz'];
    const cases = ['null', '[]', '"x"', '1e400', '{', LONG.slice(0, 5000)];
    for (const k of keys) for (const v of jsonValues) cases.push(`{"${k}":${v}}`);
    // Many stages, stages of the wrong kinds, and a huge count of them with a bad pipeline.
    cases.push(JSON.stringify({ perStage: true, stages: Array.from({ length: 3 }, () => ({ service: 'gamma', cv: { a: 1 } })) }));
    cases.push(JSON.stringify({ perStage: true, stages: [null, 5, 'x', [], { service: 'nope', cv: 'NaN' }] }));
    cases.push(JSON.stringify({ perStage: true, service: 'measured', stages: Array.from({ length: 20000 }, () => ({ service: 'x' })) }));
    for (const sim of cases) {
      const typed = sim;
      const hash = '#tau=1,2&d=0.5&M=8&sim=' + encodeURIComponent(sim);
      const { page, problems, text, values } = await opens(p, hash, settle);
      assert.deepEqual(problems, [], sim.slice(0, 80));
      // A text field given text keeps it as typed; given anything else, its default.
      let saved = null;
      try { saved = JSON.parse(sim); } catch { saved = null; }
      for (const k of ['cv', 'linkCv', 'shared', 'buffers', 'reps', 'seed']) {
        if (saved && typeof saved === 'object' && typeof saved[k] === 'string') {
          assert.equal(await page.inputValue('#sim-' + k), saved[k], `${sim.slice(0, 80)}: ${k}`);
        }
      }
      // A choice no select offers opens as the default, with no error under another field (a bad
      // service showed the core's unknown_name under the CV box, its select at its first option).
      const offered = { service: [...KINDS, 'measured'], linkService: KINDS, links: ['async', 'blocking', 'serial', 'delay', 'block'] };
      const defaults = { service: 'lognormal', linkService: 'deterministic', links: 'async' };
      for (const k of Object.keys(offered)) {
        if (saved && typeof saved === 'object' && typeof saved[k] === 'string' && !offered[k].includes(saved[k])) {
          assert.equal(await page.inputValue('#sim-' + k), defaults[k], `${sim.slice(0, 80)}: ${k}`);
          assert.equal(await page.$('#sim-controls .sim-field-error'), null, `${sim.slice(0, 80)}: ${k}`);
        }
      }
      assert.ok(!/NaN|Infinity/.test(values), `${sim.slice(0, 80)}: ${values.slice(0, 200)}`);
      assert.ok(!untyped(text, typed), `${sim.slice(0, 80)} shows NaN or Infinity`);
      await page.close();
    }
  });

  test(`${p.name}: hand-edited trace options apply to the files dropped next, or give way to the defaults`, async () => {
    const files = [0, 1, 2].map((r) => path.join(root, 'tests', 'data', 'traces', 'synthetic', `rank-${r}.json.gz`));
    const keys = ['stat', 'stage_order', 'compute', 'transfer', 'microbatch', 'profiler_step', 'zzz'];
    const cases = ['null', '[]', '"x"', '1e400', '{', LONG.slice(0, 5000)];
    for (const k of keys) for (const v of jsonValues) cases.push(`{"${k}":${v}}`);
    for (const trace of cases) {
      const hash = '#trace=' + encodeURIComponent(trace);
      const { page, problems } = await opens(p, hash);
      const n = await page.evaluate(() => Number(document.getElementById('trace-body')?.dataset.answered || 0));
      await page.setInputFiles('#trace-files', files);
      await page.waitForFunction((k) => Number(document.getElementById('trace-body')?.dataset.answered || 0) > k, n);
      assert.deepEqual(problems, [], trace.slice(0, 80));
      // An option that was a string is in its field as typed; any other is left empty.
      let saved = null;
      try { saved = JSON.parse(trace); } catch { saved = null; }
      for (const k of ['stage_order', 'compute', 'transfer', 'microbatch', 'profiler_step']) {
        const kept = saved && typeof saved === 'object' && typeof saved[k] === 'string' ? saved[k] : '';
        assert.equal(await page.inputValue('#trace-' + k), kept, `${trace.slice(0, 80)}: ${k}`);
      }
      const text = await page.evaluate(() => document.getElementById('measured-run').innerText);
      const values = await page.evaluate(() => Array.from(document.querySelectorAll('#measured-run [data-value]')).map((e) => e.dataset.value).join(' '));
      assert.ok(!/NaN|Infinity/.test(values), `${trace.slice(0, 80)}: ${values.slice(0, 200)}`);
      assert.ok(!untyped(text, trace), `${trace.slice(0, 80)} shows NaN or Infinity`);
      await page.close();
    }
  });
}
