// The planner through the npm module: hp.plan and hp.catalog are the core's, bit for bit the CLI's
// `heteropipe plan --json` on the same document; the pages' calculator module leaves them out; bad
// input is a coded error naming the field, and the caller's code runs before the module is touched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cliPath, fails, hp, load, random, root } from './support.mjs';

const cli = (text, extra = []) => spawnSync(cliPath, ['plan', '-', ...extra], { input: text, encoding: 'utf8' });

// The catalog ids: tools outside the project name them (issue 24 added the second lines).
const IDS = {
  gpus: ['rtx-3060-12gb', 'rtx-3070', 'rtx-3080', 'rtx-3090', 'rtx-4060-ti-16gb', 'rtx-4070-ti', 'rtx-4080', 'rtx-4090',
    'rtx-5090', 'rtx-a6000', 'l40s', 'a100-40gb', 'a100-80gb', 'h100-pcie', 'h100-sxm', 'tesla-v100', 'tesla-p40',
    'apple-m1-max', 'apple-m2-ultra', 'apple-m3-max',
    'rtx-2080-ti', 'rtx-3090-ti', 'rtx-4060-ti-8gb', 'rtx-4070', 'rtx-4070-ti-super', 'rtx-4080-super',
    'rtx-5060-ti-16gb', 'rtx-5070-ti', 'rtx-5080', 'titan-rtx', 'l4', 't4', 'a40', 'h200', 'b200', 'tesla-p100',
    'rx-7900-xtx', 'rx-9070-xt', 'mi300x', 'apple-m1-ultra', 'apple-m2-max', 'apple-m3-ultra', 'apple-m4-max',
    'a10g', 'arc-a770'],
  models: ['llama-2-7b', 'llama-2-13b', 'llama-2-70b', 'llama-3-8b', 'llama-3-70b', 'mistral-7b', 'qwen2.5-7b',
    'qwen2.5-14b', 'qwen2.5-32b', 'qwen2.5-72b',
    'llama-3.1-8b', 'llama-3.1-70b', 'llama-3.1-405b', 'llama-3.3-70b', 'codellama-34b', 'mistral-small-24b',
    'mixtral-8x7b', 'qwen3-8b', 'qwen3-14b', 'qwen3-32b', 'qwen3-30b-a3b', 'gemma-2-27b', 'gemma-3-27b', 'phi-4',
    'deepseek-r1-distill-llama-70b', 'gpt-oss-20b', 'gpt-oss-120b'],
  quants: ['F16', 'Q8_0', 'Q6_K', 'Q5_K_M', 'Q4_K_M', 'Q4_0',
    'Q2_K', 'Q3_K_M', 'Q4_K_S', 'IQ4_XS', 'Q5_K_S', 'IQ2_XXS', 'BF16', 'MXFP4'],
  links: ['pcie3-x16', 'pcie4-x16', 'pcie4-x4', 'nvlink-3090', 'ethernet-1g', 'ethernet-10g', 'ethernet-25g',
    'thunderbolt-4'],
};

// A model's facts that are 0 where the simple rule holds (no experts, no window).
const MAY_BE_ZERO = new Set(['experts', 'experts_used', 'sliding_window', 'sliding_period']);

test('the catalog holds every listed id, each fact positive and each entry with its source', () => {
  const c = hp.catalog();
  for (const [kind, ids] of Object.entries(IDS)) {
    const have = c[kind].map((e) => e.id);
    for (const id of ids) assert.ok(have.includes(id), `${kind}: ${id}`);
    for (const e of c[kind]) {
      assert.match(e.source, /\S{8,}/, `${e.id}: source`);
      for (const [k, v] of Object.entries(e)) {
        if (typeof v === 'number') assert.ok((v > 0 || (MAY_BE_ZERO.has(k) && v === 0)) && Number.isFinite(v), `${e.id}.${k}`);
      }
    }
  }
});

