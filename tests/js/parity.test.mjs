// Ties the lists together: the core's public functions and enums (from its
// headers), the module's operations (wasm/src/bindings.cpp), the runtime API,
// the TypeScript declarations, and the record format both sides of the
// boundary speak. Adding to one without the others fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hp, load, root } from './support.mjs';

const headers = ['analysis', 'curve', 'formulas', 'parse', 'pipeline', 'request_text', 'schedule'];
const declarations = readFileSync(join(root, 'wasm', 'types', 'heteropipe.d.ts'), 'utf8');
const esmExports = readFileSync(join(root, 'wasm', 'types', 'esm.d.ts'), 'utf8');

// Free functions at namespace scope: declarations that start a line.
function coreFunctions() {
  const names = new Set();
  for (const h of headers) {
    const text = readFileSync(join(root, 'core', 'include', 'heteropipe', `${h}.hpp`), 'utf8');
    for (const m of text.matchAll(/^(?:inline\s+)?[A-Za-z_][\w:<>, ]*[\w>&*]\s+([a-z_]\w*)\s*\(/gm)) names.add(m[1]);
  }
  return [...names].sort();
}

// The members of one declared interface.
function members(name) {
  const body = declarations.match(new RegExp(`(?:interface|class) ${name}(?:<[^>]*>)? (?:extends [\\w, ]+ )?\\{([\\s\\S]*?)\\n  \\}`));
  assert.ok(body, `${name} is declared`);
  return [...new Set([...body[1].matchAll(/^\s+(?:readonly\s+)?(\w+)\??[(:<]/gm)].map((m) => m[1]))].sort();
}

const camel = (snake) => snake.replace(/_([a-zA-Z])/g, (_, c) => c.toUpperCase());

const fullAnalysis = hp.analyze({ tau: [1, 2], d: [1.5], M: 4, T_real: 9 });

// Core functions the API offers under another name or as part of a result.
const coveredBy = {
  analyze: { api: 'analyze' },
  visit_fields: { api: 'analyze' },
  check_request: { api: 'check' },
  check_batches: { api: 'check' },
  check_rho: { api: 'check' },
  check_T_real: { api: 'check' },
  check_scalars: { api: 'check' },
  parse_number_list: { api: 'parseList' },
  parse_number_list_or_inf: { api: 'simulate' },
  parse_number: { api: 'parseNumber' },
  link_slack: { field: 'link_slack' },
  link_margin: { field: 'link_margin' },
  has_overlap_headroom: { field: 'overlap_headroom' },
  makespan_at_rho: { field: 'T_rho' },
  sandwich_position: { field: 'T_real_position' },
  sandwich_position_name: { field: 'T_real_position' },
  regime_name: { api: 'timeline' },
  regime_from_name: { api: 'timeline' },
  check_stream_work: { api: 'recurrenceMakespan' },
  check_curve_points: { api: 'curveBatches' },
  parse_count: { api: 'readRequest' },
  trim_blanks: { api: 'parseNumber' },
  // A typed value without its blanks and byte-order mark, as every number and name is read.
  typed_value: { api: 'parseNumber' },
  // A list's item as typed, which readRequest's errors quote.
  list_item: { api: 'readRequest' },
  quote_list_item: { api: 'readRequest' },
  // The CSV readers' lines and cells: the schedule CSV of importTrace, and simulate's matrix and samples.
  next_line: { api: 'importTrace' },
  csv_cell: { api: 'importTrace' },
  csv_cell_end: { api: 'importTrace' },
  // A subnormal number given as a number, refused as typed text is: every list of tau and d, rho and T_real.
  subnormal_error: { api: 'analyze' },
};

// Members of the API that are not a core function.
const wasmOnly = ['limits', 'memory', 'version'];
// The planner's functions and the core function each runs (heteropipe/plan/).
const planner = { plan: ['report', 'make_plan_report'], catalog: ['catalog', 'catalog_gpus'],
  modelInfo: ['gguf', 'read_gguf'] };
// The simulator's and trace import's, likewise (heteropipe/sim/, heteropipe/trace/).
const beyond = { simulate: ['sim/simulate', 'simulate'], importTrace: ['trace/model', 'recover_model'] };

test('simulate and importTrace each run a function of the core', () => {
  for (const [api, [header, name]] of Object.entries(beyond)) {
    const text = readFileSync(join(root, 'core', 'include', 'heteropipe', `${header}.hpp`), 'utf8');
    assert.match(text, new RegExp(`\\b${name}\\(`), `${api}: ${name} in ${header}.hpp`);
    assert.equal(typeof hp[api], 'function', api);
  }
});

test('each planner function runs a function of the core', () => {
  for (const [api, [header, name]] of Object.entries(planner)) {
    const text = readFileSync(join(root, 'core', 'include', 'heteropipe', 'plan', `${header}.hpp`), 'utf8');
    assert.match(text, new RegExp(`\\b${name}\\(`), `${api}: ${name} in plan/${header}.hpp`);
  }
});

test('every core function is exported (same name in camelCase) or covered by a named export', () => {
  const core = coreFunctions();
  assert.ok(core.length >= 25, `found only ${core.length} core functions`);
  const missing = core.filter((name) => {
    const cover = coveredBy[name];
    if (cover && cover.api) return typeof hp[cover.api] !== 'function';
    if (cover && cover.field) return !(cover.field in fullAnalysis);
    return typeof hp[camel(name)] !== 'function';
  });
  assert.deepEqual(missing, [], 'core functions with no JS counterpart');
  for (const name of Object.keys(coveredBy)) assert.ok(core.includes(name), `${name} is no longer in the core`);
});

test('every JS export comes from the core and is declared, and every declared member exists', () => {
  const runtime = Object.keys(hp).sort();
  assert.deepEqual(runtime, members('Heteropipe'));
  const core = new Set(coreFunctions().map(camel));
  const covering = new Set(Object.values(coveredBy).map((c) => c.api).filter(Boolean));
  const orphans = runtime.filter((key) => !core.has(key) && !covering.has(key) && !wasmOnly.includes(key) && !(key in planner) && !(key in beyond));
  assert.deepEqual(orphans, [], 'JS exports with no core function');
});

test('declared result types match the runtime objects field for field', () => {
  assert.deepEqual(Object.keys(fullAnalysis).sort(), members('Analysis'));
  assert.deepEqual(Object.keys(hp.limits).sort(), members('Limits'));
  assert.deepEqual(Object.keys(hp.timeline({ tau: [1, 2], M: 2 })).sort(), members('Timeline'));
  assert.deepEqual(Object.keys(hp.makespanCurve({ tau: [1], batches: [1] })).sort(), members('Curve'));
  assert.deepEqual(Object.keys(hp.memory()).sort(), members('MemoryUse'));
  // fits_quant and fits_with_device come only with an estimate's memory error (checked below), column
  // only with a matrix's error, typed only with a trace file's wrong_type (checked below).
  const always = (k) => !k.startsWith('fits_') && k !== 'column' && k !== 'typed';
  assert.deepEqual(Object.keys(hp.check({ tau: [] })[0]).sort(), members('ErrorInfo').filter(always));
  let error;
  try {
    hp.analyze({ tau: [-1] });
  } catch (e) {
    error = e;
  }
  assert.deepEqual(Object.keys(error).sort(), members('HeteropipeError').filter((k) => k !== 'name' && always(k)));
  let cell;
  try {
    hp.simulate({ tau: [1, 2], M: 1, service_matrix: [[1, -2]] });
  } catch (e) {
    cell = e;
  }
  const matrixOnly = (k) => k !== 'name' && !k.startsWith('fits_') && k !== 'typed';
  assert.deepEqual(Object.keys(cell).sort(), members('HeteropipeError').filter(matrixOnly));
  assert.equal(typeof load.HeteropipeError, 'function');
});

test("the planner's declared result types match its runtime objects field for field", () => {
  const both = (...names) => [...new Set(names.flatMap(members))].sort();
  const plan = hp.plan({ model: 'llama-3-8b', quant: 'Q4_K_M', devices: ['rtx-4090', 'rtx-3090'], M: 4 });
  assert.deepEqual(Object.keys(plan).sort(), both('PlanReport', 'PricedSplit'));
  assert.deepEqual(Object.keys(plan.stages[0]).sort(), members('PlanStage'));
  assert.deepEqual(Object.keys(plan.analysis).sort(), members('Analysis').filter((k) => k in plan.analysis));
  for (const b of Object.values(plan.baselines)) assert.deepEqual(Object.keys(b).sort(), both('PlanBaseline', 'PricedSplit'));
  assert.deepEqual(Object.keys(plan.what_if[0]).sort(), members('PlanWhatIf'));
  assert.deepEqual(Object.keys(hp.catalog()).sort(), members('Catalog'));
  const full = hp.plan({ model: 'llama-3-70b', quant: 'Q4_K_M', context: 4096, devices: ['rtx-4090', 'rtx-3090', 'rtx-3090'] });
  assert.deepEqual(Object.keys(full.warnings[0]).sort(), members('PlanWarning'));
  let short;
  try {
    hp.plan({ model: 'llama-3-70b', quant: 'F16', devices: ['rtx-4090', 'rtx-4090'] });
  } catch (e) {
    short = e;
  }
  assert.deepEqual(Object.keys(short).sort(), members('HeteropipeError').filter((k) => k !== 'name' && k !== 'column' && k !== 'typed'));
  // A trace file's wrong_type carries typed, as ErrorInfo and HeteropipeError declare it.
  let mistyped;
  try {
    hp.importTrace([{ name: 't.json', bytes: new TextEncoder().encode('[{"ph":"X","name":"k","ts":null,"dur":1}]') }]);
  } catch (e) {
    mistyped = e;
  }
  assert.ok(members('ErrorInfo').includes('typed'));
  assert.deepEqual(Object.keys(mistyped).sort(), members('HeteropipeError').filter((k) => k !== 'name' && k !== 'column' && !k.startsWith('fits_')));
  assert.equal(mistyped.typed, 'null');
});

test("the simulator's and trace import's declared result types match their runtime objects field for field", () => {
  const sim = hp.simulate({ tau: [1, 2], d: [0.5], M: 3, reps: 2, timeline: true });
  assert.deepEqual(Object.keys(sim).sort(), members('Simulation'));
  assert.deepEqual(Object.keys(sim.makespan).sort(), members('SimSummary'));
  assert.deepEqual(Object.keys(sim.histogram).sort(), members('SimHistogram'));
  assert.deepEqual(Object.keys(sim.run).sort(), members('SimRun'));
  assert.deepEqual(Object.keys(sim.run.timeline).sort(), members('SimTimeline'));
  const csv = 'stage,microbatch,kind,start,end\n0,0,compute,0,1\n0,0,transfer,1,2\n1,0,compute,2,4\n' +
    '0,1,compute,1,2\n0,1,transfer,2,3\n1,1,compute,4,6\n';
  const trace = hp.importTrace([{ name: 'schedule.csv', bytes: csv }]);
  assert.equal(trace.pipeline, true);
  // Optional keys: the reason of no pipeline, in words too (and the range names when no range
  // matched); the ratio and position of a run with overlap headroom, and the replay's ratio when
  // its two replays differ.
  const optional = ['reason', 'reason_message', 'range_names', 'overlap_ratio', 'position', 'overlap_ratio_replay'];
  assert.deepEqual(Object.keys(trace).filter((k) => !optional.includes(k)).sort(),
    members('TraceResult').filter((k) => !optional.includes(k)));
  assert.deepEqual(Object.keys(trace.ranks[0]).sort(), members('TraceRank'));
  assert.deepEqual(Object.keys(trace.stages[0]).sort(), members('TraceStage'));
  assert.deepEqual(Object.keys(trace.stages[0].span).sort(), members('SampleStats'));
  assert.deepEqual(Object.keys(trace.links[0]).sort(), members('TraceLink'));
  assert.deepEqual(Object.keys(trace.schedule[0]).sort(), members('ScheduleRow'));
  if (trace.warnings.length > 0) assert.deepEqual(Object.keys(trace.warnings[0]).sort(), members('TraceWarning'));
  assert.deepEqual(Object.keys(trace.replay).sort(), ['async', 'blocking']);
  assert.deepEqual(Object.keys(trace.explain[0]).sort(), members('ExplainPart'));
});

test('the ES module entry re-exports every declared type', () => {
  const declared = [...declarations.matchAll(/^  (?:interface|type|class) (\w+)/gm)].map((m) => m[1]).sort();
  const exported = [...esmExports.matchAll(/^export (?:type|import) (\w+)/gm)].map((m) => m[1]).sort();
  assert.deepEqual(exported, declared);
});

// The operations the whole module registers (bindings.cpp, tool_bindings.cpp), minus the plumbing
// the wrapper uses.
const plumbing = ['stage', 'release', 'module_info', 'unstage'];
function operations() {
  const text = ['bindings.cpp', 'tool_bindings.cpp'].map((f) => readFileSync(join(root, 'wasm', 'src', f), 'utf8')).join('\n');
  return [...text.matchAll(/function\("(\w+)"/g)].map((m) => m[1]).filter((name) => !plumbing.includes(name)).sort();
}
const snake = (camelName) => camelName.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());

test('every operation the module registers is one JS function of the same name, and the other way round', () => {
  const ops = operations();
  assert.ok(ops.length >= 24, `found only ${ops.length} operations`);
  assert.deepEqual(ops.filter((op) => typeof hp[camel(op)] !== 'function'), [], 'operations with no JS function');
  const functions = Object.keys(hp).filter((key) => typeof hp[key] === 'function');
  assert.deepEqual(functions.filter((key) => !ops.includes(snake(key))), [], 'JS functions with no operation');
});

// The members of a C++ enum class, in order.
function enumMembers(file, name) {
  const text = readFileSync(join(root, file), 'utf8');
  const body = text.match(new RegExp(`enum class ${name}\\b[^{]*\\{([^}]*)\\}`));
  assert.ok(body, `enum ${name} in ${file}`);
  return body[1].replace(/\/\/[^\n]*/g, '').split(',').map((m) => m.trim()).filter(Boolean);
}

// The members of a declared union of string literals.
function union(name) {
  const body = declarations.match(new RegExp(`type ${name} =([^;]*);`));
  assert.ok(body, `type ${name} is declared`);
  return [...body[1].matchAll(/'(\w+)'/g)].map((m) => m[1]);
}

test('the declared error codes and fields are the core\'s', () => {
  assert.deepEqual(union('ErrorCode'), enumMembers('core/include/heteropipe/error.hpp', 'ErrorCode'));
  assert.deepEqual(union('Field'), enumMembers('core/include/heteropipe/error.hpp', 'Field'));
  // Every regime name the core reads (its own two, then the former spellings), and the enum's own
  // members (a former name is an alias, `= async`) the first two of them.
  const schedule = readFileSync(join(root, 'core/include/heteropipe/schedule.hpp'), 'utf8');
  const read = [...schedule.match(/kRegimeNames\[\] = \{([^}]*)\}/)[1].matchAll(/"(\w+)"/g)].map((m) => m[1]);
  assert.deepEqual(union('Regime'), read);
  const own = enumMembers('core/include/heteropipe/schedule.hpp', 'Regime').filter((m) => !m.includes('='));
  assert.deepEqual(own, read.slice(0, 2));
  for (const name of read) assert.equal(hp.timeline({ tau: [1], M: 1, regime: name }).regime, read[read.indexOf(name) % 2]);
});

test('both sides of the boundary use the same record format', () => {
  const js = readFileSync(join(root, 'wasm', 'js', 'protocol.js'), 'utf8');
  const constant = (name) => Number(js.match(new RegExp(`export const ${name} = (\\d+);`))[1]);
  const cpp = readFileSync(join(root, 'wasm', 'src', 'protocol.hpp'), 'utf8');
  assert.equal(constant('RECORD'), Number(cpp.match(/kRecordDoubles = (\d+);/)[1]));
  assert.equal(constant('STAGING_HEADER'), Number(cpp.match(/kStagingHeaderDoubles = (\d+);/)[1]));
  const kinds = enumMembers('wasm/src/protocol.hpp', 'Kind').map((m) => m.split('='));
  assert.ok(kinds.length >= 8);
  for (const [name, value] of kinds) assert.equal(constant(name.trim().toUpperCase()), Number(value), name);
});
