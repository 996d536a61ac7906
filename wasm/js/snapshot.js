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

function loneItem(name, x) {
  const number = typeof x === 'number';
  return { kind: LIST, name, values: [number ? x : NaN], length: 1, token: number ? null : quote(x), at: 0 };
}

// A list of numbers: a Float64Array, an array or an array-like, or a lone
// value (a list of one). Items are copied only up to `max` (the longest list
// any operation accepts); a longer list is sent as its length alone, for C++
// to refuse. A Float64Array is kept as it is (`typed`): its length and values
// are read when the request is staged, after every other input was read, by
// code that cannot run the caller's (marshal.js).
export function list(name, x, max) {
  if (x === undefined || x === null) return null;
  if (float64Length(x) >= 0) return { kind: LIST, name, values: x, length: 0, token: null, typed: true };
  let length;
  if (typeof x === 'object' || typeof x === 'function') {
    try {
      length = x.length;
    } catch (e) {
      // A Proxy around a typed array cannot give its length: not a list.
    }
  }
  if (typeof length !== 'number' || !(length >= 0) || length !== Math.floor(length)) return loneItem(name, x);
  if (length > max) return { kind: LIST, name, values: null, length, token: null };
  const values = [];
  let token = null;
  let at = -1;
  for (let k = 0; k < length; k++) {
    const item = x[k];
    if (typeof item === 'number') {
      values.push(item);
    } else {
      values.push(NaN);
      if (token === null) {
        token = quote(item);
        at = k;
      }
    }
  }
  return { kind: LIST, name, values, length, token, at };
}

// A number; absent when undefined (C++ applies the default).
export function number(name, x) {
  if (x === undefined) return null;
  if (typeof x === 'number') return { kind: NUMBER, name, value: x, token: null };
  return { kind: NUMBER, name, value: NaN, token: quote(x), at: -1 };
}

// A number that may be left out (undefined or null): T_real.
export function optional(name, x) {
  return x === null ? null : number(name, x);
}

export function flag(name, x) {
  return { kind: BOOLEAN, name, value: x, token: null };
}

// Text (a string, else a TypeError naming `what`); absent when undefined.
export function text(name, x, what) {
  if (x === undefined) return null;
  if (typeof x !== 'string') throw new TypeError(what + ' must be a string (got ' + quote(x) + ')');
  return { kind: TEXT, name, value: x, bytes: utf8Length(x), token: null };
}

// One of a few names the module gave (a field, a regime), else a TypeError.
export function choice(name, x, allowed, what) {
  if (typeof x !== 'string' || !allowed.includes(x)) {
    throw new TypeError(what + ' must be ' + allowed.map((a) => "'" + a + "'").join(' or ') + ' (got ' + quote(x) + ')');
  }
  return { kind: TEXT, name, value: x, bytes: x.length, token: null };
}