// Facts the estimate reads beside the numbers, the same as Python's heteropipe.catalog() (tests/python/test_plan.py):
// Pascal launches no CUDA graphs, and MXFP4 keeps every matrix outside the experts at Q8_0.
test('the catalog says which cards launch CUDA graphs and what MXFP4 keeps outside its experts', () => {
  const c = hp.catalog();
  const gpu = (id) => c.gpus.find((g) => g.id === id);
  assert.deepEqual(['tesla-p40', 'tesla-p100', 'tesla-v100', 'rtx-4090'].map((id) => gpu(id).cuda_graphs),
    [false, false, true, true]);
  const quant = (id) => c.quants.find((q) => q.id === id);
  assert.deepEqual([quant('MXFP4').bytes_per_weight, quant('MXFP4').other_bytes_per_weight], [17 / 32, 34 / 32]);
  assert.equal(quant('Q4_K_M').other_bytes_per_weight, quant('Q4_K_M').bytes_per_weight);
});

test("the pages' calculator module has no planner; the whole module has it", async () => {
  const calc = await createRequire(import.meta.url)(join(root, 'build', 'wasm', 'wasm', 'heteropipe-calc.js'))();
  assert.equal(calc.plan, undefined);
  assert.equal(calc.catalog, undefined);
  assert.equal(typeof hp.plan, 'function');
  assert.deepEqual(calc.analyze({ tau: [1, 2], M: 3 }), hp.analyze({ tau: [1, 2], M: 3 }));
});

// Documents: the CLI's explicit-form goldens, and random chains of catalog GPUs.
function documents() {
  const dir = join(root, 'tests', 'cli', 'plans');
  const files = readdirSync(dir).filter((f) => f.startsWith('plan_')).map((f) => readFileSync(join(dir, f), 'utf8'));
  const next = random(20261130);
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  const chains = Array.from({ length: 24 }, () => {
    const S = 1 + Math.floor(next() * 4);
    return JSON.stringify({
      model: pick(IDS.models), quant: pick(IDS.quants), phase: pick(['decode', 'prefill']),
      tokens: pick([1, 4, 128]), context: pick([512, 4096]), M: pick([1, 8, 64]),
      objective: pick(['async', 'blocking', 'throughput']),
      devices: Array.from({ length: S }, () => pick(['rtx-4090', 'rtx-3090', 'a100-80gb', 'h100-sxm', 'tesla-p40', 'rtx-5090'])),
      links: Array.from({ length: S - 1 }, () => pick(IDS.links)),
    });
  });
  return [...files, ...chains];
}

test('hp.plan equals `heteropipe plan --json` on the same document, bit for bit, or fails with its sentence', () => {
  let planned = 0, refused = 0;
  for (const text of documents()) {
    const run = cli(text, ['--json']);
    let mine;
    try {
      mine = hp.plan(text);
    } catch (e) {
      assert.equal(e.name, 'HeteropipeError', text);
      assert.notEqual(run.status, 0, text);
      assert.equal(run.stderr, `error: ${e.message}\n`, text);
      refused += 1;
      continue;
    }
    assert.equal(run.status, 0, text + run.stderr);
    const theirs = JSON.parse(run.stdout);
    // The CLI's JSON prints every double in its shortest round-trip form, so parsing gives the same bits.
    assert.deepEqual(JSON.parse(JSON.stringify(mine)), theirs, text);
    planned += 1;
  }
  // Both paths are exercised: most documents plan, some (models too big for their chain) do not.
  assert.ok(planned >= 15 && refused >= 1, `planned ${planned}, refused ${refused}`);
});

