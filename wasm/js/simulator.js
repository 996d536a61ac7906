// The simulator, which only the whole module has (heteropipe.js; see
// wasm/CMakeLists.txt). The request takes the forms Python's
// Pipeline.simulate takes; every value is read and checked by the core
// (wasm/src/sim_ops.cpp), so this file only snapshots them: nested lists
// flattened with their lengths, lists of names as one text with theirs.
import { float64Length, flag, knownFieldsOf, list, number, progressOf, quote, text, unboxed, utf8Length } from './snapshot.js';

const what = (name) => 'simulate: ' + name;

function lengthOf(x, name) {
  const n = typeof x === 'object' ? x.length : undefined;
  if (typeof n !== 'number' || !(n >= 0)) throw new TypeError(what(name) + ' must be a list (got ' + quote(x) + ')');
  return n;
}

// A list of lists (or of lone numbers, each a list of one), as its items in
// order and the length of each. Past `max` rows or items, nothing more is
// copied: the lists are sent as their lengths alone, for C++ to refuse.
function flattened(name, x, max) {
  if (x === undefined || x === null) return [];
  const rows = lengthOf(x, name);
  const items = [];
  const lengths = [];
  let total = 0;
  for (let k = 0; k < rows && rows <= max; k++) {
    const row = unboxed(x[k]);
    let length = float64Length(row);
    if (length < 0 && typeof row === 'object' && row !== null) length = row.length;
    const listed = typeof length === 'number' && length >= 0;
    total += listed ? length : 1;
    if (total > max) continue;  // only the count from here on
    lengths.push(listed ? length : 1);
    if (!listed) items.push(row);
    for (let j = 0; listed && j < length; j++) items.push(row[j]);
  }
  if (rows > max) return [list(name, [], max), list(name + '_lengths', { length: rows }, max)];
  if (total > max) return [list(name, { length: total }, max), list(name + '_lengths', lengths, max)];
  return [list(name, items, max), list(name + '_lengths', lengths, max)];
}

// A name (`lognormal:cv=0.5`) or a list of them, one per stage or link.
function names(name, x) {
  x = unboxed(x);
  if (x === undefined || x === null) return [];
  if (typeof x === 'string') return [text(name, x, what(name))];
  const parts = [];
  const lengths = [];
  for (let k = 0, n = lengthOf(x, name); k < n; k++) {
    const item = unboxed(x[k]);
    if (typeof item !== 'string') throw new TypeError(what(name) + '[' + k + '] must be a string (got ' + quote(item) + ')');
    parts.push(item);
    lengths.push(utf8Length(item));
  }
  return [text(name, parts.join(''), what(name)), list(name + '_lengths', lengths, Infinity)];
}

// Text as the CLI takes it, else a list (flattened when nested).
const textOr = (name, x, orElse) => (typeof unboxed(x) === 'string' ? [text(name + '_text', x, what(name))] : orElse());

function bool(name, x) {
  x = unboxed(x);
  if (x === undefined) return null;
  if (typeof x !== 'boolean') throw new TypeError(what(name) + ' must be a boolean (got ' + quote(x) + ')');
  return flag(name, x);
}

// The keys a simulate request may hold (the d.ts's SimulateInput).
const SIMULATE_KEYS = ['tau', 'd', 'M', 'links', 'shared', 'buffers', 'service', 'link_service', 'service_matrix',
  'link_matrix', 'service_samples', 'service_probabilities', 'quantiles', 'scaled', 'reps', 'seed', 'timeline'];

// The simulator's function for the API of module m, or none.
export function simulatorOf(m, operation, limits) {
  if (typeof m.simulate !== 'function') return {};
  const run = operation('simulate', true);
  const max = limits.max_stages;  // the longest list a request holds (sim_ops.cpp)
  // options.on_progress: called with the fraction of the replications done
  // (at most about 100 times a run, not at all without random times).
  function simulate(request, options) {
    const progress = progressOf(knownFieldsOf(options, ['on_progress'], 'simulate: options'), 'simulate');
    const r = knownFieldsOf(request, SIMULATE_KEYS, 'simulate');
    const links = r.links;
    const timeline = bool('timeline', r.timeline);
    const inputs = [
      list('tau', r.tau, limits.max_stages),
      list('d', r.d, limits.max_stages),
      number('M', r.M),
      links === undefined ? null : text('links', links, what('links')),
      ...textOr('shared', r.shared, () => flattened('shared', r.shared, max)),
      ...textOr('buffers', r.buffers, () => [list('buffers', r.buffers, max)]),
      ...names('service', r.service),
      ...names('link_service', r.link_service),
      ...flattened('service_matrix', r.service_matrix, max),
      ...flattened('link_matrix', r.link_matrix, max),
      ...flattened('service_samples', r.service_samples, max),
      list('service_probabilities', r.service_probabilities, max),
      bool('quantiles', r.quantiles),
      bool('scaled', r.scaled),
      ...textOr('reps', r.reps, () => [number('reps', r.reps)]),
      ...textOr('seed', r.seed, () => [number('seed', r.seed)]),
      timeline,
    ];
    // A timeline may hold millions of values: its lists as Float64Arrays.
    // The module takes the progress function, or undefined, after the request.
    let out;
    try {
      out = run(inputs, timeline !== null && timeline.value, undefined, [progress.report]);
    } finally {
      progress.rethrow();
    }
    return out;
  }
  return { simulate };
}
