// hp.importTrace through the npm module: the core's readers and model recovery, bit for bit
// `heteropipe trace --json` on the synthetic and the real (HTA) traces, decompressed here with
// node:zlib as a page decompresses with DecompressionStream; bad files a coded error naming the file
// and the position; the pages' calculator module leaves it out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { cliPath, fails, hp, root } from './support.mjs';

const traces = join(root, 'tests', 'data', 'traces');
const bad = join(root, 'tests', 'cli', 'traces');
const SYNTHETIC = [0, 1, 2].map((r) => join(traces, 'synthetic', `rank-${r}.json.gz`));
const REAL = [0, 1].map((r) => join(traces, `hta_sampled_rank-${r}.json.gz`));

// Each path as the CLI's label, with its bytes inflated.
const files = (paths) => paths.map((name) => {
  const raw = readFileSync(name);
  return { name, bytes: new Uint8Array(name.endsWith('.gz') ? gunzipSync(raw) : raw) };
});

function cli(args) {
  return spawnSync(cliPath, ['trace', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
}

function sameAsCli(paths, options = {}, flags = []) {
  const run = cli(['--json', ...flags, ...paths]);
  assert.equal(run.status, 0, run.stderr);
  const mine = hp.importTrace(files(paths), options);
  assert.deepEqual(mine, JSON.parse(run.stdout));
  assert.deepEqual(Object.keys(mine), Object.keys(JSON.parse(run.stdout)));
  return mine;
}

test("the calculator module has no importTrace; the whole module has it", async () => {
  const calc = await createRequire(import.meta.url)(join(root, 'build', 'wasm', 'wasm', 'heteropipe-calc.js'))();
  assert.equal(calc.importTrace, undefined);
  assert.equal(typeof hp.importTrace, 'function');
});

test('the synthetic ranks: the known tau, d, M, T_real and offsets, as the CLI gives them', () => {
  const r = sameAsCli(SYNTHETIC);
  assert.deepEqual(r.tau, [1, 2.5, 1.5]);
  assert.deepEqual(r.d, [0.2, 0.3]);
  assert.deepEqual([r.M, r.T_real, r.position], [8, 23, 'inside']);
  assert.deepEqual(r.clock_offsets, [0, -12.345, 0.777]);
  const us = sameAsCli(SYNTHETIC, { unit: 'us', stat: 'p50' }, ['--unit', 'us', '--stat', 'p50']);
  assert.deepEqual(us.tau, [1000, 2500, 1500]);
  const reversed = sameAsCli(SYNTHETIC, { stage_order: [2, 1, 0] }, ['--stage-order', '2,1,0']);
  assert.deepEqual([reversed.pipeline, reversed.reason], [false, 'stages_out_of_order']);
  // The reason in words too, the CLI's sentence (sameAsCli holds the whole object to its JSON).
  assert.equal(reversed.reason_message,
    "the first stage receives but sends nothing, the last sends but receives nothing, or the links' pairs contradict each other about the clocks in this order and agree in another order of the middle stages: the stages are not in the order the messages flow; give the files in rank order or set the stage order");
  assert.deepEqual(hp.importTrace(files(SYNTHETIC), { stage_order: '2,1,0' }), reversed);
  const one = sameAsCli([SYNTHETIC[1]]);
  assert.equal(one.pipeline, false);
});

test('bad clock offsets and stage orders: the CLI\'s coded errors, one offset per stage', () => {
  const cases = [
    [{ clock_offsets: [0, 0] }, ['--clock-offsets', '0,0'],
      { code: 'wrong_length', field: 'clock_offsets', index: null, value: 2, limit: 3 },
      'clock_offsets: needs S = 3 offsets, one per stage, or none (got 2)'],
    // A finite offset past the limit was "must be a finite number (got 1e+15)"; typed, it is quoted as typed.
    [{ clock_offsets: '0,1e15,0' }, ['--clock-offsets', '0,1e15,0'],
      { code: 'too_large', field: 'clock_offsets', index: 1, value: 1e15, limit: 1e14 },
      'clock_offsets, stage 2: must be at most 1e14 (got 1e15)'],
    [{ stage_order: [1e20, 0, 1] }, ['--stage-order', '1e+20,0,1'],
      { code: 'not_a_permutation', field: 'stage_order', value: 1e20 },
      'stage_order: must list ranks that ran kernels, none twice (rank 1e+20 is wrong)'],
  ];
  for (const [options, flags, fields, message] of cases) {
    fails(() => hp.importTrace(files(SYNTHETIC), options), { ...fields, message });
    assert.equal(cli([...flags, ...SYNTHETIC]).stderr, `error: ${message}\n`);
  }
  // A number passed is written as JS writes it.
  fails(() => hp.importTrace(files(SYNTHETIC), { clock_offsets: [0, 1e15, 0] }),
    { code: 'too_large', field: 'clock_offsets', index: 1, message: 'clock_offsets, stage 2: must be at most 1e14 (got 1e+15)' });
  fails(() => hp.importTrace(files(SYNTHETIC), { clock_offsets: [0, NaN, 0] }),
    { code: 'not_finite', field: 'clock_offsets', index: 1, message: 'clock_offsets, stage 2: must be a finite number (got NaN)' });
  // A value that is no number is quoted as passed, never as the NaN it became on its way to the core.
  // It is not_a_number, as Python's; NaN stays not_finite.
  fails(() => hp.importTrace(files(SYNTHETIC), { clock_offsets: [0, 0, 'x'] }),
    { code: 'not_a_number', field: 'clock_offsets', index: 2, token: '"x"',
      message: 'clock_offsets, stage 3: \'"x"\' is not a number' });
  fails(() => hp.importTrace(files(SYNTHETIC), { clock_offsets: [0, 1n, 0] }),
    { code: 'not_a_number', field: 'clock_offsets', index: 1, token: '1n' });
  fails(() => hp.importTrace(files(SYNTHETIC), { clock_offsets: [0, 0, true] }),
    { code: 'not_a_number', field: 'clock_offsets', index: 2, token: 'true' });
  // A rank that is no number was "rank 0 is wrong", then quoted as passed: it is not_a_number at its item, as Python's.
  fails(() => hp.importTrace(files(SYNTHETIC), { stage_order: [0, 'x', 1] }),
    { code: 'not_a_number', field: 'stage_order', index: 1, token: '"x"',
      message: 'stage_order, item 2: \'"x"\' is not a number' });
  fails(() => hp.importTrace(files(SYNTHETIC), { stage_order: [0, 1, null] }),
    { code: 'not_a_number', field: 'stage_order', index: 2, token: 'null' });
  fails(() => hp.importTrace(files(SYNTHETIC), { profiler_step: true }),
    { code: 'not_a_number', field: 'profiler_step', index: null, token: 'true', message: "profiler_step: 'true' is not a number" });
  fails(() => hp.importTrace(files(SYNTHETIC), { stage_order: [0, 1, NaN] }),
    { code: 'not_a_permutation', field: 'stage_order', token: 'NaN' });
});

test('clock_offset_bounds: per link [lo, hi], hi null when nothing bounds it from above, as the CLI gives them', () => {
  // NCCL kernel pairs bound both sides (the truths -12.345 and 13.122 lie inside).
  assert.deepEqual(hp.importTrace(files(SYNTHETIC)).clock_offset_bounds, [[-12.545, -12.138], [12.822, 13.429]]);
  // gloo pairs: from below by causality (rank 1's clock is 3000 us behind
  // rank 0's, and micro-batch 0's message left 4 us before it arrived), from
  // above by gloo's rendezvous (micro-batch 1's send, which waited for its
  // receive, ended 1.5 us after that receive was posted).
  const cpu = [0, 1].map((r) => join(bad, `cpu_gloo_rank-${r}.json`));
  const microbatch = '^microbatch_([0-9]+)$';
  const r = sameAsCli(cpu, { unit: 'us', microbatch }, ['--unit', 'us', '--microbatch', microbatch]);
  assert.deepEqual(r.clock_offset_bounds, [[-3004, -2998.5]]);
});

test('a micro-batch pattern that matches no range names the ranges there are, as the CLI names them', () => {
  // The CPU run's ranges are microbatch_0..2 on each rank: 6 of one form.
  const cpu = [0, 1].map((r) => join(bad, `cpu_gloo_rank-${r}.json`));
  const r = sameAsCli(cpu, { microbatch: '^mb([0-9]+)$' }, ['--microbatch', '^mb([0-9]+)$']);
  assert.deepEqual([r.reason, r.range_names], ['no_microbatch_ranges', [{ name: 'microbatch_0', count: 6 }]]);
  assert.ok(r.reason_message.endsWith("; the ranges these stages hold most, by name (how many ranges have its form, digits aside): 'microbatch_0' (6)"));
});

test('a range name that is no UTF-8 is named with U+FFFD, not thrown', () => {
  const text = (name, op) => new Uint8Array(Buffer.concat([Buffer.from('[{"name":"'), name,
    Buffer.from(`","ph":"X","ts":1,"dur":5,"pid":"CPU functions","tid":1},{"name":"aten::mm","ph":"X","ts":2,"dur":1,"pid":"CPU functions","tid":1},{"name":"${op}","ph":"X","ts":7,"dur":1,"pid":"CPU functions","tid":1}]`)]));
  const r = hp.importTrace([{ name: 'a.json', bytes: text(Buffer.from([0x6d, 0x62, 0xff, 0x5f, 0x31]), 'gloo:send') },
    { name: 'b.json', bytes: text(Buffer.from('mb_1'), 'gloo:recv') }], { microbatch: '^q([0-9]+)$' });
  assert.deepEqual([r.reason, r.range_names], ['no_microbatch_ranges', [{ name: 'mb_1', count: 1 }, { name: 'mb\uFFFD_1', count: 1 }]]);
});

test('results returned to stage 0 and messages to no neighbour are set aside and counted, as the CLI counts them', () => {
  // torch 2.x's peers ("Dst Rank", "Src Rank"): the last stage's 4 results
  // back to stage 0, and one message from stage 0 straight to stage 2.
  const r = sameAsCli([0, 1, 2].map((k) => join(bad, `kineto_peers_rank-${k}.json`)));
  assert.deepEqual([r.tau, r.d, r.M, r.T_real], [[0.1, 0.3, 0.2], [0.02, 0.03], 4, 1.55]);
  assert.deepEqual(r.warnings.map((w) => [w.code, w.value, w.limit]), [['returns_to_first_stage', 4, 4], ['messages_set_aside', 2, 0]]);
  assert.equal(r.warnings[1].message, '2 transfers name a peer that is no neighbouring stage, and were set aside');
});

test('several profiler steps import one step, the one profiler_step names, as the CLI imports them', () => {
  // A real 2-step schedule (ProfilerStep#1 and #2, microbatch_0..3 in each).
  const steps = [0, 1].map((r) => join(bad, `torch_steps_rank-${r}.json`));
  const microbatch = '^microbatch_([0-9]+)$';
  const first = sameAsCli(steps, { microbatch }, ['--microbatch', microbatch]);
  const second = sameAsCli(steps, { microbatch, profiler_step: 2 }, ['--microbatch', microbatch, '--profiler-step', '2']);
  assert.notEqual(first.T_real, second.T_real);
  assert.deepEqual(second.warnings.map((w) => [w.code, w.index, w.value, w.limit]), [['profiler_steps', 2, 2, 2]]);
  fails(() => hp.importTrace(files(steps), { microbatch, profiler_step: 9 }),
    { code: 'unknown_id', field: 'profiler_step', index: 0, value: 9, limit: 2,
      message: "profiler_step: file 1 holds no ProfilerStep#9 (the files' last step is ProfilerStep#2)" });
  fails(() => hp.importTrace(files(steps), { profiler_step: -1 }), { code: 'out_of_range', field: 'profiler_step' });
});

test("a 1F1B training step's passes import each by its own ranges, as the CLI imports them", () => {
  // A real 3-stage 1F1B run (tests/cli/golden/trace_torch_1f1b_*.txt): the
  // passes interleave on every stage, and each range claims its own messages.
  const run = [0, 1, 2].map((r) => join(bad, `torch_1f1b_rank-${r}.json`));
  for (const [microbatch, ranks, warnings] of [
    ['^microbatch_([0-9]+)$', [0, 1, 2], [['other_pass_set_aside', 16, 16]]],
    ['^backward_([0-9]+)$', [2, 1, 0], [['other_pass_set_aside', 16, 16], ['stages_reversed', 2, 0]]],
  ]) {
    const r = sameAsCli(run, { microbatch }, ['--microbatch', microbatch]);
    assert.equal(r.M, 4);
    assert.deepEqual(r.stages.map((s) => s.rank), ranks);
    assert.deepEqual(r.links.map((l) => [l.pairs, l.unmatched]), [[4, 0], [4, 0]]);
    assert.deepEqual(r.warnings.map((w) => [w.code, w.value, w.limit]), warnings);
  }
  // Without a pass's pattern, both passes' messages: refused, saying why.
  const both = sameAsCli(run);
  assert.deepEqual([both.pipeline, both.reason], [false, 'two_way_traffic']);
});

test('text and bytes read alike; a schedule CSV re-imports', () => {
  const [a, b, c] = files(SYNTHETIC);
  const asText = [a, b, c].map((f) => ({ name: f.name, bytes: new TextDecoder().decode(f.bytes) }));
  assert.deepEqual(hp.importTrace(asText), hp.importTrace([a, b, c]));
  sameAsCli([join(bad, 'timeline_async.csv')], { unit: 'us' }, ['--unit', 'us']);
});

test('the real HTA traces: their ranks and kernels, as the CLI reads them', () => {
  const r = sameAsCli(REAL);
  assert.deepEqual(r.ranks.map((k) => k.kernels), [1154, 1104]);
  assert.deepEqual(r.ranks.map((k) => k.transfer_kernels), [10, 10]);
  assert.deepEqual(r.warnings.map((w) => w.code), ['missing_ranks', 'clock_bounds_contradict']);
  assert.ok(r.pipeline === true || typeof r.reason === 'string');
});

test('the saved real runs (tests/data/traces/torch_*): as the CLI imports them, from their files or their directory', () => {
  // The clock-tie rule of align_clocks decides these runs' offsets; the module must reach the CLI's.
  const MICROBATCH = '^microbatch_([0-9]+)$';
  const runs = readdirSync(traces).filter((name) => name.startsWith('torch_'));
  assert.ok(runs.length >= 4, runs.join());
  for (const name of runs) {
    const dir = join(traces, name);
    const truth = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
    const paths = truth.files.map((file) => join(dir, file));
    // A run written without the example's ranges names its own pattern, or null when it has no ranges.
    const pattern = 'microbatch_pattern' in truth ? truth.microbatch_pattern : MICROBATCH;
    const byPattern = pattern === null ? [{ unit: 'us' }, ['--unit', 'us']]
      : [{ microbatch: pattern, unit: 'us' }, ['--microbatch', pattern, '--unit', 'us']];
    // A run with a rank that is no stage (a driver) names its stages.
    const order = truth.stage_order ? [{ stage_order: truth.stage_order }, ['--stage-order', truth.stage_order.join(',')]]
      : [{}, []];
    for (let [options, flags] of [[{}, []], byPattern]) {
      options = { ...order[0], ...options };
      flags = [...order[1], ...flags];
      const r = sameAsCli(paths, options, flags);
      const byDirectory = cli(['--json', ...flags, dir]);
      assert.equal(byDirectory.status, 0, byDirectory.stderr);
      assert.deepEqual(JSON.parse(byDirectory.stdout), r);
      // Where every stage's profiler saw the whole run (the late runs' did not): its stages, M, and
      // offsets within issue 23's 2 ms of the truth.
      if (options.unit === 'us' && !name.includes('late')) {
        assert.deepEqual([r.pipeline, r.stages.length, r.M], [true, truth.stages, truth.microbatches], name);
        r.clock_offsets.forEach((offset, s) => assert.ok(Math.abs(offset - truth.clock_offsets_us[s]) <= 2000,
                                                         `${name}: stage ${s}: ${offset} against ${truth.clock_offsets_us[s]}`));
      }
    }
  }
});

// The CLI's sentence for a bad file, and the module's error for the same bytes.
function refusedAlike(path, expected) {
  const run = cli([path]);
  assert.notEqual(run.status, 0);
  const e = fails(() => hp.importTrace(files([path])), { token: path, ...expected });
  assert.equal(run.stderr, `error: ${e.message}\n`);
}

test('clock_offsets as text, as the CLI and Python take it: the same offsets, and its errors as the CLI words them', () => {
  const list = hp.importTrace(files(SYNTHETIC), { clock_offsets: [0, -12.5, 0.75] });
  const typed = hp.importTrace(files(SYNTHETIC), { clock_offsets: '0, -12.5, 0.75' });
  assert.deepEqual(typed.clock_offsets, list.clock_offsets);
  assert.deepEqual(typed.tau, list.tau);
  // Once a lone value, a list of one: "needs S = 3 offsets (got 1)", the text lost.
  for (const [text, code, index, token] of [['NaN', 'not_a_number', 0, 'NaN'], ['0,,1', 'empty_item', 1, ''], ['0, x, 1', 'not_a_number', 1, 'x']]) {
    const e = fails(() => hp.importTrace(files(SYNTHETIC), { clock_offsets: text }), { code, field: 'clock_offsets', index });
    if (token) assert.equal(e.token, token);
    const run = cli(['--clock-offsets', text, ...SYNTHETIC]);
    assert.equal(run.stderr, `error: ${e.message}\n`);
  }
  fails(() => hp.importTrace(files(SYNTHETIC), { clock_offsets: '0, 1' }), { code: 'wrong_length', field: 'clock_offsets', value: 2, limit: 3 });
  // Past the limit: quoted as typed, as the CLI quotes it (a number passed is written as JS writes it).
  const large = fails(() => hp.importTrace(files(SYNTHETIC), { clock_offsets: '0, 1e15, 0' }),
    { code: 'too_large', field: 'clock_offsets', index: 1, token: '1e15' });
  assert.equal(cli(['--clock-offsets', '0, 1e15, 0', ...SYNTHETIC]).stderr, `error: ${large.message}\n`);
});

test('profiler_step as text, as the CLI and Python take it: its errors as the CLI words them', () => {
  const steps = [0, 1].map((r) => join(bad, `torch_steps_rank-${r}.json`));
  const microbatch = '^microbatch_([0-9]+)$';
  assert.deepEqual(hp.importTrace(files(steps), { microbatch, profiler_step: '2' }),
    hp.importTrace(files(steps), { microbatch, profiler_step: 2 }));
  // Once "must be a finite number (got "2")", and '' as that too, where the CLI says it is empty.
  for (const [text, code] of [['', 'empty'], ['x', 'not_a_number'], ['1.5', 'not_integer'], ['-1', 'out_of_range']]) {
    const e = fails(() => hp.importTrace(files(steps), { microbatch, profiler_step: text }), { code, field: 'profiler_step', index: null });
    const run = cli(['--microbatch', microbatch, '--profiler-step', text, ...steps]);
    assert.equal(run.stderr, `error: ${e.message}\n`);
  }
});

test('bad files: coded errors naming the file and the byte, worded as the CLI words them', () => {
  refusedAlike(join(bad, 'truncated.json'), { code: 'not_json', field: 'trace' });
  refusedAlike(join(bad, 'begin_without_end.json'), { code: 'unmatched_begin' });
  refusedAlike(join(bad, 'negative_dur.json'), { code: 'negative', field: 'dur' });
  refusedAlike(join(bad, 'empty.json'), { code: 'empty', field: 'trace' });
  // A number typed as a string: the file's label in token, the value as typed in typed.
  refusedAlike(join(bad, 'ts_string_nan.json'), { code: 'wrong_type', field: 'ts', index: 71, typed: '"NaN"' });
  fails(() => hp.importTrace([{ name: 'd.json', bytes: new TextEncoder().encode('[{"ph":"X","name":"k","ts":1,"dur":"12"}]') }]),
    { code: 'wrong_type', field: 'dur', token: 'd.json', typed: '"12"',
      message: 'd.json, byte 35: dur has the wrong type of value (got "12")' });
  fails(() => hp.importTrace([{ name: 'zeros', bytes: new Uint8Array(0) }]), { code: 'empty', token: 'zeros' });
  // FF FE first: UTF-16 text, said so (it was not_a_trace), as the CLI says it.
  fails(() => hp.importTrace([{ name: 'junk', bytes: Uint8Array.from([0xff, 0xfe, 0x00, 0x42, 0x13]) }]),
    { code: 'utf16_text', field: 'trace', token: 'junk', index: 0, value: 255 });
  refusedAlike(join(root, 'tests', 'cli', 'sims', 'matrix_utf16.csv'), { code: 'utf16_text', field: 'trace', value: 255 });
  // FF FE 00 00 or 00 00 FE FF first: UTF-32 (FF FE 00 00 was utf16_text), as the CLI says it.
  fails(() => hp.importTrace([{ name: 'wide', bytes: Uint8Array.from([0, 0, 0xfe, 0xff, 0, 0, 0, 0x5b]) }]),
    { code: 'utf32_text', field: 'trace', token: 'wide', index: 0, value: 0,
      message: 'wide, byte 0: the text is UTF-32 (it starts with a UTF-32 byte-order mark); save it as UTF-8, which every reader takes' });
  refusedAlike(join(root, 'tests', 'cli', 'sims', 'matrix_utf32.csv'), { code: 'utf32_text', field: 'trace', value: 255 });
  // A key the reader reads, given twice in an event, is refused (the last was kept).
  fails(() => hp.importTrace([{ name: 't.json', bytes: '[{"ph":"X","name":"k","pid":0,"tid":1,"ts":1,"ts":5,"dur":1}]' }]),
    { code: 'duplicate_key', field: 'ts', token: 't.json', index: 50, typed: 'ts' });
  // A subnormal dur, as the schedule CSV's subnormal time.
  fails(() => hp.importTrace([{ name: 't.json', bytes: '[{"ph":"X","name":"k","pid":0,"tid":1,"ts":0,"dur":5e-320}]' }]),
    { code: 'too_small', field: 'dur', index: 51, value: 5e-320, limit: 1e-300 });
  // Gzip is the caller's to inflate (DecompressionStream in a page, node:zlib here).
  fails(() => hp.importTrace([{ name: 'x.json.gz', bytes: new Uint8Array(readFileSync(SYNTHETIC[0])) }]),
    { code: 'bad_gzip', field: 'trace', token: 'x.json.gz', index: 0, value: 1,
      message: 'x.json.gz, byte 0: the file is gzip-compressed; this reader takes text, so inflate it first' });
  fails(() => hp.importTrace(files(SYNTHETIC), { stat: 'max' }), { code: 'unknown_name', field: 'stat' });
  fails(() => hp.importTrace(files(SYNTHETIC), { compute: '(' }), { code: 'bad_pattern' });
});

test('issue 22.17: each number of a file names its key and its rule; CSV lines end in CR too, headers may be quoted', () => {
  const one = (name, text) => [{ name, bytes: new TextEncoder().encode(text) }];
  const said = [
    ['{"distributedInfo":{"rank":0,"world_size":-5},"traceEvents":[]}', 'world_size', 't, byte 42: world_size must be between 1 and 2^53 (got -5)'],
    ['{"baseTimeNanoseconds":1e30,"traceEvents":[]}', 'baseTimeNanoseconds', 't, byte 23: baseTimeNanoseconds must be between 0 and 9e18 (got 1e30)'],
    ['{"baseTimeNanoseconds":"x","traceEvents":[]}', 'baseTimeNanoseconds', 't, byte 23: baseTimeNanoseconds has the wrong type of value (got "x")'],
    ['[{"ph":"X","name":"k","ts":1,"dur":2,"tid":1e300}]', 'tid', 't, byte 43: tid must be between -2^53 and 2^53 (got 1e300)'],
    ['stage,microbatch,kind,start_s,end_s\n0,0,compute,1e12,2e12\n', 'start', 't, line 2: start must be at most 100,000,000,000 (got 1e12)'],
  ];
  for (const [text, field, message] of said) fails(() => hp.importTrace(one('t', text)), { field, message });
  const plain = 'stage,microbatch,kind,start,end\n0,0,compute,0,2\n1,0,compute,3,5\n0,0,transfer,2,3\n';
  const quoted = plain.replace('stage,microbatch,kind,start,end', '"stage","microbatch","kind","start","end"');
  assert.deepEqual(hp.importTrace(one('q', quoted.replaceAll('\n', '\r'))).tau, hp.importTrace(one('p', plain)).tau);
});

test('what is no value of its kind is a TypeError, and nothing is left allocated', () => {
  hp.importTrace(files(SYNTHETIC));  // warms up the reply's room, kept for reuse
  const before = hp.memory().malloc_bytes;
  assert.throws(() => hp.importTrace('a.json'), TypeError);
  assert.throws(() => hp.importTrace([{ name: 'a', bytes: [1, 2] }]), TypeError);
  assert.throws(() => hp.importTrace([{ name: 3, bytes: '[]' }]), TypeError);
  assert.throws(() => hp.importTrace([], { unit: 1 }), TypeError);
  hp.importTrace(files(SYNTHETIC));
  assert.equal(hp.memory().malloc_bytes, before);
});

test('an option importTrace does not read is refused by name, as the plan refuses an unknown key', () => {
  // A misspelt clock_offsets was dropped before: the import ran with the offsets the core found.
  assert.throws(() => hp.importTrace(files(SYNTHETIC), { clock_offset: '0,1,2' }),
    { name: 'TypeError', message: /^importTrace: options: unknown key "clock_offset" \(the keys read: stat, unit, stage_order, clock_offsets,/ });
  assert.throws(() => hp.importTrace(files(SYNTHETIC), { microbatch: '^mb([0-9]+)$', Unit: 'ms' }), /unknown key "Unit"/);
  // Every key the d.ts names is read.
  const all = { stat: 'p50', unit: 'us', stage_order: [0, 1, 2], clock_offsets: null, profiler_step: null, compute: undefined,
    transfer: undefined, microbatch: undefined, detach: false, on_progress: () => {} };
  assert.deepEqual(hp.importTrace(files(SYNTHETIC), all), hp.importTrace(files(SYNTHETIC), { unit: 'us', stage_order: '0,1,2' }));
});


test('a detached Uint8Array is an empty file: a coded error, and nothing staged is kept', () => {
  // Its bytes were copied after the staging area was taken, and set() threw an
  // uncoded TypeError there, leaving the area allocated on every call.
  const bytes = new Uint8Array(16);
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  const before = hp.memory().malloc_bytes;
  for (let k = 0; k < 20; k++) {
    fails(() => hp.importTrace([{ name: 'a.csv', bytes }]), { code: 'empty', token: 'a.csv' });
  }
  assert.equal(hp.memory().malloc_bytes, before);
});
