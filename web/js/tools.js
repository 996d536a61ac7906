// The sections beyond the calculator (the planner, the simulator, trace import) load on demand, so
// the first load stays within the site's size budget; long operations run in a Web Worker, so
// typing stays within a frame while they run.
//
// - load(name): the whole module (heteropipe-full.js), once, shared by every section, with the
//   section's page code (js/<name>-page.js), words (i18n/<name>-<lang>.js) and styles
//   (css/<name>.css), and the words the sections share (i18n/tools-<lang>.js); it resolves to
//   { hp, section }, section being what js/<name>-page.js registered.
// - part(name): js/<name>.js, loaded once, resolved to what it registered (js/exports.js).
// - register(name, part): how a part loaded on demand hands over its functions.
// - run(op, args, options): hp[op](...args) of the whole module in a worker; cancel() ends it.
// - file(src, sheet): one script (or stylesheet) of the site, loaded once.
//
// The site's heteropipe-full.js defines one global function, heteropipeWhole(), that returns the
// module's factory (scripts/build-site.sh wraps the module so). From file:// a page may not start a
// worker from a script file, but it may from a blob: URL (the pages' CSP allows worker-src blob:),
// so the worker is made from heteropipeWhole's own source text and workerMain's.
var L = window.HP_I18N;
var loaded = {};
var parts = {};  // what each part loaded on demand registered, by name
var whole = null;

function register(name, part) { parts[name] = part; }

function part(name) {
  return file('js/' + name + '.js').then(function () { return parts[name]; });
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

function module() {
  if (!whole) {
    whole = file('heteropipe-full.js').then(function () { return window.heteropipeWhole()(); });
    whole.catch(function () { whole = null; });
  }
  return whole;
}

function load(name) {
  var lang = '-' + L.lang.slice(0, 2) + '.js';
  return Promise.all([module(), file('i18n/tools' + lang), file('i18n/' + name + lang), file('js/' + name + '-page.js'),
    file('css/' + name + '.css', true)]).then(function (done) { return { hp: done[0], section: parts[name] }; });
}

// The worker's whole program, run from its source text: it must use nothing from this file.
function workerMain() {
  var ready = heteropipeWhole()(); // eslint-disable-line no-undef
  self.heteropipeProgress = function (fraction) { postMessage({ progress: fraction }); };
  // An error crosses to the page as its fields: a class does not survive the copy.
  function fields(e) {
    e = e || {};
    return {
      name: e.name, message: String(e.message || e), code: e.code, field: e.field, index: e.index,
      value: e.value, limit: e.limit, token: e.token,
    };
  }
  // One job at a time, in order, an operation that returns a promise (importTrace given Files)
  // included.
  var queue = ready;
  self.onmessage = function (event) {
    var job = event.data;
    queue = queue.then(function () { return ready; }).then(function (hp) { return hp[job.op].apply(null, job.args); })
      .then(function (result) { postMessage({ id: job.id, result: result }); })
      .catch(function (e) { postMessage({ id: job.id, error: fields(e) }); });
  };
}

var source = null;
var worker = null;
var jobs = []; // posted and not yet answered, oldest first
var nextId = 1;

function post(job) {
  worker.postMessage({ id: job.id, op: job.op, args: job.args });
}

function settle(job, message) {
  jobs.splice(jobs.indexOf(job), 1);
  if (!message.error) return job.resolve(message.result);
  var e = new Error(message.error.message);
  Object.keys(message.error).forEach(function (key) { if (key !== 'message') e[key] = message.error[key]; });
  job.reject(e);
}

function start() {
  if (!source) {
    var text = window.heteropipeWhole.toString() + '\n(' + workerMain.toString() + ')();\n';
    source = URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
  }
  worker = new Worker(source);
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
    start();
    jobs.forEach(post);
  }
}

function run(op, args, options) {
  options = options || {};
  var job = { id: nextId++, op: op, args: args, onProgress: options.onProgress };
  job.promise = module().then(function () {
    return new Promise(function (resolve, reject) {
      job.resolve = resolve;
      job.reject = reject;
      if (job.cancelled) return reject({ cancelled: true });
      if (!worker) start();
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

export { file, load, part, register, run };
