// "Plan a split": a model, a quantization and a chain of catalog GPUs (or custom devices) in, the core's exact layer
// split out (hp.plan of the whole module, in the tools' worker; docs/planner.md), drawn by
// planner-view.js. The form's state is the planner's own input JSON, kept as typed in the permalink
// (the `plan` parameter of the hash).
import * as fieldErrors from './field-errors.js';
import * as fmt from './format.js';
import * as plannerView from './planner-view.js';
import * as sharing from './sharing.js';
import * as svg from './svg.js';
import * as tools from './tools.js';
var P = window.HP_I18N.plan;
var $ = function (id) { return document.getElementById(id); };
var esc = svg.esc;

var DEFAULTS = { model: 'llama-3-70b', quant: 'Q4_K_M', context: '4096', phase: 'decode', tokens: '1', M: '1',
  objective: 'async', allow_idle_devices: false, devices: ['rtx-4090', 'rtx-3090', 'rtx-3090'], links: ['pcie4-x16', 'pcie4-x16'],
  bench: '' };
var NUMBERS = ['context', 'tokens', 'M'];
var CHOICES = { phase: ['decode', 'prefill'], objective: ['async', 'blocking', 'throughput'] };
// A custom device: the estimate form's device object, its facts as typed: memory in GiB,
// bandwidth in GB/s and FP16 in FLOP/s, which go to the core with that unit ("24 GiB",
// "1008 GB/s", "8.26e13 FLOP/s") for its parser to read, as it reads the calculator's fields. The
// form keeps them under keys of its own, so that a link saved when the facts were typed in bytes
// still reads. A new one starts from the catalog's facts of the device it replaces, so it plans at once.
var FACTS = ['memory', 'memory_bandwidth', 'fp16_flops'];
var TYPED = { memory: 'memory_gib', memory_bandwidth: 'memory_bandwidth_gb_s', fp16_flops: 'fp16_flops' };
var UNIT = { memory: 'GiB', memory_bandwidth: 'GB/s', fp16_flops: 'FLOP/s' };
var SCALE = { memory: 1073741824, memory_bandwidth: 1e9, fp16_flops: 1 };  // a catalog fact shown in its unit

var hp = null, catalog = null, form = null, onChange = function () {};
var plans = 0;  // the latest plan asked for: an earlier answer is stale
// A model read from a .gguf file chosen or dropped: { file: its name, size: its bytes, info:
// hp.modelInfo's object }, or null. modelInfo runs in the worker and reads the header and tensor
// table through Blob.slice, so a file of any size opens at once and nothing of it leaves the
// machine. It plans in place of the catalog model and quantization (the input's "model": {...}).
// A link cannot carry a file: the form, and so the permalink, keeps the catalog model.
var gguf = null;
var reads = 0;  // the latest file asked for
// A llama-bench file chosen or dropped (-o json: a list of records or one; -o jsonl: one per line):
// { file: its name, text: its text }, or null. Its text goes to the core as it is, as the input's
// "calibration" (the core reads it and words its errors at the file's own bytes); nothing of it
// leaves the machine. A link cannot carry it: the form keeps only its name (form.bench), so that after
// a reload the section says the plan is not calibrated until the file is chosen again.
var bench = null;
var benchReads = 0;  // the latest bench file asked for

// The permalink's text back into a form; anything unreadable gives the defaults.
function fromText(text) {
  var f = JSON.parse(JSON.stringify(DEFAULTS));
  if (!text) return f;
  try {
    var saved = JSON.parse(text);
    // A value of another kind than the default's (a list for a name, a number or null for the device
    // list) is a hand-edited link's: the default stays, so the form never breaks on it.
    var kind = function (x) { return Array.isArray(x) ? 'list' : x === null ? 'null' : typeof x; };
    Object.keys(DEFAULTS).forEach(function (k) {
      var v = saved[k], want = kind(DEFAULTS[k]);
      if (kind(v) === want || (want === 'string' && NUMBERS.indexOf(k) >= 0 && kind(v) === 'number')) f[k] = v;
    });
  } catch (e) { /* a hand-edited link: keep the defaults */ }
  NUMBERS.forEach(function (k) { f[k] = String(f[k]); });
  // A device is a catalog id or an object of facts; a link a catalog id.
  f.devices = f.devices.filter(function (d) { return typeof d === 'string' || (d !== null && typeof d === 'object' && !Array.isArray(d)); });
  f.links = f.links.map(function (l) { return String(l); });
  f.devices = f.devices.map(function (d) {
    if (typeof d === 'string') return d;
    var custom = {};
    FACTS.forEach(function (k) {
      // A link saved with the facts in bytes (the former form) shows them in the unit now typed.
      var v = d[TYPED[k]] !== undefined ? d[TYPED[k]] : d[k] !== undefined && isFinite(d[k]) ? Number(d[k]) / SCALE[k] : d[k];
      custom[TYPED[k]] = String(v === undefined ? '' : v);
    });
    return custom;
  });
  return f;
}

