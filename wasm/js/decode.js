// Decoding a reply: records in the format of wasm/src/protocol.hpp, turned
// into plain objects by name. Nothing here knows any result type.
import { BOOLEAN, INTEGER, LIST, NULL_VALUE, NUMBER, OBJECT, OBJECTS, RECORD, TEXT, TUPLES } from './protocol.js';

// Made on first need, like encode.js's encoder.
let decoder = null;

// Objects are built from templates, one per shape (the names of their fields
// in order), found by walking a tree keyed by the fields' indices in the
// module's table of field names (wasm/src/reply.hpp, field_name): the module
// keeps each name once, by its text, so an index always names the same
// field, and a name's text is read from memory once, the first time its
// index comes. Copying a template and setting its fields is faster than
// adding fields one by one to an empty object.
function shapeNode(parent, name) {
  return { parent, name, next: new Map(), lastKey: -1, last: null, template: null, names: null };
}

// The template of the shape ending at `node` (below `root`): JSON.parse gives
// an object with fast properties.
function templateOf(root, node) {
  if (node.template === null) {
    const names = [];
    for (let n = node; n !== root; n = n.parent) names.unshift(n.name);
    node.names = names;
    node.template = JSON.parse('{' + names.map((name) => JSON.stringify(name) + ':null').join(',') + '}');
  }
  return node.template;
}

// The decoder of the records that module memory `heap` holds (see call.js):
// readObject(k, count, typed) is the object of the `count` records from
// index k (in doubles), with lists as Float64Arrays when `typed`. The names
// and shapes it learns are this module's.
export function decoderOf(heap) {
  let f64;
  let u8;
  const names = [];  // by index in the module's table
  const shapes = shapeNode(null, '');

  const nameAt = (address, length) => String.fromCharCode.apply(null, u8.subarray(address, address + length));

  // The shape after `node` with the field of record r. A name outside the
  // module's table (index -1) is keyed by its text.
  function nextShape(node, r) {
    const index = f64[r + 1];
    if (node.lastKey === index && index >= 0) return node.last;  // the shape of the previous reply, most often
    let key = index;
    if (index < 0) key = nameAt(f64[r + 5], f64[r + 2]);
    else if (names[index] === undefined) names[index] = nameAt(f64[r + 5], f64[r + 2]);
    let next = node.next.get(key);
    if (next === undefined) {
      next = shapeNode(node, index < 0 ? key : names[index]);
      node.next.set(key, next);
    }
    node.lastKey = key;
    node.last = next;
    return next;
  }

  function textAt(address, length) {
    let ascii = '';
    for (let k = 0; k < length; k++) {
      const c = u8[address + k];
      if (c >= 0x80) {
        if (decoder === null) decoder = new TextDecoder();
        return decoder.decode(u8.subarray(address, address + length));
      }
      ascii += String.fromCharCode(c);
    }
    return ascii;
  }

  // A list from wasm memory: a Float64Array copy, or a plain array.
  function listAt(address, length, typed) {
    const at = address >>> 3;
    if (typed) return f64.slice(at, at + length);
    const out = new Array(length);
    for (let k = 0; k < length; k++) out[k] = f64[at + k];
    return out;
  }

  // The `count` records from index k (in doubles) as one plain object.
  function readObject(k, count, typed) {
    const end = k + count * RECORD;
    const values = [];
    let node = shapes;
    for (let r = k; r < end; r += RECORD) {
      const kind = f64[r];
      const a = f64[r + 3];
      node = nextShape(node, r);
      if (kind === NUMBER || kind === INTEGER) values.push(a);
      else if (kind === BOOLEAN) values.push(a !== 0);
      else if (kind === TEXT) values.push(textAt(a, f64[r + 4]));
      else if (kind === LIST) values.push(listAt(a, f64[r + 4], typed));
      else if (kind === OBJECT) values.push(readObject(r + RECORD, a, typed));
      else if (kind === OBJECTS) values.push(readObjects(r + RECORD, a, typed));
      else if (kind === NULL_VALUE) values.push(null);
      else if (kind === TUPLES) values.push(readTuples(r + RECORD, a));
      if (kind === OBJECT || kind === OBJECTS || kind === TUPLES) r += a * RECORD;
    }
    const out = { ...templateOf(shapes, node) };
    const names = node.names;
    for (let j = 0; j < values.length; j++) out[names[j]] = values[j];
    return out;
  }

  function readObjects(k, count, typed) {
    const out = [];
    const end = k + count * RECORD;
    while (k < end) {
      const inner = f64[k + 3];
      out.push(readObject(k + RECORD, inner, typed));
      k += (inner + 1) * RECORD;
    }
    return out;
  }

  // A list of arrays: each item a tuple record whose elements are the
  // records after it, unnamed values that hold no records of their own.
  function readTuples(k, count) {
    const out = [];
    const end = k + count * RECORD;
    while (k < end) {
      const length = f64[k + 3];
      const tuple = new Array(length);
      for (let j = 0; j < length; j++) {
        const r = k + (j + 1) * RECORD;
        const kind = f64[r];
        const a = f64[r + 3];
        if (kind === NUMBER || kind === INTEGER) tuple[j] = a;
        else if (kind === BOOLEAN) tuple[j] = a !== 0;
        else if (kind === TEXT) tuple[j] = textAt(a, f64[r + 4]);
        else tuple[j] = null;
      }
      out.push(tuple);
      k += (length + 1) * RECORD;
    }
    return out;
  }

  return (k, count, typed) => {
    f64 = heap.f64();
    u8 = heap.u8();
    return readObject(k, count, typed);
  };
}
