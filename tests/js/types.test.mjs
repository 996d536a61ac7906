// The declarations (wasm/types/heteropipe.d.ts) against what the module sends
// (issue 21 item 7): every field of every reply shape, walked from the
// module's own replies, is a member of the interface the d.ts gives it, and
// every member the d.ts requires is there; the ErrorCode union is exactly the
// codes the core writes (core/src/error.cpp, error_code_name). A field or code
// added on one side only fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { hp, load, root } from './support.mjs';

const dts = readFileSync(join(root, 'wasm', 'types', 'heteropipe.d.ts'), 'utf8')
  .replace(/\/\*[\s\S]*?\*\//g, '')
  .replace(/\/\/.*$/gm, '');

// The text between the brace at `open` and its match.
function braced(text, open) {
  let depth = 0;
  for (let k = open; k < text.length; k++) {
    if (text[k] === '{') depth++;
    else if (text[k] === '}' && --depth === 0) return text.slice(open + 1, k);
  }
  throw new Error('unbalanced braces in the d.ts');
}

// Splits `text` at `separator` where no bracket is open.
function topLevel(text, separator) {
  const parts = [];
  let depth = 0, from = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if ('{<(['.includes(c)) depth++;
    else if ('}>)]'.includes(c) && !(c === '>' && text[k - 1] === '=')) depth--;
    else if (depth === 0 && separator.includes(c)) {
      parts.push(text.slice(from, k));
      from = k + 1;
    }
  }
  parts.push(text.slice(from));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

// The members of an object type's body: name -> { type, optional }; methods are left out.
function membersOf(body) {
  const members = new Map();
  for (const part of topLevel(body, ';\n')) {
    const m = /^(?:readonly\s+)?(\w+)(\?)?\s*:\s*([\s\S]+)$/.exec(part);
    if (m) members.set(m[1], { type: m[3].trim(), optional: m[2] === '?' });
  }
  return members;
}

// Every interface (and class) of the namespace with its own members and what it extends.
const interfaces = new Map();
for (const m of dts.matchAll(/(?:interface|class)\s+(\w+)(?:<[^{]*?>)?(?:\s+extends\s+([\w\s,<>]+?))?\s*\{/g)) {
  const parents = m[2] ? topLevel(m[2], ',').map((p) => p.replace(/<.*$/, '')) : [];
  interfaces.set(m[1], { parents, own: membersOf(braced(dts, m.index + m[0].length - 1)) });
}

function interfaceMembers(name) {
  const it = interfaces.get(name);
  assert.ok(it, `the d.ts declares no interface ${name}`);
  const all = new Map();
  for (const parent of it.parents) if (interfaces.has(parent)) for (const [k, v] of interfaceMembers(parent)) all.set(k, v);
  for (const [k, v] of it.own) all.set(k, v);
  return all;
}

// Every tuple type of the namespace (`type Name = [a: number, b: number | null];`):
// name -> the type of each element.
const tuples = new Map();
for (const m of dts.matchAll(/type\s+(\w+)\s*=\s*\[([^\]]*)\];/g)) {
  tuples.set(m[1], topLevel(m[2], ',').map((e) => e.replace(/^\w+\??\s*:/, '').trim()));
}

// Holds `value` (an element of a tuple) to its type: number, string, boolean, null, or a union of them.
function isOfScalarType(value, type) {
  return topLevel(type, '|').some((t) => (t === 'null' ? value === null : typeof value === t));
}

// The members of an object type written `type`: an interface's name (with
// type arguments), or an inline { ... }.
function objectMembers(type, where) {
  const t = type.trim();
  if (t.startsWith('{')) return membersOf(braced(t, 0));
  const name = /^(\w+)/.exec(t);
  assert.ok(name && interfaces.has(name[1]), `${where}: the d.ts gives it ${type}, no object type`);
  return interfaceMembers(name[1]);
}

// The element type of an array type: X[], Array<X>, or null when `type` is no array.
function elementType(type) {
  const t = type.trim();
  const generic = /^Array<([\s\S]*)>$/.exec(t);
  if (generic) return generic[1];
  return t.endsWith('[]') ? t.slice(0, -2) : null;
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v);

// Holds `value` (a reply) to the object type `type` of the d.ts, field by field and down its nesting.
function conforms(value, type, where) {
  const members = objectMembers(type, where);
  for (const key of Object.keys(value)) {
    assert.ok(members.has(key), `${where}.${key} is in the reply but not in the d.ts (${type})`);
  }
  for (const [key, { optional }] of members) {
    if (!optional) assert.ok(key in value, `${where}.${key} is required by the d.ts (${type}) but not in the reply`);
  }
  for (const [key, v] of Object.entries(value)) {
    // The object part of a union such as `X | null`.
    const memberType = topLevel(members.get(key).type, '|').find((t) => t !== 'null' && t !== 'undefined');
    const tupleType = tuples.get(memberType);
    if (v === null) {
      assert.ok(topLevel(members.get(key).type, '|').includes('null'), `${where}.${key} is null, which the d.ts (${members.get(key).type}) does not allow`);
    } else if (tupleType) {
      // One tuple, such as a speed's band [lo, hi].
      assert.ok(Array.isArray(v) && v.length === tupleType.length, `${where}.${key} = ${v} is no ${memberType}`);
      v.forEach((x, j) => assert.ok(isOfScalarType(x, tupleType[j]), `${where}.${key}[${j}] = ${x} is no ${tupleType[j]}`));
    } else if (isObject(v)) conforms(v, memberType, `${where}.${key}`);
    else if (Array.isArray(v) && v.some(Array.isArray)) {
      const element = elementType(memberType);
      const tuple = element && tuples.get(element.trim());
      assert.ok(tuple, `${where}.${key}: a list of arrays, but the d.ts gives it ${memberType}, no list of tuples`);
      v.forEach((item, k) => {
        assert.equal(item.length, tuple.length, `${where}.${key}[${k}] has ${item.length} elements, the d.ts ${tuple.length}`);
        item.forEach((x, j) => assert.ok(isOfScalarType(x, tuple[j]), `${where}.${key}[${k}][${j}] = ${x} is no ${tuple[j]}`));
      });
    } else if (Array.isArray(v) && v.some(isObject)) {
      const element = elementType(memberType);
      assert.ok(element, `${where}.${key}: a list of objects, but the d.ts gives it ${memberType}`);
      v.forEach((item, k) => conforms(item, element, `${where}.${key}[${k}]`));
    }
  }
}

const traces = join(root, 'tests', 'data', 'traces');
const trace = (paths) => paths.map((name) => ({ name, bytes: new Uint8Array(gunzipSync(readFileSync(name))) }));

test('every reply shape the module sends is its interface in the d.ts, field for field', () => {
  const pipeline = { tau: [1, 2, 1.5], d: [0.2, 0.1], M: 8, rho: 0.5 };
  conforms(hp.analyze({ ...pipeline, T_real: 20 }), 'Analysis', 'analyze');
  conforms(hp.analyze(pipeline), 'Analysis', 'analyze');
  hp.check({ tau: [1, -1], M: 0.5 }).forEach((e, k) => conforms(e, 'ErrorInfo', `check[${k}]`));
  conforms(hp.readRequest({ tau: '1, 2', d: '0.5', M: '4' }), 'ReadRequest', 'readRequest');
  conforms(hp.timeline({ ...pipeline, regime: 'blocking' }), 'Timeline', 'timeline');
  conforms(hp.makespanCurve({ ...pipeline, points: 8 }), 'Curve', 'makespanCurve');
  conforms(hp.memory(), 'MemoryUse', 'memory');
  conforms({ ...hp.limits }, 'Limits', 'limits');
  conforms(hp.catalog(), 'Catalog', 'catalog');
  const plan = { model: 'llama-3-70b', quant: 'Q4_K_M', devices: ['rtx-4090', 'rtx-3090', 'rtx-3090', 'tesla-p40'],
    links: Array(3).fill('pcie4-x16'), context: 4096, M: 4 };
  conforms(hp.plan(plan), 'PlanReport', 'plan');
  conforms(hp.plan({ ...plan, objective: 'throughput' }), 'PlanReport', 'plan');
  // Explicit costs: every tokens_per_second_band is null.
  const explicit = hp.plan(readFileSync(join(root, 'tests', 'cli', 'plans', 'plan_two_devices.json'), 'utf8'));
  assert.equal(explicit.tokens_per_second_band, null);
  conforms(explicit, 'PlanReport', 'plan');
  // Calibrated: a device that took a record, and a record of the other phase left unused.
  const bench = JSON.parse(readFileSync(join(root, 'tests', 'cli', 'plans', 'bench_4080.json'), 'utf8'));
  const calibrated = hp.plan({ model: 'llama-3.1-8b', quant: 'Q4_K_M', devices: ['rtx-4080', 'rtx-3090'], M: 4,
    calibration: bench });
  assert.equal(calibrated.calibrated.length, 1);
  assert.equal(calibrated.calibration_unused.length, 1);
  conforms(calibrated, 'PlanReport', 'plan');
  // simulate reads no rho (its links are async, blocking or serial) and refuses the key.
  const { rho, ...simulated } = pipeline;
  assert.equal(rho, 0.5);
  conforms(hp.simulate({ ...simulated, reps: 20, service: 'lognormal:cv=0.5', buffers: 1, timeline: true }),
    'Simulation', 'simulate');
  conforms(hp.simulate({ ...simulated, links: 'serial' }), 'Simulation', 'simulate');
  const synthetic = [0, 1, 2].map((r) => join(traces, 'synthetic', `rank-${r}.json.gz`));
  conforms(hp.importTrace(trace(synthetic)), 'TraceResult', 'importTrace');
  conforms(hp.importTrace(trace(synthetic), { stage_order: [2, 1, 0] }), 'TraceResult', 'importTrace');
  conforms(hp.importTrace(trace([0, 1].map((r) => join(traces, `hta_sampled_rank-${r}.json.gz`)))),
    'TraceResult', 'importTrace');
  // A CPU run whose transfers are c10d:: ops alone (the gloo: events left
  // out): nothing bounds the offset from above, and clock_offset_bounds' hi is null.
  const cpu = [0, 1].map((r) => ({ name: `cpu_gloo_rank-${r}.json`,
    bytes: new TextEncoder().encode(readFileSync(join(root, 'tests', 'cli', 'traces', `cpu_gloo_rank-${r}.json`), 'utf8')
      .split('\n').filter((line) => !line.includes('"gloo:')).join('\n').replace(/,\n\]/, '\n]')) }));
  const run = hp.importTrace(cpu, { microbatch: '^microbatch_([0-9]+)$' });
  assert.equal(run.clock_offset_bounds[0][1], null);
  conforms(run, 'TraceResult', 'importTrace');
});

test('an error the module throws carries the fields of HeteropipeError', () => {
  let caught;
  try {
    hp.plan({ model: 'llama-3-8b', quant: 'Q4_K_M', devices: ['rtx-4090'], M: 1, typo: 1, other: 2 });
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof load.HeteropipeError);
  // Its own fields and its name (the class's); `message` is Error's. Its
  // `errors` are of the same class, each held to it in turn.
  const fields = (e) => {
    const own = Object.fromEntries(['name', ...Object.keys(e)].map((k) => [k, e[k]]));
    delete own.message;
    return { ...own, errors: [] };
  };
  conforms(fields(caught), 'HeteropipeError', 'HeteropipeError');
  assert.ok(caught.errors.length >= 2);
  caught.errors.forEach((e, k) => conforms(fields(e), 'HeteropipeError', `HeteropipeError.errors[${k}]`));
});

test('the ErrorCode union is exactly the codes the core writes', () => {
  const source = readFileSync(join(root, 'core', 'src', 'error.cpp'), 'utf8');
  const written = [...source.matchAll(/case ErrorCode::(\w+): return "(\w+)";/g)].map((m) => {
    assert.equal(m[1], m[2], 'a code is written under its own name');
    return m[2];
  });
  assert.ok(written.length >= 40, `read ${written.length} codes from error_code_name`);
  const union = /type ErrorCode\s*=([^;]*);/.exec(dts);
  assert.ok(union, 'the d.ts declares ErrorCode');
  const declared = [...union[1].matchAll(/'(\w+)'/g)].map((m) => m[1]);
  assert.deepEqual([...declared].sort(), [...written].sort());
});