test('an object and its JSON text plan alike; the layer counts sum to L and the flags follow them', () => {
  const input = { model: 'llama-3-70b', quant: 'Q4_K_M', devices: ['rtx-4090', 'rtx-3090', 'rtx-3090'],
    links: ['pcie4-x16', 'pcie4-x16'], phase: 'decode', tokens: 1, context: 4096, M: 1, objective: 'async' };
  const plan = hp.plan(input);
  assert.deepEqual(plan, hp.plan(JSON.stringify(input)));
  const counts = plan.stages.map((s) => s.layers);
  assert.equal(counts.reduce((a, b) => a + b, 0), 80);
  assert.equal(plan.runtime.vllm_pp_layer_partition, counts.join(','));
  assert.equal(plan.runtime.sglang_pp_layer_partition, counts.join(','));
  assert.equal(plan.tokens_per_second, 1 / plan.analysis.T_async);
  // tokens x M / T(M), for the plan and its baselines (issue 22.10).
  const decode = hp.plan({ ...input, tokens: 2, M: 4 });
  assert.equal(decode.tokens_per_second, 2 * (4 / decode.analysis.T_async));
  for (const name of ['even', 'memory_proportional']) {
    const b = decode.baselines[name];
    assert.equal(b.tokens_per_second, 2 * (4 / b.analysis.T_async));
  }
});

test('issue 24.5: every estimated speed carries its band, the same two factors; explicit costs carry null', () => {
  // 70B in Q4_K_M fits neither 24 GB card alone: those what-ifs are 0, with the band [0, 0].
  const plan = hp.plan({ model: 'llama-3-70b', quant: 'Q4_K_M', devices: ['rtx-3090', 'rtx-4090'] });
  const [low, high] = plan.tokens_per_second_band.map((end) => end / plan.tokens_per_second);
  assert.ok(low > 0 && low < 1 && high > 1, `${low} ${high}`);
  const speeds = [plan, plan.baselines.even, plan.baselines.memory_proportional, ...plan.what_if];
  assert.equal(speeds.length, 7);
  for (const s of speeds) {
    const [lo, hi] = s.tokens_per_second_band;
    assert.ok(Math.abs(lo - s.tokens_per_second * low) <= 1e-12 * s.tokens_per_second, `${lo}`);
    assert.ok(Math.abs(hi - s.tokens_per_second * high) <= 1e-12 * s.tokens_per_second, `${hi}`);
  }
  assert.deepEqual(plan.what_if.filter((w) => !w.feasible).map((w) => w.tokens_per_second_band), [[0, 0], [0, 0]]);
  const explicit = hp.plan(readFileSync(join(root, 'tests', 'cli', 'plans', 'plan_two_devices.json'), 'utf8'));
  assert.deepEqual([explicit, explicit.baselines.even, explicit.baselines.memory_proportional, ...explicit.what_if]
    .map((s) => s.tokens_per_second_band), Array(3 + explicit.what_if.length).fill(null));
});

test('issue 22: large layer times keep the plan optimal; a baseline that breaks the rules is not feasible', () => {
  const read = (name) => JSON.parse(readFileSync(join(root, 'tests', 'cli', 'plans', name), 'utf8'));
  const forbid = hp.plan(read('forbid_large_layer.json'));
  assert.deepEqual(forbid.stages.map((s) => s.layers), [3, 1]);
  assert.ok(Math.abs(forbid.objective_value - 0.017) < 1e-15);
  const idle = hp.plan(read('idle_baseline.json'));
  const mp = idle.baselines.memory_proportional;
  assert.deepEqual([mp.fits_memory, mp.feasible, mp.reason], [true, false, 'idle_device']);
  assert.deepEqual([idle.baselines.even.feasible, idle.baselines.even.reason], [true, '']);
});

test('a million bad keys give the first 100 errors', () => {
  const keys = Array.from({ length: 1000000 }, (_, k) => `"colour${k}": 1`).join(', ');
  const text = `{"devices": [{"layer_times": [1], "memory_capacity": 1}], "layer_memory": [1], ${keys}}`;
  const e = fails(() => hp.plan(text), { code: 'unknown_key', field: 'input', message: "input: unknown key 'colour0'" });
  assert.equal(e.errors.length, 100);
  assert.equal(e.errors[99].message, "input: unknown key 'colour99'");
});