// A fact typed as a number and a unit of its own ("24 GB" in the GiB box) goes as typed, for the core
// to read in that unit or refuse (unknown_unit); anything else takes its box's unit, so that "fast" is
// the core's "not a number" and an empty box "is empty".
var WITH_UNIT = /^[0-9\uFF10-\uFF19+\-.].*[^0-9\uFF10-\uFF19.\s]$/;

function device(d) {
  if (typeof d === 'string') return JSON.stringify(d);
  return '{' + FACTS.map(function (k) {
    var typed = d[TYPED[k]].trim();
    return '"' + k + '":' + JSON.stringify(WITH_UNIT.test(typed) ? typed : typed + ' ' + UNIT[k]);
  }).join(',') + '}';
}

// A model's facts as JSON, its lists (Float64Arrays after the worker) as arrays.
function factsJson(info) {
  return JSON.stringify(info, function (k, v) { return ArrayBuffer.isView(v) ? Array.prototype.slice.call(v) : v; });
}

// The planner's input, as JSON text. The form's own numbers (context, tokens, M) go as typed, as
// text, which the core reads as the calculator reads its fields: an empty field 'is empty', text 'is
// not a number', full-width digits read, and each judged by its own range (read on the page by
// T_real's rules before, context -1e400 said 'must be > 0').
function input() {
  var model = gguf ? ['"model":' + factsJson(gguf.info)] : ['"model":' + JSON.stringify(form.model), '"quant":' + JSON.stringify(form.quant)];
  var parts = model.concat([
    '"phase":' + JSON.stringify(form.phase), '"objective":' + JSON.stringify(form.objective),
    '"allow_idle_devices":' + JSON.stringify(form.allow_idle_devices),
    '"devices":[' + form.devices.map(device).join(',') + ']', '"links":' + JSON.stringify(form.links)]);
  NUMBERS.forEach(function (k) { parts.push('"' + k + '":' + JSON.stringify(form[k])); });
  if (bench) parts.push('"calibration":' + JSON.stringify(bench.text));
  return '{' + parts.join(',') + '}';
}

function options(items, chosen) {
  return items.map(function (it) {
    return '<option value="' + esc(it.id) + '"' + (it.id === chosen ? ' selected' : '') + '>' + esc(it.label || it.id) + '</option>';
  }).join('');
}

function drawForm() {
  var c = catalog;
  $('plan-model').innerHTML = options(c.models.map(function (m) { return { id: m.id, label: m.name }; }), form.model);
  $('plan-quant').innerHTML = options(c.quants, form.quant);
  $('plan-phase').innerHTML = options(CHOICES.phase.map(function (x) { return { id: x, label: P['phase_' + x] }; }), form.phase);
  $('plan-objective').innerHTML = options(CHOICES.objective.map(function (x) { return { id: x, label: P['objective_' + x] }; }), form.objective);
  NUMBERS.forEach(function (k) { $('plan-' + k).value = form[k]; });
  $('plan-allow_idle_devices').checked = form.allow_idle_devices;
  var gpus = c.gpus.map(function (g) { return { id: g.id, label: g.name }; }).concat([{ id: 'custom', label: P.custom }]);
  $('plan-devices').innerHTML = form.devices.map(function (d, i) {
    var custom = typeof d !== 'string';
    var link = i + 1 < form.devices.length
      ? '<label class="plan-link">' + esc(P.link(i)) + ' <select data-link="' + i + '">' + options(c.links.map(function (l) { return { id: l.id, label: l.name }; }), form.links[i]) + '</select></label>'
      : '';
    var facts = custom ? '<span class="plan-facts">' + FACTS.map(function (k) {
      return '<label>' + esc(P['fact_' + k]) + ' <input type="text" inputmode="decimal" autocomplete="off" spellcheck="false" data-device="' + i +
        '" data-fact="' + k + '" value="' + esc(d[TYPED[k]]) + '"></label>';
    }).join(' ') + '</span>' : '';
    return '<li><label>' + esc(P.device(i)) + ' <select data-device="' + i + '">' + options(gpus, custom ? 'custom' : d) +
      '</select></label> <button type="button" data-remove="' + i + '"' + (form.devices.length < 2 ? ' disabled' : '') + '>' + esc(P.remove) + '</button>' +
      facts + link + '</li>';
  }).join('');
}

