// The public API: one entry per operation of the module (wasm/src/bindings.cpp).
// Each reads the caller's values (snapshot.js), then runs the operation
// (call.js). Defaults, checks and words are the core's; the TypeErrors
// here are for arguments of the wrong JS type, which are programming errors.
import { errorInfo } from './errors.js';
import { caller } from './call.js';
import { plannerOf } from './planner.js';
import { simulatorOf } from './simulator.js';
import { tracesOf } from './traces.js';
import { choice, flag, knownFieldsOf, list, number, optional, quote, text } from './snapshot.js';

// analyze's options: whether to return the per-stage lists.
function listsOption(options) {
  if (options === undefined || options === null) return true;
  if (typeof options !== 'object') throw new TypeError('options must be an object (got ' + quote(options) + ')');
  const lists = options.lists;
  if (lists === undefined) return true;
  if (typeof lists !== 'boolean') throw new TypeError('lists must be a boolean (got ' + quote(lists) + ')');
  return lists;
}

export function makeApi(m) {
  const info = caller(m, { max_stages: 0, max_text_bytes: 0 })('module_info')([], false);
  const limits = Object.freeze(info.limits);
  const operation = caller(m, limits, { address: info.small_area, bytes: info.small_area_bytes });
  const max = limits.max_stages;
  const fields = Object.keys(info.fields);
  const listFields = fields.filter((field) => info.fields[field]);
  const regimes = Object.keys(info.regimes);

  // The calculator's calls share one request: a key none of them reads is
  // refused by name, so that a misspelt one ({ tau, m: 100 }) is never run
  // with its default, while one request may go to every call.
  const REQUEST_KEYS = ['tau', 'd', 'M', 'rho', 'T_real', 'regime', 'points', 'batches'];
  const requestOf = (r, label) => knownFieldsOf(r, REQUEST_KEYS, label);

  // The inputs of each kind of operation, read from the request `r`.
  const pipeline = (r) => [list('tau', r.tau, max), list('d', r.d, max)];
  const batches = (r) => [...pipeline(r), number('M', r.M)];
  const request = (r) => [...batches(r), number('rho', r.rho), optional('T_real', r.T_real)];
  const regime = (r) => {
    const x = r.regime;
    return x === undefined ? null : choice('regime', x, regimes, 'regime');
  };
  const typedTau = (inputs) => inputs[0] !== null && inputs[0].typed === true;

  // The operations with replies of their own shape, by their names in the module.
  const run = {};
  for (const name of ['analyze', 'check', 'read_request', 'parse_list', 'parse_number', 'timeline', 'curve_batches',
    'makespan_curve', 'memory']) {
    run[name] = operation(name);
  }
  // An operation whose reply is one value; its JS name is the module's in camelCase.
  const quantity = (name, inputsOf) => {
    const one = operation(name);
    const label = name.replace(/_(.)/g, (_, c) => c.toUpperCase());
    return (r) => one(inputsOf(requestOf(r, label)), false).value;
  };

  function analyze(r, options) {
    const lists = listsOption(options);
    const inputs = [...request(requestOf(r, 'analyze')), flag('lists', lists)];
    return run.analyze(inputs, typedTau(inputs));
  }

  function check(r) {
    return run.check(request(requestOf(r, 'check')), false).errors.map(errorInfo);
  }

  // Typed text read as the core reads it. Absent d, M and rho take their
  // defaults; an absent T_real means none.
  function readRequest(typed) {
    const r = knownFieldsOf(typed, fields, 'readRequest');
    const inputs = fields.map((field) => {
      const x = r[field];
      return x === undefined ? null : text(field, x, 'readRequest: ' + field);
    });
    const read = run.read_request(inputs, false);
    read.errors.forEach(errorInfo);
    return read;
  }

  const parseList = (t, field) =>
    run.parse_list([text('text', t, 'parseList: text'), choice('field', field, listFields, 'field')], false).values;
  const parseNumber = (t, field) =>
    run.parse_number([text('text', t, 'parseNumber: text'), choice('field', field, fields, 'field')], false).value;

  const overlapRatioOf = quantity('overlap_ratio', (r) => [...batches(r), number('T_real', r.T_real)]);
  function overlapRatio(r) {
    const ratio = overlapRatioOf(r);
    return ratio === undefined ? null : ratio;  // no overlap headroom
  }

  function timeline(r) {
    const fields = requestOf(r, 'timeline');
    return run.timeline([...batches(fields), regime(fields)], true);
  }

  // points, like M, is the core's to judge: a value that is no number is its not_a_number.
  function curveBatches(r) {
    const fields = requestOf(r, 'curveBatches');
    return run.curve_batches([...batches(fields), number('points', fields.points)], false).values;
  }

  function makespanCurve(r) {
    const fields = requestOf(r, 'makespanCurve');
    return run.makespan_curve([...pipeline(fields), list('batches', fields.batches, max)], true);
  }

  return Object.freeze({
    version: info.version,
    limits,
    analyze,
    check,
    readRequest,
    parseList,
    parseNumber,
    makespanFree: quantity('makespan_free', batches),
    makespanAsync: quantity('makespan_async', batches),
    makespanBlocking: quantity('makespan_blocking', batches),
    makespanGpipe: quantity('makespan_gpipe', batches),
    overlapGap: quantity('overlap_gap', batches),
    gpipeOverestimate: quantity('gpipe_overestimate', batches),
    homogeneityBias: quantity('homogeneity_bias', pipeline),
    fullBias: quantity('full_bias', pipeline),
    phaseTransition: quantity('phase_transition', pipeline),
    asymptoticThroughputAsync: quantity('asymptotic_throughput_async', pipeline),
    asymptoticThroughputBlocking: quantity('asymptotic_throughput_blocking', pipeline),
    crossoverBatches: quantity('crossover_batches', pipeline),
    effectiveSlope: quantity('effective_slope', (r) => [...pipeline(r), number('rho', r.rho)]),
    overlapRatio,
    recurrenceMakespan: quantity('recurrence_makespan', (r) => [...batches(r), regime(r)]),
    timeline,
    curveBatches,
    makespanCurve,
    memory: () => run.memory([], false),
    // HETEROPIPE_TOOLS: set by the build, false in the calculator's bundle (wasm/CMakeLists.txt).
    ...(HETEROPIPE_TOOLS ? plannerOf(m, operation) : {}),
    ...(HETEROPIPE_TOOLS ? simulatorOf(m, operation, limits) : {}),
    ...(HETEROPIPE_TOOLS ? tracesOf(m, operation, limits) : {}),
  });
}
