// Appended after Emscripten's glue (--extern-post-js). `heteropipe` is, at this
// point, the raw Embind module factory; it is replaced by the public factory:
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

  const NONE = new Float64Array(0);

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
    const limits = Object.freeze(m.limits());
    const names = m.names();
    const fields = new Set(names.fields);
    const regimes = new Set(names.regimes);

    // Input lists are written straight into views of buffers owned by C++
    // (see marshal.hpp); the bindings get only their lengths. Every item that
    // is not a number is written as NaN, which C++ rejects, naming the item. A
    // lone value is a list of one. A length over the limit is passed on
    // without writing, for C++ to refuse.
    let views = [NONE, NONE, NONE];
    const KEEP = 1 << 16;

    function lengthOf(x, max) {
      if (x === undefined || x === null) return 0;
      const length = typeof x === 'object' || typeof x === 'function' ? x.length : undefined;
      if (typeof length !== 'number' || !(length >= 0) || length !== Math.floor(length)) return 1;
      return length;
    }

    function write(view, x, length) {
      if (x instanceof Float64Array) {
        view.set(x);
      } else if (length === 1 && !(typeof x === 'object' && x !== null && typeof x.length === 'number')) {
        view[0] = typeof x === 'number' ? x : NaN;
      } else {
        for (let k = 0; k < length; k++) {
          const item = x[k];
          view[k] = typeof item === 'number' ? item : NaN;
        }
      }
    }

    // Stages up to three lists (tau, d, batches); returns their lengths.
    function stage(lists, max) {
      const lengths = lists.map((x, k) => lengthOf(x));
      const fits = (n, k) => n > max[k] || (n <= views[k].length && !(views[k].length > KEEP && n < views[k].length / 4));
      if (!lengths.every(fits)) {
        views = m.listViews.apply(null, lengths.map((n, k) => (n > max[k] ? 0 : n)));
      }
      lengths.forEach((n, k) => {
        if (n > 0 && n <= max[k]) write(views[k], lists[k], n);
      });
      return lengths;
    }

    const PIPELINE_MAX = [limits.maxStages, limits.maxStages, 0];
    function pipeline(i) {
      return stage([i.tau, i.d, undefined], PIPELINE_MAX);
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
        throw new TypeError('regime must be ' + Array.from(regimes).map((x) => "'" + x + "'").join(' or ') +
          ' (got ' + describe(r) + ')');
      }
      return r;
    }

    function contextOf(i, cellLimit) {
      const stages = lengthOf(i.tau);
      return { limits: limits, given: i, stages: stages, links: Math.max(stages - 1, 0), cellLimit: cellLimit };
    }

    function unwrap(reply, i, cellLimit) {
      if (reply.error === null) return reply.value;
      throw new HeteropipeError(errorInfo(reply.error, contextOf(i, cellLimit)));
    }

    function plainArray(typed) {
      const out = new Array(typed.length);
      for (let k = 0; k < typed.length; k++) out[k] = typed[k];
      return out;
    }

    // Field names and texts are C string literals, so each address is decoded once.
    const texts = new Map();
    function textAt(buffer, address, length) {
      let t = texts.get(address);
      if (t === undefined) {
        t = String.fromCharCode.apply(null, new Uint8Array(buffer, address, length));
        texts.set(address, t);
      }
      return t;
    }

    // The analysis from RecordWriter's records (kind 0 number, 1 boolean,
    // 2 list, 3 text), copied out of wasm memory before any other call. Lists
    // come back as Float64Arrays when tau went in as one (the fast path for
    // big pipelines), else as plain arrays.
    function fromRecords(records, typed) {
      const buffer = records.buffer;
      const end = records.length - 1;
      const lists = records.byteOffset;
      const out = {};
      for (let k = end - 5 * records[end]; k < end; k += 5) {
        const name = textAt(buffer, records[k], records[k + 1]);
        const kind = records[k + 2];
        const a = records[k + 3];
        const b = records[k + 4];
        if (kind === 2) {
          const list = new Float64Array(buffer, lists + 8 * a, b);
          out[name] = typed ? list.slice() : plainArray(list);
        } else {
          out[name] = kind === 0 ? a : kind === 1 ? a !== 0 : textAt(buffer, a, b);
        }
      }
      return out;
    }

    function requestArgs(i) {
      const hasTReal = i.T_real !== undefined && i.T_real !== null;
      const n = pipeline(i);
      return [n[0], n[1], number(i.M, 8), number(i.rho, 1), hasTReal, hasTReal ? number(i.T_real, NaN) : 0];
    }

    function analyze(request) {
      const i = input(request);
      const args = requestArgs(i);
      const analysis = fromRecords(unwrap(m.analyze.apply(null, args), i), i.tau instanceof Float64Array);
      if (args[0] > KEEP) m.releaseAnalysis();
      return analysis;
    }

    function check(request) {
      const i = input(request);
      const context = contextOf(i);
      return m.check.apply(null, requestArgs(i)).map((e) => errorInfo(e, context));
    }

    function textOf(text, caller) {
      if (typeof text !== 'string') throw new TypeError(caller + ': text must be a string (got ' + describe(text) + ')');
    }

    function fieldOf(field, allowed) {
      if (!allowed.has(field)) {
        throw new TypeError('field must be one of ' + Array.from(allowed).join(', ') + ' (got ' + describe(field) + ')');
      }
      return field;
    }

    const listFields = new Set(names.fields.slice(0, 2));

    function parseList(text, field) {
      textOf(text, 'parseList');
      fieldOf(field, listFields);
      return plainArray(unwrap(m.parseList(text, field), {}));
    }

    function parseNumber(text, field) {
      textOf(text, 'parseNumber');
      fieldOf(field, fields);
      return unwrap(m.parseNumber(text, field), {});
    }

    // Single quantities take the same inputs as analyze and return one value.
    function ofPipeline(name) {
      return (request) => {
        const i = input(request);
        const n = pipeline(i);
        return unwrap(m[name](n[0], n[1]), i);
      };
    }
    function ofBatches(name) {
      return (request) => {
        const i = input(request);
        const n = pipeline(i);
        return unwrap(m[name](n[0], n[1], number(i.M, 8)), i);
      };
    }

    function effectiveSlope(request) {
      const i = input(request);
      const n = pipeline(i);
      return unwrap(m.effectiveSlope(n[0], n[1], number(i.rho, 1)), i);
    }

    function overlapRatio(request) {
      const i = input(request);
      const n = pipeline(i);
      return unwrap(m.overlapRatio(n[0], n[1], number(i.M, 8), number(i.T_real, NaN)), i);
    }

    function schedule(name, cellLimit) {
      return (request) => {
        const i = input(request);
        const regime = regimeOf(i);
        const n = pipeline(i);
        return unwrap(m[name](n[0], n[1], number(i.M, 8), regime), i, cellLimit);
      };
    }

    function curveBatches(request) {
      const i = input(request);
      const points = i.points === undefined ? 200 : i.points;
      if (typeof points !== 'number' || Number.isNaN(points)) {
        throw new TypeError('points must be a number (got ' + describe(points) + ')');
      }
      const n = pipeline(i);
      return plainArray(unwrap(m.curveBatches(n[0], n[1], number(i.M, 8), points), i));
    }

    const CURVE_MAX = [limits.maxStages, limits.maxStages, limits.maxCurvePoints];
    function makespanCurve(request) {
      const i = input(request);
      const n = stage([i.tau, i.d, i.batches], CURVE_MAX);
      return unwrap(m.makespanCurve(n[0], n[1], n[2]), { tau: i.tau, d: i.d, M: i.batches });
    }

    return Object.freeze({
      version: m.version(),
      limits: limits,
      analyze: analyze,
      check: check,
      parseList: parseList,
      parseNumber: parseNumber,
      makespanFree: ofBatches('makespanFree'),
      makespanAsync: ofBatches('makespanAsync'),
      makespanBlocking: ofBatches('makespanBlocking'),
      makespanGpipe: ofBatches('makespanGpipe'),
      homogeneityBias: ofPipeline('homogeneityBias'),
      fullBias: ofPipeline('fullBias'),
      phaseTransition: ofPipeline('phaseTransition'),
      overlapGap: ofBatches('overlapGap'),
      effectiveSlope: effectiveSlope,
      asymptoticThroughputAsync: ofPipeline('asymptoticThroughputAsync'),
      asymptoticThroughputBlocking: ofPipeline('asymptoticThroughputBlocking'),
      crossoverBatches: ofPipeline('crossoverBatches'),
      gpipeOverestimate: ofBatches('gpipeOverestimate'),
      overlapRatio: overlapRatio,
      recurrenceMakespan: schedule('recurrenceMakespan', limits.maxStreamCells),
      timeline: schedule('timeline', limits.maxTimelineCells),
      curveBatches: curveBatches,
      makespanCurve: makespanCurve,
      memory: () => m.memory(),
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