// Bytes as a person reads a file's size: GiB, MiB or KiB, 3 to 4 significant figures.
function fileSize(bytes) {
  var units = [['GiB', 1073741824], ['MiB', 1048576], ['KiB', 1024]];
  var u = units.filter(function (x) { return bytes >= x[1]; })[0] || units[2];
  return fmt.four(bytes / u[1]) + ' ' + u[0];
}

// The file's model in place of the catalog's two fields, or the catalog's back.
function drawModel() {
  ['model', 'quant'].forEach(function (k) { $('plan-' + k).closest('.field').hidden = !!gguf; });
  $('plan-gguf-model').hidden = !gguf;
  if (!gguf) return;
  var i = gguf.info, name = i.name || gguf.file;
  $('plan-gguf-facts').textContent = P.ggufFacts(name, i.architecture, i.layers, fileSize(gguf.size)) +
    (i.expert_count > 0 ? P.ggufExperts(i.expert_count, i.expert_used_count) : '') + P.ggufFrom(gguf.file);
  var model = catalog.models.find(function (m) { return m.id === form.model; });
  $('plan-gguf-link').textContent = P.ggufLink(model ? model.name : form.model, form.quant);
}

// The file input's error (a GGUF file's, worded with its byte), or none.
function fileError(e) {
  var input = $('plan-gguf'), box = $('plan-gguf-error');
  box.hidden = !e;
  box.textContent = e ? fieldErrors.words(e, P.error_gguf, hp.limits) : '';
  if (e) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
  input.setAttribute('aria-describedby', (e ? 'plan-gguf-error ' : '') + 'plan-gguf-hint');
}

// Reads the file chosen or dropped; once read, its model plans. A bad file leaves the model planned
// before it as it was, and says what is wrong under the field.
function readFile(file) {
  if (!file) return;
  var mine = ++reads;
  $('plan-gguf-status').textContent = P.ggufReading(file.name);
  tools.run('modelInfo', [file]).promise.then(function (info) {
    if (mine !== reads) return;
    gguf = { file: file.name, size: file.size, info: info };
    fileError(null);
    $('plan-gguf-status').textContent = P.ggufUsing(info.name || file.name);
    drawModel(); replan();
  }, function (e) {
    if (mine !== reads || (e && e.cancelled)) return;
    $('plan-gguf-status').textContent = '';
    if (!e || e.name !== 'HeteropipeError') throw e;
    fileError(e);
  });
}

// Reads the llama-bench file chosen or dropped as text; the next plan takes its records. Its errors
// (bad JSON at its byte, an ambiguous record) come back from the plan, under its field.
function readBench(file) {
  if (!file) return;
  var mine = ++benchReads;
  file.text().then(function (text) {
    if (mine !== benchReads) return;
    bench = { file: file.name, text: text };
    form.bench = file.name;
    drawBench(null); replan();
  });
}

function removeBench() {
  bench = null;
  form.bench = '';
  ++benchReads;
  $('plan-bench').value = '';
  drawBench(null); replan();
  $('plan-bench').focus();
}

// The bench file's name and, once planned, which devices its records calibrated and which records
// were unused, in words (the report's calibrated and calibration_unused); plan: the latest plan or null.
// refused: the core refused the file, so it is named as unused, and no list of an earlier file stays.
function drawBench(plan, refused) {
  $('plan-bench-used').hidden = !bench && !form.bench;
  if (!bench) {
    // A link or a reload names a file it could not carry: say so, until it is chosen again or removed.
    $('plan-bench-facts').textContent = form.bench ? P.benchAgain(form.bench) : '';
    $('plan-bench-link').textContent = '';
    $('plan-bench-list').innerHTML = '';
    return;
  }
  $('plan-bench-facts').textContent = refused ? P.benchFailed(bench.file) : P.benchFile(bench.file);
  $('plan-bench-link').textContent = P.benchLink;
  if (!plan) {
    $('plan-bench-list').innerHTML = '';
    return;
  }
  var items = plan.calibrated.map(function (c) {
    return P.benchCalibrated(c.device, deviceName(c.device), c.record, fmt.four(c.factor));
  }).concat(plan.calibration_unused.map(function (u) { return P.benchUnused(u.record, u.reason); }));
  if (!items.length) items = [P.benchNone];
  $('plan-bench-list').innerHTML = items.map(function (t) { return '<li>' + esc(t) + '</li>'; }).join('');
}