test('bad plan input: coded errors naming the field and position', () => {
  const base = { model: 'llama-3-8b', quant: 'Q4_K_M', devices: ['rtx-4090', 'rtx-3090'], M: 1 };
  fails(() => hp.plan({ ...base, devices: ['rtx-4090', 'rtx-9999'] }), { code: 'unknown_id', field: 'devices', index: 1, token: 'rtx-9999' });
  fails(() => hp.plan({ ...base, model: 'llama-9' }), { code: 'unknown_id', field: 'model', token: 'llama-9' });
  fails(() => hp.plan({ ...base, context: NaN }), { code: 'not_finite', field: 'context' });
  // A BigInt was JSON.stringify's raw TypeError: it goes as JS writes it, as text, which M (a count that may be
  // given as text, as the page's planner sends it) reads as no number; a fact that takes no text, of the wrong type.
  fails(() => hp.plan({ ...base, M: 10n }),
    { code: 'not_a_number', field: 'M', token: '10n', message: "M: '10n' is not a number" });
  fails(() => hp.plan({ ...base, links: [{ latency: 10n, bandwidth: 1e9 }] }),
    { code: 'wrong_type', field: 'latency', index: 0, token: '"10n"' });
  fails(() => hp.plan({ ...base, devices: ['rtx-4090', 3n] }), { code: 'unknown_id', field: 'devices', index: 1, token: '3n' });
  fails(() => hp.plan({ ...base, M: 0 }), { code: 'out_of_range', field: 'M' });
  fails(() => hp.plan({ ...base, objective: 'fastest' }), { code: 'unknown_name', field: 'objective' });
  fails(() => hp.plan('{"devices": ['), { code: 'not_json', field: 'input' });
  fails(() => hp.plan({ model: 'llama-3-70b', quant: 'F16', devices: ['rtx-3060-12gb'], M: 1 }), { code: 'memory_short', field: 'memory' });
  // A device's fact typed in a unit the core does not read: the text as typed, the units it reads named.
  const custom = { memory: '24 GiB', memory_bandwidth: '1008 GB/s', fp16_flops: '165 TFLOPS' };
  fails(() => hp.plan({ ...base, devices: ['rtx-4090', { ...custom, memory_bandwidth: '1 TBps' }] }),
    { code: 'unknown_unit', field: 'memory_bandwidth', index: 1, token: '1 TBps',
      message: "memory_bandwidth, device 2: '1 TBps' is in no unit heteropipe reads (TB/s, GB/s, MB/s, GiB/s, B/s)" });
  assert.deepEqual(hp.plan({ ...base, devices: ['rtx-4090', custom] }).stages,
    hp.plan({ ...base, devices: ['rtx-4090', { memory: 24 * 2 ** 30, memory_bandwidth: 1008e9, fp16_flops: 165e12 }] }).stages);
});

// Every error the call found, as the CLI prints them (one `error:` line each).
function sentences(input) {
  const e = fails(() => hp.plan(input), {});
  assert.equal(e.errors[0], e);
  for (const each of e.errors) assert.ok(each instanceof load.HeteropipeError);
  return e.errors.map((each) => each.message);
}

const explicit = (keys) => ({ devices: [{ layer_times: [1], memory_capacity: 1 }], layer_memory: [1], ...keys });

test('a wrong type nested 100,000 deep is named, from an object and from text, with no RangeError', () => {
  let deep = [];
  for (let k = 0; k < 99999; k++) deep = [deep];
  const said = ['M: has the wrong type of value (got ' + '['.repeat(40) + '...)'];
  assert.deepEqual(sentences(explicit({ M: deep })), said);
  const text = '{"M":' + '['.repeat(100000) + ']'.repeat(100000) + ',"devices":[{"layer_times":[1],"memory_capacity":1}],"layer_memory":[1]}';
  assert.deepEqual(sentences(text), said);
  const r = cli(text);
  assert.equal(r.status, 2);
  assert.equal(r.stderr, 'error: ' + said[0] + '\n');
});

