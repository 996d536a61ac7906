// Appended after Emscripten's glue (--extern-post-js). `heteropipe` is, at this
// point, the raw Emscripten module factory; it is replaced by the public factory:
// cached, returning plain values, throwing HeteropipeError. All validation of
// values happens in C++; this layer only checks JS types (a non-number becomes
// NaN, which C++ rejects) and words the errors in English.
var heteropipe = (function (createModule) {
  'use strict';

  class HeteropipeError extends Error {
    constructor(info) {
      super(info.message);
      this.code = info.code;
      this.field = info.field;
      this.index = info.index;
      this.value = info.value;
      this.token = info.token;
    }
  }

  HeteropipeError.prototype.name = 'HeteropipeError';

  // 1234567 -> "1,234,567" without depending on Intl.
  function grouped(x) {
    const text = String(x);
    return /^\d+$/.test(text) ? text.replace(/\B(?=(\d{3})+$)/g, ',') : text;
  }

  // How a non-number the caller passed is quoted in a message.
  function describe(v) {
    if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '...' : v);
    if (typeof v === 'bigint') return v + 'n';
    if (Array.isArray(v)) return 'an array';
    if (typeof v === 'object' && v !== null) return 'an object';
    return String(v);
  }

  const WHOLE_NUMBER_FIELDS = new Set(['M', 'rho', 'T_real']);

  function what(e, context) {
    const got = e.token !== '' ? e.token : String(e.value);
    switch (e.code) {
      case 'empty': return WHOLE_NUMBER_FIELDS.has(e.field) ? 'is empty' : 'needs at least one value';
      case 'too_many':
        return 'at most ' + grouped(e.field === 'M' ? context.limits.maxCurvePoints : context.limits.maxStages) +
          ' values';
      case 'not_finite': return 'must be a finite number (got ' + got + ')';
      case 'negative': return 'must be >= 0 (got ' + e.value + ')';
      case 'all_zero': return 'at least one stage time must be > 0';
      case 'too_small': return 'the largest stage time must be at least 1e-15 (got ' + e.value + ')';
      case 'too_large': return 'must be at most ' + (e.field === 'M' ? '2^53' : '1e15') + ' (got ' + got + ')';
      case 'wrong_length':
        return 'needs S-1 = ' + context.links + ' link latencies, one per link, or none (got ' + e.value + ')';
      case 'not_integer': return 'must be a whole number (got ' + e.value + ')';
      case 'out_of_range':
        return 'must be between ' + (e.field === 'rho' ? '0 and 1' : '1 and 2^53') + ' (got ' + e.value + ')';
      case 'not_positive': return 'must be > 0 (got ' + e.value + ')';
      case 'empty_item': return 'empty item between separators';
      case 'not_a_number': return "'" + e.token + "' is not a number";
      case 'no_overlap_headroom':
        return 'no overlap headroom: T_block equals T_async, so the overlap ratio is undefined';
      case 'too_many_cells':
        return 'M x S = ' + grouped(e.value) + ' cells is over the limit of ' +
          grouped(context.cellLimit);
      default: return e.code;
    }
  }

  // A core error as the public ErrorInfo. `given` maps a field to what the
  // caller passed, so a bad value is quoted as JS writes it ("NaN", "\"x\"", "null").
  function errorInfo(e, context) {
    const index = e.index < 0 ? null : e.index;
    let token = e.token;
    if (e.code === 'not_finite' && context.given && context.given[e.field] !== undefined) {
      const given = context.given[e.field];
      const isList = given !== null && typeof given === 'object' && typeof given.length === 'number';
      const item = index !== null && isList ? given[index] : given;
      token = describe(item);
    }
    const info = { code: e.code, field: e.field, index: index, value: e.value, token: token, message: '' };
    info.message = e.field + (index === null ? '' : ', item ' + (index + 1)) + ': ' + what(info, context);
    return info;
  }

  function makeApi(m) {
    // Every export takes and returns numbers; lists and texts go through
    // buffers in wasm memory (see wasm/src/marshal.hpp). Views of that memory
    // are taken afresh after each call that may grow it.
    const slotsAt = m.hp_slots() / 8;
    const recordsAt = m.hp_records() / 8;

    // ASCII names (string literals in C++) at `address`, decoded once each.
    const names = new Map();
    function nameAt(address, length) {
      let t = names.get(address);
      if (t === undefined) {
        t = String.fromCharCode.apply(null, m.HEAPU8.subarray(address, address + length));
        names.set(address, t);
      }
      return t;
    }
    function slotName(k) {
      const s = m.HEAPF64;
      return nameAt(s[slotsAt + k], s[slotsAt + k + 1]);
    }
    function namesOf(kind, count) {
      const out = [];
      for (let k = 0; k < count; k++) {
        m.hp_name(kind, k);
        out.push(slotName(0));
      }
      return out;
    }

    m.hp_limits();
    const limitValues = m.HEAPF64.slice(slotsAt, slotsAt + 6);
    const limits = Object.freeze({ maxStages: limitValues[0], maxValue: limitValues[1], maxBatches: limitValues[2],
      maxTimelineCells: limitValues[3], maxStreamCells: limitValues[4], maxCurvePoints: limitValues[5] });
    const fieldNames = namesOf(0, 5);
    const regimeNames = namesOf(1, 2);
    const fields = new Set(fieldNames);
    const regimes = new Set(regimeNames);
    m.hp_name(2, 0);
    const version = slotName(0);

    // Error k of the latest call, as the core reported it.
    function coreError(k) {
      m.hp_error(k);
      const s = m.HEAPF64;
      const at = slotsAt;
      const tokenAt = s[at + 4];
      return { code: nameAt(s[at], s[at + 1]), field: nameAt(s[at + 2], s[at + 3]), index: s[at + 6],
        value: s[at + 7], token: m.UTF8ToString(tokenAt, s[at + 5]) };
    }

    // A Float64Array copy of the range at slots k, k+1.
    function slotList(k) {
      const s = m.HEAPF64;
      const at = s[slotsAt + k] / 8;
      return s.slice(at, at + s[slotsAt + k + 1]);
    }

    // Input lists are written straight into buffers owned by C++; the exports
    // get only their lengths. Every item that is not a number is written as
    // NaN, which C++ rejects, naming the item. A lone value is a list of one.
    // A length over the limit is passed on without writing, for C++ to refuse.
    function lengthOf(x) {
      if (x === undefined || x === null) return 0;
      const length = typeof x === 'object' || typeof x === 'function' ? x.length : undefined;
      if (typeof length !== 'number' || !(length >= 0) || length !== Math.floor(length)) return 1;
      return length;
    }

    function write(view, at, x, length) {
      if (x instanceof Float64Array) {
        view.set(x, at);
      } else if (length === 1 && !(typeof x === 'object' && x !== null && typeof x.length === 'number')) {
        view[at] = typeof x === 'number' ? x : NaN;
      } else {
        for (let k = 0; k < length; k++) {
          const item = x[k];
          view[at + k] = typeof item === 'number' ? item : NaN;
        }
      }
    }

    // Lists of at most `smallCapacity` values go to fixed areas, so a small
    // call asks C++ for no buffer; longer ones to buffers sized first.
    m.hp_small_lists();
    const smallAt = [m.HEAPF64[slotsAt] / 8, m.HEAPF64[slotsAt + 1] / 8, m.HEAPF64[slotsAt + 2] / 8];
    const smallCapacity = m.HEAPF64[slotsAt + 3];

    // Stages up to three lists (tau, d, batches); returns their lengths (one
    // shared array, read before the next call stages again).
    const addresses = [0, 0, 0];
    const lengths = [0, 0, 0];
    function stage(lists, max) {
      for (let k = 0; k < lists.length; k++) {
        const n = lengthOf(lists[k]);
        lengths[k] = n;
        // Every buffer first: growing memory detaches views made before it.
        if (n <= smallCapacity) addresses[k] = smallAt[k];
        else if (n <= max[k]) addresses[k] = m.hp_list(k, n) / 8;
      }
      const heap = m.HEAPF64;
      for (let k = 0; k < lists.length; k++) {
        const n = lengths[k];
        if (n > 0 && n <= max[k]) write(heap, addresses[k], lists[k], n);
      }
      return lengths;
    }

    const PIPELINE_MAX = [limits.maxStages, limits.maxStages];
    function pipeline(i) {
      return stage([i.tau, i.d], PIPELINE_MAX);
    }

    function number(x, fallback) {
      if (x === undefined) return fallback;
      return typeof x === 'number' ? x : NaN;
    }

    function input(i) {
      return i === undefined || i === null ? {} : i;
    }

    function regimeOf(i) {
      const r = i.regime === undefined ? 'asynchronous' : i.regime;
      if (!regimes.has(r)) {
        throw new TypeError('regime must be ' + regimeNames.map((x) => "'" + x + "'").join(' or ') +
          ' (got ' + describe(r) + ')');
      }
      return regimeNames.indexOf(r);
    }

    function contextOf(i, cellLimit) {
      const stages = lengthOf(i.tau);
      return { limits: limits, given: i, stages: stages, links: Math.max(stages - 1, 0), cellLimit: cellLimit };
    }

    function fail(i, cellLimit) {
      return new HeteropipeError(errorInfo(coreError(0), contextOf(i, cellLimit)));
    }

    // A number reply: NaN means the call failed (the core never answers NaN).
    function unwrap(x, i, cellLimit) {
      if (x !== x) throw fail(i, cellLimit);
      return x;
    }

    function plainArray(typed) {
      const out = new Array(typed.length);
      for (let k = 0; k < typed.length; k++) out[k] = typed[k];
      return out;
    }

    // hp_analyze's records (see analysis_reply.cpp) are, per field, its
    // name's address, a kind (0 number, 1 boolean, 2 list, 3 text) and two
    // values. Which fields come, in which order, depends only on whether
    // T_real and the lists are asked for, so each such layout is decoded once
    // into a template object: copying it gives every result the same shape,
    // and filling in values in place is several times faster than adding 30
    // properties one by one.
    const layouts = new Map();
    function layoutOf(r, count) {
      const known = layouts.get(count);
      if (known !== undefined && matches(known, r, count)) return known;
      const layout = { addresses: [], kinds: [], names: [], template: null };
      const entries = [];
      for (let j = 0, k = recordsAt; j < count; j++, k += 4) {
        const kind = r[k + 1];
        const name = nameAt(r[k], m.HEAPU8.indexOf(0, r[k]) - r[k]);
        layout.addresses.push(r[k]);
        layout.kinds.push(kind);
        layout.names.push(name);
        entries.push(JSON.stringify(name) + ':' + (kind === 0 ? '0.5' : kind === 1 ? 'false' : 'null'));
      }
      // JSON.parse builds an object with fast properties; adding ~30 keys one
      // by one would turn it into a (slow) dictionary.
      layout.template = JSON.parse('{' + entries.join(',') + '}');
      layouts.set(count, layout);
      return layout;
    }
    function matches(layout, r, count) {
      for (let j = 0, k = recordsAt; j < count; j++, k += 4) {
        if (r[k] !== layout.addresses[j]) return false;
      }
      return true;
    }

    // A list in wasm memory: a Float64Array copy when the caller passed tau
    // as one (the fast path for big pipelines), else a plain array.
    function listAt(heap, address, length, typed) {
      const at = address / 8;
      if (typed) return heap.slice(at, at + length);
      const out = new Array(length);
      for (let k = 0; k < length; k++) out[k] = heap[at + k];
      return out;
    }

    function fromRecords(count, typed) {
      const r = m.HEAPF64;
      const layout = layoutOf(r, count);
      const names = layout.names;
      const kinds = layout.kinds;
      const out = { ...layout.template };
      for (let j = 0, k = recordsAt; j < count; j++, k += 4) {
        const kind = kinds[j];
        if (kind === 0) out[names[j]] = r[k + 2];
        else if (kind === 1) out[names[j]] = r[k + 2] !== 0;
        else if (kind === 2) out[names[j]] = listAt(r, r[k + 2], r[k + 3], typed);
        else out[names[j]] = nameAt(r[k + 2], r[k + 3]);
      }
      return out;
    }

    const KEEP = 1 << 16;

    // The request (see marshal.hpp) goes into slots 0-6.
    function putRequest(i, series) {
      const hasTReal = i.T_real !== undefined && i.T_real !== null;
      const n = pipeline(i);
      const s = m.HEAPF64;
      s[slotsAt] = n[0];
      s[slotsAt + 1] = n[1];
      s[slotsAt + 2] = number(i.M, 8);
      s[slotsAt + 3] = number(i.rho, 1);
      s[slotsAt + 4] = hasTReal ? number(i.T_real, NaN) : 0;
      s[slotsAt + 5] = hasTReal ? 1 : 0;
      s[slotsAt + 6] = series ? 1 : 0;
      return n[0];
    }

    function optionsOf(options) {
      if (options === undefined || options === null) return true;
      if (typeof options !== 'object') throw new TypeError('options must be an object (got ' + describe(options) + ')');
      const series = options.series === undefined ? true : options.series;
      if (typeof series !== 'boolean') throw new TypeError('series must be a boolean (got ' + describe(series) + ')');
      return series;
    }

    function analyze(request, options) {
      const series = optionsOf(options);
      const i = input(request);
      const stages = putRequest(i, series);
      const count = m.hp_analyze();
      if (count === 0) {
        const error = fail(i);
        if (stages > KEEP) m.hp_release();
        throw error;
      }
      const analysis = fromRecords(count, i.tau instanceof Float64Array);
      if (stages > KEEP) m.hp_release();
      return analysis;
    }

    function check(request) {
      const i = input(request);
      const context = contextOf(i);
      putRequest(i, false);
      const count = m.hp_check();
      const out = [];
      for (let k = 0; k < count; k++) out.push(errorInfo(coreError(k), context));
      return out;
    }

    function textOf(text, caller) {
      if (typeof text !== 'string') throw new TypeError(caller + ': text must be a string (got ' + describe(text) + ')');
      const bytes = m.lengthBytesUTF8(text);
      m.stringToUTF8(text, m.hp_text(bytes + 1), bytes + 1);
      return bytes;
    }

    function fieldOf(field, allowed) {
      if (!allowed.has(field)) {
        throw new TypeError('field must be one of ' + Array.from(allowed).join(', ') + ' (got ' + describe(field) + ')');
      }
      return fieldNames.indexOf(field);
    }

    const listFields = new Set(fieldNames.slice(0, 2));

    function parseList(text, field) {
      const bytes = textOf(text, 'parseList');
      const count = m.hp_parse_list(bytes, fieldOf(field, listFields));
      if (count < 0) throw fail({});
      const out = plainArray(slotList(0));
      m.hp_release();
      return out;
    }

    // Typed text (a form's fields, a command line) read as the core reads it:
    // every error, at most one per field, and the request they describe.
    // Absent d, M and rho take their defaults; absent T_real means none.
    function readRequest(text) {
      const t = input(text);
      const typed = (k, fallback) => {
        const x = t[k] === undefined ? fallback : t[k];
        if (typeof x !== 'string') {
          throw new TypeError('readRequest: ' + k + ' must be a string (got ' + describe(x) + ')');
        }
        return x;
      };
      const hasT = t.T_real !== undefined;
      const count = m.hp_read_request(typed('tau', ''), typed('d', ''), typed('M', '8'), typed('rho', '1'), hasT,
        hasT ? typed('T_real', '') : '');
      const s = m.HEAPF64;
      const request = { tau: plainArray(slotList(0)), d: plainArray(slotList(2)), M: s[slotsAt + 4],
        rho: s[slotsAt + 5] };
      if (hasT) request.T_real = s[slotsAt + 6];
      const context = contextOf({ tau: request.tau });
      const errors = [];
      for (let k = 0; k < count; k++) errors.push(errorInfo(coreError(k), context));
      m.hp_release();
      return { request: request, errors: errors };
    }

    function parseNumber(text, field) {
      const bytes = textOf(text, 'parseNumber');
      return unwrap(m.hp_parse_number(bytes, fieldOf(field, fields)), {});
    }

    // Single quantities take the same inputs as analyze and return one value.
    function ofPipeline(f) {
      return (request) => {
        const i = input(request);
        const n = pipeline(i);
        return unwrap(f(n[0], n[1]), i);
      };
    }
    function ofBatches(f) {
      return (request) => {
        const i = input(request);
        const n = pipeline(i);
        return unwrap(f(n[0], n[1], number(i.M, 8)), i);
      };
    }

    const phaseTransitionOf = ofPipeline((t, d) => m.hp_phase_transition(t, d));
    function phaseTransition(request) {
      return phaseTransitionOf(request) !== 0;
    }

    function effectiveSlope(request) {
      const i = input(request);
      const n = pipeline(i);
      return unwrap(m.hp_effective_slope(n[0], n[1], number(i.rho, 1)), i);
    }

    function overlapRatio(request) {
      const i = input(request);
      const n = pipeline(i);
      const x = m.hp_overlap_ratio(n[0], n[1], number(i.M, 8), number(i.T_real, NaN));
      if (x === x) return x;
      if (m.hp_error(0) === 0) return null;  // no overlap headroom
      throw fail(i);
    }

    function recurrenceMakespan(request) {
      const i = input(request);
      const regime = regimeOf(i);
      const n = pipeline(i);
      return unwrap(m.hp_recurrence_makespan(n[0], n[1], number(i.M, 8), regime), i, limits.maxStreamCells);
    }

    function timeline(request) {
      const i = input(request);
      const regime = regimeOf(i);
      const n = pipeline(i);
      const makespan = unwrap(m.hp_timeline(n[0], n[1], number(i.M, 8), regime), i, limits.maxTimelineCells);
      const s = m.HEAPF64;
      const out = { S: s[slotsAt], M: s[slotsAt + 1], regime: regimeNames[regime], makespan: makespan,
        computeStart: slotList(2), computeFinish: slotList(4), transferStart: slotList(6), transferFinish: slotList(8) };
      m.hp_release();
      return out;
    }

    function curveBatches(request) {
      const i = input(request);
      const points = i.points === undefined ? 200 : i.points;
      if (typeof points !== 'number' || Number.isNaN(points)) {
        throw new TypeError('points must be a number (got ' + describe(points) + ')');
      }
      const n = pipeline(i);
      unwrap(m.hp_curve_batches(n[0], n[1], number(i.M, 8), points), i);
      const out = plainArray(slotList(0));
      m.hp_release();
      return out;
    }

    const CURVE_MAX = [limits.maxStages, limits.maxStages, limits.maxCurvePoints];
    function makespanCurve(request) {
      const i = input(request);
      const n = stage([i.tau, i.d, i.batches], CURVE_MAX);
      unwrap(m.hp_makespan_curve(n[0], n[1], n[2]), { tau: i.tau, d: i.d, M: i.batches });
      const out = { M: slotList(0), T_free: slotList(2), T_async: slotList(4), T_block: slotList(6),
        T_gpipe: slotList(8), gpipe_overestimate: slotList(10) };
      m.hp_release();
      return out;
    }

    return Object.freeze({
      version: version,
      limits: limits,
      analyze: analyze,
      check: check,
      parseList: parseList,
      parseNumber: parseNumber,
      readRequest: readRequest,
      makespanFree: ofBatches((t, d, M) => m.hp_makespan_free(t, d, M)),
      makespanAsync: ofBatches((t, d, M) => m.hp_makespan_async(t, d, M)),
      makespanBlocking: ofBatches((t, d, M) => m.hp_makespan_blocking(t, d, M)),
      makespanGpipe: ofBatches((t, d, M) => m.hp_makespan_gpipe(t, d, M)),
      homogeneityBias: ofPipeline((t, d) => m.hp_homogeneity_bias(t, d)),
      fullBias: ofPipeline((t, d) => m.hp_full_bias(t, d)),
      phaseTransition: phaseTransition,
      overlapGap: ofBatches((t, d, M) => m.hp_overlap_gap(t, d, M)),
      effectiveSlope: effectiveSlope,
      asymptoticThroughputAsync: ofPipeline((t, d) => m.hp_asymptotic_throughput_async(t, d)),
      asymptoticThroughputBlocking: ofPipeline((t, d) => m.hp_asymptotic_throughput_blocking(t, d)),
      crossoverBatches: ofPipeline((t, d) => m.hp_crossover_batches(t, d)),
      gpipeOverestimate: ofBatches((t, d, M) => m.hp_gpipe_overestimate(t, d, M)),
      overlapRatio: overlapRatio,
      recurrenceMakespan: recurrenceMakespan,
      timeline: timeline,
      curveBatches: curveBatches,
      makespanCurve: makespanCurve,
      memory: () => ({ wasmBytes: m.HEAPU8.buffer.byteLength, mallocBytes: m.hp_malloc_bytes() }),
    });
  }

  let loading = null;

  // The one public factory: every call returns the same promise of the same
  // API object. A failed load is not cached, so a later call can retry.
  function load() {
    if (loading === null) {
      loading = createModule().then(makeApi, (e) => {
        loading = null;
        throw e;
      });
    }
    return loading;
  }
  load.HeteropipeError = HeteropipeError;
  return load;
})(heteropipe);

if (typeof module === 'object' && module.exports) module.exports = heteropipe;
