// The sections beyond the calculator (the planner, the simulator, trace import) load on demand, so
// the first load stays within the site's size budget; long operations run in a Web Worker, so
// typing stays within a frame while they run.
//
// - load(name): the section's page code (js/<name>-page.js), words (i18n/<name>-<lang>.js) and
//   styles (css/<name>.css), and the words the sections share (i18n/tools-<lang>.js), once each, with
//   the whole module's text for the worker; it resolves to { hp, section }: hp is the page's own
//   module (the calculator's: analyze, timeline, readRequest, limits), section what
//   js/<name>-page.js registered.
// - part(name, src): src (js/<name>.js by default), loaded once, resolved to what it registered
//   as name (js/exports.js; heteropipe.js, the whole module, as 'whole').
// - register(name, part): how a part loaded on demand hands over its functions.
// - run(op, args, options): hp[op](...args) of the whole module in the worker (hp[op] itself when
//   it is no function, such as limits); runAll(calls, options): several [op, args] in one job, one
//   result each. cancel() ends either.
// - file(src, sheet): one script (or stylesheet) of the site, loaded once.
//
// The whole module (every operation) runs only in the worker: the page never instantiates it. The
// site's heteropipe.js registers it as 'whole': one function that returns the module's
// factory (scripts/build-site.sh wraps the module so), whose source text is all the page takes.
// From file:// a page may not start a worker from a script file, but it may from a blob: URL (the
// pages' CSP allows worker-src blob:), so the worker is made from that text and workerMain's.
var L = window.HP_I18N;
var loaded = {};
var parts = {};  // what each part loaded on demand registered, by name
var source = null;  // the worker's program as a blob: URL, once heteropipe.js is here

function register(name, part) { parts[name] = part; }

function part(name, src) {
  return file(src || 'js/' + name + '.js').then(function () { return parts[name]; });
}

// Each file once (a script, or a stylesheet when `sheet`); a failed one may be tried again.
function file(src, sheet) {
  if (!loaded[src]) {
    loaded[src] = new Promise(function (resolve, reject) {
      var e = document.createElement(sheet ? 'link' : 'script');
      if (sheet) {
        e.rel = 'stylesheet';
        e.href = src;
      } else {
        e.src = src;
      }
      e.onload = resolve;
      e.onerror = function () {
        delete loaded[src];
        e.remove();
        reject(new Error(src + ' did not load'));
      };
      (sheet ? document.head : document.body).appendChild(e);
    });
  }
  return loaded[src];
}

function program() {
  if (!source) {
    source = part('whole', 'heteropipe.js').then(function (whole) {
      var text = 'self.wholeModule = ' + whole.toString() + ';\n(' + workerMain.toString() + ')();\n';
      return URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
    });
    source.catch(function () { source = null; });
  }
  return source;
}

function load(name) {
  var lang = '-' + L.lang.slice(0, 2) + '.js';
  // heteropipe(): the page's module, whose factory is cached (boot.js).
  return Promise.all([heteropipe(), program(), file('i18n/tools' + lang), file('i18n/' + name + lang), file('js/' + name + '-page.js'),
    file('css/' + name + '.css', true)]).then(function (done) { return { hp: done[0], section: parts[name] }; });
}

