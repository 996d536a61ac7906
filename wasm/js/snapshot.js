// Reading the caller's values: the one place where the caller's own code can
// run (getters, Proxy traps, a length that is an accessor). Each input
// becomes a plain value before anything is written to wasm memory, so
// nothing the caller does, a call back into the module included, can reach
// a call in progress. No value is ever converted by calling its own methods
// (valueOf, toString): what is not a number is kept as a token for the error
// message, and C++ refuses it.
import { BOOLEAN, LIST, NUMBER, TEXT } from './protocol.js';

// The intrinsic accessors of typed arrays, taken before any caller's code
// runs: they read a genuine typed array's own internal state, so a subclass
// or a replaced prototype cannot lie about a Float64Array's length.
const TypedArray = Object.getPrototypeOf(Float64Array.prototype);
const typedName = Object.getOwnPropertyDescriptor(TypedArray, Symbol.toStringTag).get;
const typedLength = Object.getOwnPropertyDescriptor(TypedArray, 'length').get;

// The length of a genuine Float64Array (a subclass's too), else -1. It runs
// no code of the caller's, and a detached array's length is 0.
export function float64Length(x) {
  return typedName.call(x) === 'Float64Array' ? typedLength.call(x) : -1;
}

// The length of a genuine Uint8Array, else -1, likewise.
export function uint8Length(x) {
  return typedName.call(x) === 'Uint8Array' ? typedLength.call(x) : -1;
}

// How a value that is not a number appears in an error, as JS writes it.
export function quote(v) {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '...' : v);
  if (typeof v === 'bigint') return v + 'n';
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'object' && v !== null) {
    try {
      return Array.isArray(v) ? 'an array' : 'an object';
    } catch (e) {
      return 'an object';  // a revoked Proxy
    }
  }
  return String(v);
}

// A Number, String or Boolean object (new Number(5), new String('4096'),
// Object(true)) as its primitive value, as JSON.stringify and Python's float()
// read them; anything else as it is. Sent as an object it was refused as
// wrong_type quoting {"0":"4","1":"0",...}, and a number field's `new
// Number(5)` as an object. Told by the prototype's own valueOf, which throws
// for any other value, not by a tag a caller's object may forge.
const UNBOX = [Number.prototype.valueOf, String.prototype.valueOf, Boolean.prototype.valueOf];
export function unboxed(v) {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || ArrayBuffer.isView(v)) return v;
  for (const valueOf of UNBOX) {
    try {
      return valueOf.call(v);
    } catch (e) {
      // not this kind of box
    }
  }
  return v;
}

// A value as JSON text, as JSON.stringify writes it (toJSON and getters run,
// undefined, functions and symbols are left out of objects and are null in
// arrays), but by a loop, not recursion: a value nested any depth becomes
// text, and the core names the field it is in, where JSON.stringify would
// throw a RangeError. Each open array or object is one frame with a cursor,
// so a list of a million numbers costs a step each, not a stack of its
// items. JSON has no NaN or Infinity: they travel as the words JS writes, so
// the core's error names them (a wrong_type with that token), not a null. A
// BigInt travels as the text JS writes (10n), refused by the core as a value
// of the wrong type, naming its field. A cycle is a TypeError.
export function jsonText(value) {
  const parts = [];
  const open = new Set();
  // Per open array or object: it, how many items it has (an object's
  // members as name, value, name, value...), and the next one to write.
  const frames = [];
  const put = (item, key) => {
    let v = item;
    if ((typeof v === 'object' && v !== null) || typeof v === 'bigint') {
      if (typeof v.toJSON === 'function') v = v.toJSON(String(key));  // an item's index as text, as JSON.stringify gives it
    }
    if (typeof v === 'object' && v !== null) v = unboxed(v);  // a boxed value as its primitive, as JSON.stringify does
    if (v === null) parts.push('null');
    else if (typeof v === 'number') parts.push(Number.isFinite(v) ? String(v) : '"' + String(v) + '"');  // String(v) is JSON's number
    else if (typeof v === 'string' || typeof v === 'boolean') parts.push(JSON.stringify(v));
    else if (typeof v === 'bigint') parts.push(JSON.stringify(v + 'n'));  // no JSON number: the core names its field
    else if (typeof v !== 'object') parts.push('null');  // undefined, a function or a symbol in an array
    else {
      if (open.has(v)) throw new TypeError('Converting circular structure to JSON');
      open.add(v);
      if (Array.isArray(v)) {
        parts.push('[');
        frames.push({ container: v, array: true, length: v.length, members: null, next: 0 });
      } else {
        const members = [];
        for (const name of Object.keys(v)) {
          const member = v[name];
          if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
          members.push(name, member);
        }
        parts.push('{');
        frames.push({ container: v, array: false, length: members.length, members, next: 0 });
      }
    }
  };
  put(value, '');
  while (frames.length > 0) {
    const f = frames[frames.length - 1];
    if (f.next < f.length) {
      if (f.next > 0) parts.push(',');
      if (f.array) {
        const k = f.next++;
        put(f.container[k], k);
      } else {
        const name = f.members[f.next];
        const member = f.members[f.next + 1];
        f.next += 2;
        parts.push(JSON.stringify(name) + ':');
        put(member, name);
      }
      continue;
    }
    parts.push(f.array ? ']' : '}');
    open.delete(f.container);
    frames.pop();
  }
  return parts.join('');
}