test('every bad key is reported by name, as the CLI does; one error is a list of one', () => {
  // As text: 2^53 + 1 is no JS number.
  const input = JSON.stringify(explicit({ objectve: 'blocking', M: 0, allow_idle_devices: 'yes' }))
    .replace('"M":0', '"M":9007199254740993');
  const said = ["input: unknown key 'objectve' (did you mean objective?)",
    'M: must be between 1 and 2^53 (got 9007199254740993)',
    'allow_idle_devices: has the wrong type of value (got "yes")'];
  assert.deepEqual(sentences(input), said);
  assert.equal(cli(input).stderr, said.map((line) => 'error: ' + line + '\n').join(''));
  assert.deepEqual(sentences(explicit({ allow_idle_devices: null })), ['allow_idle_devices: has the wrong type of value (got null)']);
  assert.deepEqual(sentences({ quant: 'F16', ...explicit({}) }), ['model: is missing']);
  const one = fails(() => hp.analyze({ tau: [1, -1] }), { code: 'negative' });
  assert.deepEqual(one.errors, [one]);
});

test('the values\' errors of every field are reported with the reader\'s, each number as the text wrote it', () => {
  const bad = { devices: [{ layer_times: [1, -2], memory_capacity: -1 }, { layer_times: [1, 1], memory_capacity: 2e15 }],
    layer_memory: [1, 1], links: [{ latency: -1e21, bandwidth: 0 }], M: 0 };
  const said = ['M: must be between 1 and 2^53 (got 0)', 'layer_times, device 1: must be >= 0 (got -2)',
    'memory_capacity, device 1: must be >= 0 (got -1)', 'memory_capacity, device 2: must be at most 1e15 bytes (got 2000000000000000)',
    'latency, link 1: must be >= 0 (got -1e+21)', 'bandwidth, link 1: must be > 0 (got 0)'];
  assert.deepEqual(sentences(bad), said);
  const text = JSON.stringify(bad).replace('2000000000000000', '2e15');
  assert.deepEqual(sentences(text)[3], 'memory_capacity, device 2: must be at most 1e15 bytes (got 2e15)');
  assert.equal(cli(text).stderr, said.map((line) => 'error: ' + line.replace('2000000000000000', '2e15') + '\n').join(''));
});

test('bytes after a NUL are refused; a byte-order mark is skipped; explicit links may be left out', () => {
  const text = JSON.stringify(explicit({}));
  assert.deepEqual(sentences(text + '\u0000garbage'), [`input: not valid JSON (reading stopped at byte ${text.length})`]);
  assert.deepEqual(hp.plan('\ufeff' + text), hp.plan(text));
  const two = { devices: [{ layer_times: [1, 3], memory_capacity: 2 }, { layer_times: [3, 1], memory_capacity: 2 }],
    layer_memory: [1, 1], M: 4 };
  assert.deepEqual(hp.plan(two).plan, hp.plan({ ...two, links: [{ latency: 0, bandwidth: 1 }] }).plan);
});

test("the caller's code runs before the module is touched; what is not JSON data is a TypeError", () => {
  const before = hp.memory().malloc_bytes;
  assert.throws(() => hp.plan({ get model() { throw new RangeError('mine'); } }), RangeError);
  const cyclic = { model: 'llama-3-8b' };
  cyclic.self = cyclic;
  assert.throws(() => hp.plan(cyclic), TypeError);
  assert.throws(() => hp.plan(42), TypeError);
  assert.throws(() => hp.plan(null), TypeError);
  assert.equal(hp.memory().malloc_bytes, before);
});