// The worker's whole program, run from its source text: it must use nothing from this file.
// Each job is a list of calls, run in order, answered with their results.
function workerMain() {
  // The whole module's function, set on the worker's global by its program (program above): read
  // as a property, so that no minifier takes it for a name of this file's.
  var ready = self.wholeModule()();
  // The operations that report progress take it as their option on_progress, in the argument
  // that holds their options (simulate's second, importTrace's own options), added here.
  var PROGRESS = { simulate: 1, importTrace: 1 };
  function progress(fraction) { postMessage({ progress: fraction }); }
  function withProgress(op, args) {
    if (!PROGRESS[op]) return args;
    var out = args.slice();
    out[PROGRESS[op]] = Object.assign({}, out[PROGRESS[op]], { on_progress: progress });
    return out;
  }
  // An error crosses to the page as its fields: a class does not survive the copy. `errors`: every
  // error the call found, this one first (plan reports each bad field), each as its fields.
  function fields(e, inner) {
    e = e || {};
    var out = {
      name: e.name, message: String(e.message || e), code: e.code, field: e.field, index: e.index,
      value: e.value, limit: e.limit, token: e.token, detail: e.detail,
    };
    // What would fit, on an estimate that no split fits (the planner's memory errors).
    if (e.fits_quant !== undefined) { out.fits_quant = e.fits_quant; out.fits_with_device = e.fits_with_device; }
    // A matrix's cell: index is its row, column its column.
    if (e.column !== undefined) out.column = e.column;
    // A trace file's mistyped value, as typed.
    if (e.typed !== undefined) out.typed = e.typed;
    if (!inner) out.errors = (e.errors || [e]).map(function (x) { return fields(x, true); });
    return out;
  }
  function call(hp, op, args) { return typeof hp[op] === 'function' ? hp[op].apply(null, withProgress(op, args)) : hp[op]; }
  // One job at a time, in order, an operation that returns a promise (importTrace given Files)
  // included.
  var queue = ready;
  self.onmessage = function (event) {
    var job = event.data;
    queue = queue.then(function () { return ready; }).then(function (hp) {
      var results = [];
      return job.calls.reduce(function (done, c) {
        return done.then(function () { return call(hp, c[0], c[1]); }).then(function (r) { results.push(r); });
      }, Promise.resolve()).then(function () { return results; });
    })
      .then(function (result) { postMessage({ id: job.id, result: result }); })
      .catch(function (e) { postMessage({ id: job.id, error: fields(e) }); });
  };
}

var worker = null;
var jobs = []; // posted and not yet answered, oldest first
var nextId = 1;

function post(job) {
  worker.postMessage({ id: job.id, calls: job.calls });
}

function settle(job, message) {
  jobs.splice(jobs.indexOf(job), 1);
  if (!message.error) return job.resolve(message.result);
  var e = new Error(message.error.message);
  Object.keys(message.error).forEach(function (key) { if (key !== 'message') e[key] = message.error[key]; });
  job.reject(e);
}

function start(url) {
  worker = new Worker(url);
  worker.onmessage = function (event) {
    var message = event.data;
    // Progress belongs to the oldest job: the worker runs its jobs in order.
    if (message.id === undefined) {
      if (jobs.length && jobs[0].onProgress) jobs[0].onProgress(message.progress);
      return;
    }
    var job = jobs.filter(function (j) { return j.id === message.id; })[0];
    if (job) settle(job, message);
  };
  worker.onerror = function (event) {
    event.preventDefault();
    var failed = jobs.slice();
    stop();
    failed.forEach(function (job) { settle(job, { error: { message: event.message || 'the worker failed' } }); });
  };
}

function stop() {
  if (worker) worker.terminate();
  worker = null;
}

// Cancelling ends the worker at once, whatever it is doing; the jobs behind the cancelled one
// start again in a new worker.
function cancel(job) {
  if (jobs.indexOf(job) < 0) return;
  jobs.splice(jobs.indexOf(job), 1);
  stop();
  job.reject({ cancelled: true });
  if (jobs.length) {
    start(job.url);
    jobs.forEach(post);
  }
}

function runAll(calls, options) {
  options = options || {};
  var job = { id: nextId++, calls: calls, onProgress: options.onProgress };
  job.promise = program().then(function (url) {
    return new Promise(function (resolve, reject) {
      job.resolve = resolve;
      job.reject = reject;
      job.url = url;
      if (job.cancelled) return reject({ cancelled: true });
      if (!worker) start(url);
      jobs.push(job);
      post(job);
    });
  });
  return {
    promise: job.promise,
    cancel: function () {
      job.cancelled = true;
      cancel(job);
    },
  };
}

function run(op, args, options) {
  var job = runAll([[op, args || []]], options);
  return { promise: job.promise.then(function (results) { return results[0]; }), cancel: job.cancel };
}

export { file, load, part, register, run, runAll };