// UTF-8 bytes of a string, as TextEncoder writes it (a lone surrogate as U+FFFD).
export function utf8Length(s) {
  if (!/[^\x00-\x7f]/.test(s)) return s.length;  // ASCII: the engine's scan is faster than a loop
  let n = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && k + 1 < s.length && (s.charCodeAt(k + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      k++;
    } else n += 3;
  }
  return n;
}

// The request argument: anything, read as an object with no fields when absent.
export function fieldsOf(request) {
  return request === undefined || request === null ? {} : request;
}

// A request's or options object's fields, where each key must be one the
// call reads: a misspelt key (clock_offset for clock_offsets) is refused by
// name, never silently dropped, as the plan's reader refuses one.
export function knownFieldsOf(x, known, label) {
  const fields = fieldsOf(x);
  if (typeof fields !== 'object') return fields;
  for (const key of Object.keys(fields)) {
    if (!known.includes(key)) {
      throw new TypeError(label + ': unknown key ' + quote(key) + ' (the keys read: ' + known.join(', ') + ')');
    }
  }
  return fields;
}

// One input as the encoder takes it (encode.js). Every input has every
// field, so that the encoder sees one kind of object: value is a number, a
// boolean or a text; values a list's items (an array of our own, or the
// caller's Float64Array when `typed`); length a list's length or a text's
// UTF-8 bytes; token how JS writes the value at item `at` that is not a
// number (-1: the whole field); limit the most bytes a text may have (0:
// limits.max_text_bytes).
function input(kind, name) {
  return { kind, name, value: 0, values: null, length: 0, typed: false, token: null, at: -1, tokenBytes: 0, limit: 0 };
}

function loneItem(name, x) {
  const one = input(LIST, name);
  one.length = 1;
  one.values = [typeof x === 'number' ? x : NaN];
  if (typeof x !== 'number') {
    one.token = quote(x);
    one.at = 0;
  }
  return one;
}

// A list of numbers: a Float64Array, an array or an array-like, or a lone
// value (a list of one). Items are copied only up to `max` (the longest list
// any operation accepts); a longer list is sent as its length alone, for C++
// to refuse. A Float64Array is kept as it is (`typed`): its length and values
// are read when the request is staged, after every other input was read, by
// code that cannot run the caller's (encode.js).
export function list(name, x, max) {
  x = unboxed(x);
  if (x === undefined || x === null) return null;
  const out = input(LIST, name);
  if (float64Length(x) >= 0) {
    out.values = x;
    out.typed = true;
    return out;
  }
  let length;
  if (typeof x === 'object' || typeof x === 'function') {
    try {
      length = x.length;
    } catch (e) {
      // A Proxy around a typed array cannot give its length: not a list.
    }
  }
  if (typeof length !== 'number' || !(length >= 0) || length !== Math.floor(length)) return loneItem(name, x);
  out.length = length;
  if (length > max) return out;
  const values = [];
  for (let k = 0; k < length; k++) {
    const item = unboxed(x[k]);
    if (typeof item === 'number') {
      values.push(item);
    } else {
      values.push(NaN);
      if (out.token === null) {
        out.token = quote(item);
        out.at = k;
      }
    }
  }
  out.values = values;
  return out;
}

// A number; absent when undefined (C++ applies the default).
export function number(name, x) {
  x = unboxed(x);
  if (x === undefined) return null;
  const out = input(NUMBER, name);
  if (typeof x === 'number') {
    out.value = x;
  } else {
    out.value = NaN;
    out.token = quote(x);
  }
  return out;
}

// A number that may be left out (undefined or null): T_real.
export function optional(name, x) {
  x = unboxed(x);
  return x === null ? null : number(name, x);
}

export function flag(name, x) {
  x = unboxed(x);
  const out = input(BOOLEAN, name);
  out.value = x;
  return out;
}

// Text: a string, else a TypeError naming `what`.
export function text(name, x, what) {
  x = unboxed(x);
  if (typeof x !== 'string') throw new TypeError(what + ' must be a string (got ' + quote(x) + ')');
  const out = input(TEXT, name);
  out.value = x;
  out.length = utf8Length(x);
  return out;
}

// One of a few names the module gave (a field, a regime), read without the
// blanks around it as every name is (' blocking '), else a TypeError.
export function choice(name, x, allowed, what) {
  x = unboxed(x);
  const named = typeof x === 'string' ? x.trim() : x;
  if (!allowed.includes(named)) {
    throw new TypeError(what + ' must be ' + allowed.map((a) => "'" + a + "'").join(' or ') + ' (got ' + quote(x) + ')');
  }
  const out = input(TEXT, name);
  out.value = named;
  out.length = named.length;  // each allowed name is ASCII
  return out;
}

// options.on_progress of a call that reports progress (simulate,
// importTrace): a function that takes the fraction done, or none. It is the
// caller's code that runs while the call runs, so it is never called
// directly: the function returned catches what it throws, calls it no more
// after that, and `rethrow()` throws the first such error once the call is
// over and nothing of it is left in the module.
export function progressOf(options, what) {
  const f = fieldsOf(options).on_progress;
  if (f === undefined || f === null) return { report: undefined, rethrow: () => {} };
  if (typeof f !== 'function') throw new TypeError(what + ': options.on_progress must be a function (got ' + quote(f) + ')');
  let failed = null;
  const report = (fraction) => {
    if (failed !== null) return;
    try {
      f(fraction);
    } catch (e) {
      failed = { e };
    }
  };
  return {
    report,
    rethrow: () => {
      if (failed !== null) throw failed.e;
    },
  };
}