function deviceName(i) {
  var d = form.devices[i];
  return typeof d === 'string' ? (catalog.gpus.find(function (g) { return g.id === d; }) || { name: d }).name : P.customName(i);
}

// A file dropped on the zone goes to read, as one chosen would.
function takeDrops(id, read) {
  var zone = $(id);
  zone.addEventListener('dragover', function (ev) { ev.preventDefault(); });  // else the browser opens the file itself
  zone.addEventListener('drop', function (ev) { ev.preventDefault(); read(ev.dataTransfer.files[0]); });
}

function useCatalog() {
  gguf = null;
  ++reads;
  $('plan-gguf').value = '';
  fileError(null);
  $('plan-gguf-status').textContent = '';
  drawModel(); replan();
  $('plan-model').focus();
}

function customFrom(id) {
  var gpu = catalog.gpus.find(function (g) { return g.id === id; }) || catalog.gpus[0], custom = {};
  FACTS.forEach(function (k) { custom[TYPED[k]] = String(gpu[k] / SCALE[k]); });
  return custom;
}

function readForm() {
  ['model', 'quant', 'phase', 'objective'].forEach(function (k) { form[k] = $('plan-' + k).value; });
  NUMBERS.forEach(function (k) { form[k] = $('plan-' + k).value; });
  form.allow_idle_devices = $('plan-allow_idle_devices').checked;
  document.querySelectorAll('#plan-devices select[data-device]').forEach(function (s) {
    var i = +s.getAttribute('data-device');
    if (s.value !== 'custom') form.devices[i] = s.value;
    else if (typeof form.devices[i] === 'string') form.devices[i] = customFrom(form.devices[i]);
  });
  document.querySelectorAll('#plan-devices input[data-fact]').forEach(function (x) {
    var d = form.devices[+x.getAttribute('data-device')];
    if (typeof d !== 'string') d[TYPED[x.getAttribute('data-fact')]] = x.value;
  });
  document.querySelectorAll('#plan-devices select[data-link]').forEach(function (s) { form.links[+s.getAttribute('data-link')] = s.value; });
}

function replan() {
  var mine = ++plans;
  var names = form.devices.map(function (d, i) { return deviceName(i); });
  onChange(JSON.stringify(form));
  tools.run('plan', [input()]).promise.then(function (result) {
    if (mine !== plans) return;
    plannerView.show(result, names);
    drawBench(result);
  }, function (e) {
    if (mine !== plans || (e && e.cancelled)) return;
    if (!e || e.name !== 'HeteropipeError') throw e;
    // With a number unread, an answer about the whole input (a memory shortfall and what would fit)
    // is about the number's default, not one typed, so it is not shown.
    var unread = e.errors.some(function (x) { return NUMBERS.indexOf(x.field) >= 0; });
    plannerView.showErrors(e.errors.filter(function (x) { return !(unread && x.fits_quant !== undefined); }), hp.limits);
    if (bench && e.errors.some(plannerView.isBenchError)) drawBench(null, true);
  });
}

function bind() {
  $('plan-form').addEventListener('input', function () { readForm(); replan(); });
  // A device or link chosen redraws the list; a custom device's fact typed replans in place.
  $('plan-devices').addEventListener('change', function (ev) {
    if (ev.target.tagName !== 'SELECT') return;
    readForm(); drawForm(); replan();
  });
  $('plan-devices').addEventListener('input', function (ev) {
    if (!ev.target.hasAttribute('data-fact')) return;
    readForm(); replan();
  });
  $('plan-devices').addEventListener('click', function (ev) {
    var b = ev.target.closest('button[data-remove]');
    if (!b) return;
    var i = +b.getAttribute('data-remove');
    form.devices.splice(i, 1);
    form.links.splice(Math.min(i, form.links.length - 1), 1);
    drawForm(); replan();
  });
  $('plan-add').addEventListener('click', function () {
    var last = form.devices[form.devices.length - 1];
    form.devices.push(typeof last === 'string' ? last : Object.assign({}, last));
    form.links.push(form.links.length ? form.links[form.links.length - 1] : catalog.links[0].id);
    drawForm(); replan();
  });
  $('plan-use').addEventListener('click', function () { plannerView.usePipeline(); });
  $('plan-gguf').addEventListener('change', function (ev) { readFile(ev.target.files[0]); });
  $('plan-gguf-catalog').addEventListener('click', useCatalog);
  $('plan-bench').addEventListener('change', function (ev) { readBench(ev.target.files[0]); });
  $('plan-bench-remove').addEventListener('click', removeBench);
  takeDrops('plan-bench-drop', readBench);
  takeDrops('plan-gguf-drop', readFile);
  $('plan-result').addEventListener('click', function (ev) {
    var b = ev.target.closest('button[data-copy]');
    if (!b) return;
    sharing.copyText(b.getAttribute('data-copy'), function (ok) { $('plan-copied').textContent = ok ? P.copied : P.copyFailed; });
  });
}