test('issue 24.7: a stage above 95 % of its memory is a warning; an estimate that does not fit says what is missing and what would fit', () => {
  const plan = hp.plan({ model: 'llama-3-70b', quant: 'Q4_K_M', context: 4096, devices: ['rtx-4090', 'rtx-3090', 'rtx-3090'] });
  assert.equal(plan.warnings.length, 1);
  const w = plan.warnings[0];
  assert.deepEqual([w.code, w.stage, w.device], ['memory_nearly_full', 0, 0]);
  assert.equal(w.fraction, plan.stages[0].memory_used / plan.stages[0].memory_capacity);
  assert.ok(w.fraction > 0.95);
  let e;
  try {
    hp.plan({ model: 'llama-3-70b', quant: 'F16', context: 4096, devices: ['rtx-4090', 'rtx-4090'] });
  } catch (error) {
    e = error;
  }
  assert.deepEqual([e.code, e.field, e.fits_quant, e.fits_with_device], ['memory_short', 'memory', 'Q4_K_M', null]);
  assert.equal(e.message, 'memory: 87.09 GiB of memory is missing: the layers need 132.7 GiB and the devices hold 45.58 GiB; quantization Q4_K_M would fit');
  // The quantization it names fits.
  assert.ok(hp.plan({ model: 'llama-3-70b', quant: e.fits_quant, context: 4096, devices: ['rtx-4090', 'rtx-4090'] }).stages.length);
  let more;
  try {
    hp.plan({ model: 'llama-3-70b', quant: 'Q8_0', context: 4096, devices: ['rtx-3090', 'rtx-4090', 'rtx-3090'] });
  } catch (error) {
    more = error;
  }
  assert.deepEqual([more.code, more.fits_quant, more.fits_with_device], ['memory_short', 'Q6_K', 0]);
  assert.ok(hp.plan({ model: 'llama-3-70b', quant: 'Q8_0', context: 4096, devices: ['rtx-3090', 'rtx-4090', 'rtx-3090', 'rtx-3090'] }).stages.length);
});

test('calibration: hp.plan with llama-bench records is `heteropipe plan --calibrate`, bit for bit', () => {
  // The two records llama.cpp's tools/llama-bench/README.md publishes (RTX 4080, Qwen2.5-7B Q4_K_M).
  const plans = join(root, 'tests', 'cli', 'plans');
  const input = readFileSync(join(plans, 'calibrate_4080.json'), 'utf8');
  const bench = join(plans, 'bench_4080.json');
  const records = JSON.parse(readFileSync(bench, 'utf8'));
  const run = cli(input, ['--json', '--calibrate', bench]);
  assert.equal(run.status, 0, run.stderr);
  const mine = hp.plan({ ...JSON.parse(input), calibration: records });
  assert.deepEqual(JSON.parse(JSON.stringify(mine)), JSON.parse(run.stdout));
  assert.deepEqual(mine.calibrated.map((c) => [c.device, c.record]), [[0, 1]]);
  assert.deepEqual(mine.calibration_unused, [{ record: 0, reason: 'other_phase' }]);
  // Calibrated against not: device 0's times are divided by the factor (1.027: the
  // uncalibrated estimate of this decode record is within 2.7 % of it).
  const plain = hp.plan(JSON.parse(input));
  assert.ok(Math.abs(mine.calibrated[0].factor - 1) > 0.02);
  assert.notEqual(mine.tokens_per_second, plain.tokens_per_second);
  // A bad record: the same coded error and sentence as the CLI's.
  const bad = { ...JSON.parse(input), calibration: [{ ...records[1], avg_ts: -1 }] };
  const e = fails(() => hp.plan(bad), {});
  assert.equal(e.code, 'negative');
  assert.equal(e.field, 'calibration');
  assert.equal(e.index, 0);
  assert.equal(e.message, 'calibration, record 1: avg_ts must be >= 0 (got -1)');
  assert.equal(cli(JSON.stringify(bad)).stderr, `error: ${e.message}\n`);
  // The file's text as it is, -o json or -o jsonl (one record per line): the same plan, read by the core.
  const text = readFileSync(bench, 'utf8');
  assert.deepEqual(hp.plan({ ...JSON.parse(input), calibration: text }), mine);
  assert.deepEqual(hp.plan({ ...JSON.parse(input), calibration: records.map((r) => JSON.stringify(r)).join('\n') }), mine);
  const broken = fails(() => hp.plan({ ...JSON.parse(input), calibration: text.slice(0, 40) }), {});
  assert.deepEqual([broken.code, broken.field, broken.value], ['not_json', 'calibration', 40]);
});
