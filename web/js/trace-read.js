// Reads dropped or chosen trace files into bytes for the module: a gzip file (its first two bytes
// 1f 8b) is inflated as it streams, by the browser's DecompressionStream, and stopped once its text
// passes the core's limit (limits.max_trace_bytes), so a gzip bomb neither hangs nor fills memory.
// What the bytes mean is the core's business: nothing here looks inside them.
(function () {
  'use strict';
  var HP = window.HP = window.HP || {};

  // A coded error as the module's, about the file `name` (field trace, as the core's readers).
  function refusal(code, name, index, value, limit) {
    var e = new Error(code);
    Object.assign(e, { code: code, field: 'trace', token: name, index: index, value: value, limit: limit, page: true });
    return e;
  }

  // Whether the file is gzip, and if so the size its last member's trailer gives (ISIZE, the text's
  // length modulo 2^32): the room the text is inflated into, so it is held once, not in pieces and
  // then again joined.
  function gzipSize(file) {
    return Promise.all([file.slice(0, 2).arrayBuffer(), file.slice(Math.max(0, file.size - 4)).arrayBuffer()]).then(function (b) {
      var head = new Uint8Array(b[0]);
      if (head.length < 2 || head[0] !== 0x1f || head[1] !== 0x8b) return -1;
      return b[1].byteLength === 4 ? new DataView(b[1]).getUint32(0, true) : 0;
    });
  }

  // The file's text, inflated chunk by chunk into `room` bytes (more when a file outgrows its
  // trailer's size: several members, or past 4 GiB); `job.read(n)` counts the compressed bytes read.
  function inflate(file, room, limit, job) {
    var fed = 0;
    var counted = new TransformStream({ transform: function (chunk, out) { fed += chunk.length; job.read(fed); out.enqueue(chunk); } });
    var reader = file.stream().pipeThrough(counted).pipeThrough(new DecompressionStream('gzip')).getReader();
    // Deflate packs at most about 1032 bytes into one: a trailer that says more is damaged.
    var out = new Uint8Array(Math.min(limit, room > 0 && room <= file.size * 1032 ? room : 4 * file.size)), total = 0;
    job.stop = function () { reader.cancel().catch(function () {}); };
    function next() {
      return reader.read().then(function (r) {
        if (job.cancelled) throw { cancelled: true };
        if (r.done) return out.subarray(0, total);
        if (total + r.value.length > limit) {
          job.stop();
          throw refusal('too_large', file.name, fed, total + r.value.length, limit);
        }
        if (total + r.value.length > out.length) {
          var grown = new Uint8Array(Math.min(limit, Math.max(2 * out.length, total + r.value.length)));
          grown.set(out.subarray(0, total));
          out = grown;
        }
        out.set(r.value, total);
        total += r.value.length;
        return next();
      }, function () {
        if (job.cancelled) throw { cancelled: true };
        throw refusal('bad_gzip', file.name, fed, 0, 0);
      });
    }
    return next();
  }

  // A plain file at once; one over the limit is refused before it is read, as the module would.
  function plain(file, limit, job) {
    if (file.size > limit) return Promise.reject(refusal('too_long', file.name, 0, file.size, limit));
    return file.arrayBuffer().then(function (b) {
      if (job.cancelled) throw { cancelled: true };
      job.read(file.size);
      return new Uint8Array(b);
    });
  }

  // files: a FileList or array of File. Returns { promise: [{name, bytes}], cancel }; `progress`
  // gets the fraction of all the files' (compressed) bytes read.
  function read(files, limit, progress) {
    files = Array.prototype.slice.call(files);
    var size = files.reduce(function (s, f) { return s + f.size; }, 0) || 1, done = 0;
    var job = { cancelled: false, stop: function () {} };
    var out = [];
    var chain = files.reduce(function (p, file) {
      return p.then(function () {
        job.read = function (n) { progress(Math.min(1, (done + n) / size)); };
        return gzipSize(file).then(function (room) { return room < 0 ? plain(file, limit, job) : inflate(file, room, limit, job); }).then(function (bytes) {
          done += file.size;
          out.push({ name: file.name, bytes: bytes });
        });
      });
    }, Promise.resolve());
    return {
      promise: chain.then(function () { return out; }),
      cancel: function () { job.cancelled = true; job.stop(); }
    };
  }

  HP.traceRead = { read: read };
})();