// Builds the opened section in `body` once the worker has sent the catalog; hp is the page's module
// (its limits word the errors); `changed` gets the form's text.
function start(module, body, savedText, changed) {
  tools.run('catalog').promise.then(function (c) { build(module, c, body, savedText, changed); });
}

function build(module, c, body, savedText, changed) {
  hp = module;
  catalog = c;
  form = fromText(savedText);
  onChange = changed;
  var field = function (k, kind) {
    return '<div class="field"><label for="plan-' + k + '">' + esc(P['label_' + k]) + '</label>' +
      (kind === 'select' ? '<select id="plan-' + k + '"></select>'
        : '<input id="plan-' + k + '" type="text" inputmode="numeric" autocomplete="off" spellcheck="false">') + '</div>';
  };
  // The file's field: a chooser that also takes a dropped file, its error, and once read, the
  // model's facts with a way back to the catalog.
  var file = '<div class="field plan-gguf"><div id="plan-gguf-drop" class="plan-gguf-drop"><label for="plan-gguf">' + esc(P.label_gguf) +
    '</label> <input type="file" id="plan-gguf" accept=".gguf" aria-describedby="plan-gguf-hint"> <span id="plan-gguf-status" role="status"></span>' +
    '<p class="hint" id="plan-gguf-hint">' + esc(P.ggufHint) + '</p><p class="error" id="plan-gguf-error" hidden></p></div>' +
    '<div id="plan-gguf-model" class="plan-gguf-model" hidden><p id="plan-gguf-facts" class="plan-gguf-facts"></p>' +
    '<p class="hint" id="plan-gguf-link"></p><button type="button" id="plan-gguf-catalog">' + esc(P.ggufBack) + '</button></div></div>';
  // The llama-bench file's field: a chooser that also takes a dropped file; its errors go under it
  // (planner-view.js), and once planned, what its records calibrated, with a way to remove it.
  var benchField = '<div class="field plan-bench"><div id="plan-bench-drop" class="plan-gguf-drop"><label for="plan-bench">' + esc(P.label_bench) +
    '</label> <input type="file" id="plan-bench" accept=".json,.jsonl,application/json" aria-describedby="plan-bench-hint">' +
    '<p class="hint" id="plan-bench-hint">' + esc(P.benchHint) + '</p></div>' +
    '<div id="plan-bench-used" class="plan-gguf-model" hidden><p id="plan-bench-facts" class="plan-gguf-facts"></p>' +
    '<p class="hint" id="plan-bench-link"></p>' +
    '<div role="status"><ul id="plan-bench-list" class="plan-bench-list"></ul></div><button type="button" id="plan-bench-remove">' + esc(P.benchRemove) + '</button></div></div>';
  body.innerHTML = file + '<div id="plan-form" class="grid">' +
    field('model', 'select') + field('quant', 'select') + field('context') + field('phase', 'select') +
    field('tokens') + field('M') + field('objective', 'select') +
    // A device the optimum gives no layer stays idle only when asked: a runtime would still start it.
    '<div class="field"><label><input id="plan-allow_idle_devices" type="checkbox"> ' + esc(P.label_allow_idle_devices) +
    '</label></div></div>' + benchField +
    '<h3>' + esc(P.devicesHeading) + '</h3><ol id="plan-devices" class="plan-devices"></ol>' +
    '<button type="button" id="plan-add">' + esc(P.add) + '</button>' +
    '<p id="plan-alert" class="sr-only" role="alert"></p><div id="plan-result"></div>' +
    '<button type="button" id="plan-use">' + esc(P.use) + '</button> <span id="plan-use-status" role="status"></span>';
  body.hidden = false;
  drawForm(); bind(); replan(); drawBench(null);
}

export { start };
