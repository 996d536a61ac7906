// Blobs (Files) as trace files: each read as it streams, a gzip one (its
// first two bytes 1f 8b) inflated by the platform's DecompressionStream, and
// written in pieces straight into the request's staging area, so that no
// whole copy of a text exists outside the module. Inflating stops once the
// text passes the core's limit (max_trace_bytes), so a gzip bomb neither
// hangs nor fills memory.

// The intrinsic members, taken before any caller's code runs: they read a
// genuine Blob's own state, and an object that only looks like one fails
// their check instead of running code of its own.
const blob = typeof Blob === 'function' ? Blob.prototype : null;
const blobSize = blob && Object.getOwnPropertyDescriptor(blob, 'size').get;
const { slice, stream, arrayBuffer } = blob || {};

// Lets go of an inflated piece once copied, at once rather than when the
// collector next runs: the pieces of a large file would otherwise pile up
// (ArrayBuffer.prototype.transfer, where the engine has it).
const transfer = typeof ArrayBuffer.prototype.transfer === 'function' ? ArrayBuffer.prototype.transfer : null;
function free(buffer) {
  if (transfer !== null) transfer.call(buffer, 0);
}

// The size of a genuine Blob, else -1.
export function sizeOfBlob(x) {
  if (blob === null || typeof x !== 'object' || x === null) return -1;
  try {
    return blobSize.call(x);
  } catch (e) {
    return -1;
  }
}

// The first n bytes of a genuine Blob, as a Uint8Array (fewer at its end):
// Blob.slice reads only them, so a 40 GB file's header costs its header.
export async function prefixOfBlob(x, n) {
  return new Uint8Array(await arrayBuffer.call(slice.call(x, 0, n)));
}

// Why a gzip file was not inflated whole: `at` compressed bytes read, `size`
// inflated by then (past the limit: too_large; else it was damaged or cut
// short: bad_gzip), or, with `trailing`, bytes that are no gzip data follow
// the gzip data, which ends at byte `at`. The core words it
// (wasm/src/trace_ops.cpp).
export class Refusal {
  constructor(at, size, trailing = false) {
    this.at = at;
    this.size = size;
    this.trailing = trailing;
  }
}

// Whether the first `length` bytes of blob `x` inflate whole.
async function inflatesWhole(x, length) {
  const reader = stream.call(slice.call(x, 0, length)).pipeThrough(new DecompressionStream('gzip')).getReader();
  try {
    for (;;) if ((await reader.read()).done) return true;
  } catch (e) {
    return false;
  }
}

// Where the gzip data of blob `x` ends when the inflater failed `fed` bytes
// in, having given `inflated` bytes of text, on bytes that follow that data:
// the CLI's inflater names the first of them (io/src/gzip.cpp), while
// DecompressionStream only fails, somewhat later. The end is a length p below
// `fed`, within the last `window` bytes fed (the inflater fails in the chunk
// that brings the bytes after the data, or the next), whose prefix inflates
// whole, after which no gzip member starts, and whose trailer's ISIZE is the
// text's length modulo 2^32: at least `inflated`, and not by more than the
// inflater may hold back when it fails. Those p are tried from the last, as
// the bytes after the data are usually few, each by inflating the prefix;
// -1 when none inflates whole (damaged or cut short). A file of several
// members with bytes after them is found only when its last member holds all
// of the text still held back, and is called damaged otherwise.
async function endOfGzip(x, fed, window, inflated) {
  const from = Math.max(18, fed - window);  // a member's header and trailer take 18 bytes
  const bytes = new Uint8Array(await arrayBuffer.call(slice.call(x, from - 4, fed + 2)));
  const heldBack = 1 << 18;
  let tried = 0;
  for (let p = fed - 1; p >= from && tried < 8; p--) {
    const k = p - from + 4;
    const isize = (bytes[k - 4] | (bytes[k - 3] << 8) | (bytes[k - 2] << 16) | (bytes[k - 1] << 24)) >>> 0;
    if (((isize - inflated) >>> 0) > heldBack) continue;
    if (bytes[k] === 0x1f && bytes[k + 1] === 0x8b) continue;
    tried++;
    if (await inflatesWhole(x, p)) return p;
  }
  return -1;
}

// Whether the blob is gzip, and the room its text is staged in: a plain
// file's size; a gzip file's from its trailer (ISIZE, the text's length
// modulo 2^32, exact for one member below 4 GiB), 0 when that says more than
// the limit (nothing is kept: the text will pass the limit) or more than
// deflate can pack (about 1032 bytes into one: the trailer is damaged). A
// text that does not fill its room exactly is staged again (traces.js).
export async function probe(x, size, limit) {
  const [head, tail] = await Promise.all([
    arrayBuffer.call(slice.call(x, 0, 2)), arrayBuffer.call(slice.call(x, Math.max(0, size - 4))),
  ]);
  const bytes = new Uint8Array(head);
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return { gzip: false, room: size };
  const isize = tail.byteLength === 4 ? new DataView(tail).getUint32(0, true) : 0;
  return { gzip: true, room: isize <= limit && isize <= size * 1032 ? isize : 0 };
}

// A plain file through one piece of PIECE bytes, read into again and again
// (a BYOB reader hands the same memory back), so that reading leaves no
// garbage for the collector behind; where the Blob's stream has no BYOB
// reader, in the pieces the stream gives.
const PIECE = 1024 * 1024;
async function pourPlain(f, u8, read) {
  const source = stream.call(f.blob);
  let reader = null;
  let piece = null;
  try {
    reader = source.getReader({ mode: 'byob' });
    piece = new Uint8Array(PIECE);
  } catch (e) {
    reader = source.getReader();
  }
  let total = 0;
  for (;;) {
    const next = await (piece ? reader.read(piece) : reader.read());
    if (next.done) return total;
    const n = next.value.length;
    if (total + n <= f.room) u8().set(next.value, f.address + total);
    total += n;
    read(total);
    if (piece) piece = new Uint8Array(next.value.buffer);
  }
}

// Reads file `f` ({blob, gzip, room, address}) into wasm memory at
// f.address, as much as fits in f.room, and returns the text's length.
// u8() gives the memory's current view (other calls may grow it meanwhile);
// read(n) is told the compressed bytes read so far. Throws a Refusal for a
// gzip file past `limit` or that does not inflate.
export async function pour(f, u8, limit, read) {
  if (!f.gzip) return pourPlain(f, u8, read);
  let fed = 0;
  let lastTwo = [0, 0];  // the lengths of the last two chunks fed
  const counted = new TransformStream({
    transform(chunk, out) {
      fed += chunk.length;
      lastTwo = [lastTwo[1], chunk.length];
      read(fed);
      out.enqueue(chunk);
    },
  });
  const reader = stream.call(f.blob).pipeThrough(counted).pipeThrough(new DecompressionStream('gzip')).getReader();
  let total = 0;
  for (;;) {
    let next;
    try {
      next = await reader.read();
    } catch (e) {
      const end = await endOfGzip(f.blob, fed, lastTwo[0] + lastTwo[1], total);
      throw end < 0 ? new Refusal(fed, 0) : new Refusal(end, 0, true);
    }
    if (next.done) return total;
    const n = next.value.length;
    if (total + n > limit) {
      reader.cancel().catch(() => {});
      throw new Refusal(fed, total + n);
    }
    if (total + n <= f.room) u8().set(next.value, f.address + total);
    total += n;
    free(next.value.buffer);
  }
}
