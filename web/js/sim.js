// "Variability and buffers": the calculator's pipeline (tau, d, M as typed above) run by the core's
// simulator (hp.simulate; docs/simulation.md) with random service times, bounded buffers, link
// modes and shared links, over many replications in a Web Worker (tools.runAll), drawn by
// sim-view.js. The form's state is kept as typed in the permalink (the `sim` parameter).
import * as fields from './fields.js';
import * as gantt from './gantt.js';
import * as simView from './sim-view.js';
import * as svg from './svg.js';
import * as tools from './tools.js';
var V = window.HP_I18N.sim;
var $ = function (id) { return document.getElementById(id); };
var esc = svg.esc;

var KINDS = ['deterministic', 'exponential', 'lognormal', 'gamma', 'uniform'];
var LINK_MODES = ['async', 'blocking', 'serial'];
var FORMER_LINK_MODES = { delay: 'async', block: 'blocking' };  // a link saved before, still read
var DEFAULTS = { service: 'lognormal', cv: '0.5', perStage: false, stages: [], linkService: 'deterministic', linkCv: '0.5',
  links: 'async', shared: '', buffers: 'inf', reps: '1000', seed: '1' };
var TEXTS = ['cv', 'linkCv', 'shared', 'buffers', 'reps', 'seed'];
var DEBOUNCE_MS = 150;
var GANTT_BATCHES = 24;  // the sampled run's first micro-batches, as the calculator's chart shows

var hp = null, form = null, onChange = function () {}, running = null, timer = 0, runs = 0;

function fromText(text) {
  var f = JSON.parse(JSON.stringify(DEFAULTS));
  if (text) {
    try {
      var saved = JSON.parse(text);
      Object.keys(DEFAULTS).forEach(function (k) { if (saved[k] !== undefined && typeof saved[k] === typeof DEFAULTS[k]) f[k] = saved[k]; });
    } catch (e) { /* a hand-edited link: keep the defaults */ }
  }
  f.links = FORMER_LINK_MODES[f.links] || f.links;
  // A choice no select offers (a hand-edited link's 'weibull') would show the select's first option
  // while the core refused the name under another field: the default stays, as for any bad value.
  var offered = function (k, choices) { if (choices.indexOf(f[k]) < 0) f[k] = DEFAULTS[k]; };
  offered('service', KINDS.concat(['measured']));
  offered('linkService', KINDS);
  offered('links', LINK_MODES);
  f.stages = Array.isArray(f.stages) ? f.stages.filter(function (x) { return x && typeof x.service === 'string'; })
    .map(function (x) { return { service: KINDS.indexOf(x.service) >= 0 ? x.service : DEFAULTS.service, cv: String(x.cv === undefined ? '' : x.cv) }; }) : [];
  return f;
}

// A distribution as the core names it; the parameter is passed as typed, and the core reads it.
function named(kind, param) {
  if (kind === 'lognormal' || kind === 'gamma') return kind + ':cv=' + param.trim();
  if (kind === 'uniform') return 'uniform:spread=' + param.trim();
  return kind;
}


// The preset's distribution of each host (docs/simulation.md, "The measured preset"): its
// four measured columns as quantiles at the probabilities they name, dur_min at 0, dur_p5 at
// 0.05, dur_p50 at 0.5 and dur_p95 at 0.95; the core interpolates between them.
var MEASURED_PROBABILITIES = [0, 0.05, 0.5, 0.95];
function measured() {
  var p = fields.presets['legalone-measured'], min = hp.parseList(p.tau, 'tau');
  return p.quantiles.map(function (q, s) { return [min[s]].concat(q); });
}

// The calculator's pipeline, read by the core from the fields above; null while they are bad.
function pipeline() {
  var read = hp.readRequest({ tau: $('tau').value, d: $('d').value, M: $('M').value });
  return read.errors.length ? null : read.request;
}

function request(p, detail) {
  var r = { tau: p.tau, d: p.d, M: p.M, links: form.links, reps: form.reps, seed: form.seed };
  // reps and seed go as typed: the core reads them as the CLI reads --reps and --seed (a JS number
  // would turn 1e400 into Infinity before the core could name it).
  if (form.service === 'measured') { r.service_samples = measured(); r.service_probabilities = MEASURED_PROBABILITIES; }
  else if (form.perStage) r.service = form.stages.map(function (x) { return named(x.service, x.cv); });
  else r.service = named(form.service, form.cv);
  r.link_service = named(form.linkService, form.linkCv);
  if (form.shared.trim() !== '') r.shared = form.shared;
  if (form.buffers.trim() !== '') r.buffers = form.buffers;
  if (detail) { r.M = Math.min(p.M, GANTT_BATCHES); r.reps = 1; r.timeline = true; }
  return r;
}

function options(items, chosen, label) {
  return items.map(function (k) { return '<option value="' + k + '"' + (k === chosen ? ' selected' : '') + '>' + esc(label(k)) + '</option>'; }).join('');
}
var kindLabel = function (k) { return V['kind_' + k]; };

// One row per stage of the calculator's pipeline, each starting from the choice for all.
function drawStages(S) {
  while (form.stages.length < S) form.stages.push({ service: form.service === 'measured' ? 'deterministic' : form.service, cv: form.cv });
  form.stages.length = S;
  $('sim-stages').hidden = !form.perStage || form.service === 'measured';
  $('sim-stages').innerHTML = form.stages.map(function (x, s) {
    return '<li><label>' + esc(V.stage(s)) + ' <select data-stage="' + s + '">' + options(KINDS, x.service, kindLabel) + '</select></label> ' +
      '<label>' + esc(V.param) + ' <input type="text" inputmode="decimal" autocomplete="off" spellcheck="false" data-stage-cv="' + s +
      '" value="' + esc(x.cv) + '"></label></li>';
  }).join('');
}

function field(k, label, control) {
  return '<div class="field"><label for="sim-' + k + '">' + esc(label) + '</label>' + control + '</div>';
}
function textInput(k) { return '<input id="sim-' + k + '" type="text" autocomplete="off" spellcheck="false" aria-describedby="sim-' + k + '-hint"><p class="hint" id="sim-' + k + '-hint">' + esc(V['hint_' + k]) + '</p>'; }

function drawForm() {
  $('sim-form').innerHTML =
    field('service', V.label_service, '<select id="sim-service">' + options(KINDS.concat(['measured']), form.service, kindLabel) + '</select>') +
    field('cv', V.label_cv, textInput('cv')) +
    field('linkService', V.label_linkService, '<select id="sim-linkService">' + options(KINDS, form.linkService, kindLabel) + '</select>') +
    field('linkCv', V.label_linkCv, textInput('linkCv')) +
    field('links', V.label_links, '<select id="sim-links">' + options(LINK_MODES, form.links, function (k) { return V['links_' + k]; }) + '</select>') +
    field('shared', V.label_shared, textInput('shared')) +
    field('buffers', V.label_buffers, textInput('buffers')) +
    field('reps', V.label_reps, textInput('reps')) +
    field('seed', V.label_seed, textInput('seed'));
  TEXTS.forEach(function (k) { $('sim-' + k).value = form[k]; });
  $('sim-perStage').checked = form.perStage;
}

function readForm() {
  ['service', 'linkService', 'links'].forEach(function (k) { form[k] = $('sim-' + k).value; });
  TEXTS.forEach(function (k) { form[k] = $('sim-' + k).value; });
  form.perStage = $('sim-perStage').checked;
  document.querySelectorAll('#sim-stages select[data-stage]').forEach(function (x) { form.stages[+x.getAttribute('data-stage')].service = x.value; });
  document.querySelectorAll('#sim-stages input[data-stage-cv]').forEach(function (x) { form.stages[+x.getAttribute('data-stage-cv')].cv = x.value; });
}

// Cancels the run in flight, if any; the next one starts after the typing pauses.
function cancel() {
  if (running) running.cancel();
  running = null;
  simView.progress(null);
}

function later() { clearTimeout(timer); timer = setTimeout(rerun, DEBOUNCE_MS); }

function rerun() {
  cancel();
  onChange(JSON.stringify(Object.assign({}, form, { stages: form.perStage ? form.stages : [] })));
  var p = pipeline();
  if (!p) { simView.pipelineBad(); return; }
  if (form.perStage && form.stages.length !== p.tau.length) drawStages(p.tau.length);
  var id = ++runs, calls = [['simulate', [request(p, false)]]];
  // With the Gantt chart, in the same job: the sampled run's first micro-batches (the draws of a
  // micro-batch do not depend on those after it, so these are replication 0's own) and the
  // pipeline's analysis (its bottlenecks).
  if (p.tau.length <= gantt.MAX_STAGES) calls.push(['simulate', [request(p, true)]], ['analyze', [{ tau: p.tau, d: p.d, M: p.M }]]);
  simView.progress(0);
  running = tools.runAll(calls, { onProgress: function (f) { if (id === runs) simView.progress(f); } });
  running.promise.then(function (results) {
    if (id !== runs) return;
    running = null;
    simView.progress(null);
    simView.show(results[0], results[1] || null, results[2] || null, form.links);
  }, function (e) {
    if (id !== runs || (e && e.cancelled)) return;
    running = null;
    simView.progress(null);
    if (!e || e.code === undefined) throw e;
    simView.errors(e.errors || [e], hp.limits);
  });
}

function bind() {
  $('sim-controls').addEventListener('input', function () { readForm(); later(); });
  $('sim-controls').addEventListener('change', function (ev) {
    if (ev.target.id === 'sim-service' || ev.target.id === 'sim-perStage') {
      readForm(); var p = pipeline(); if (p) drawStages(p.tau.length); $('sim-stages').hidden = !form.perStage || form.service === 'measured';
    }
  });
  $('sim-cancel').addEventListener('click', function () { runs++; cancel(); simView.cancelled(); });
  $('sim-preset').addEventListener('click', function () {
    document.querySelector('#presets button[data-preset="legalone-measured"]').click();
    form.service = 'measured'; form.perStage = false;
    drawForm(); later();
  });
  // Every update of the calculator (its fields, a preset, a link) runs the section again.
  new MutationObserver(later).observe(document.documentElement, { attributes: true, attributeFilter: ['data-ready'] });
}

// Builds the opened section in `body` for the page's module hp (which reads the pipeline; the
// simulations run in the worker); `changed` gets the form's text.
function start(module, body, savedText, changed) {
  hp = module;
  form = fromText(savedText);
  onChange = changed;
  body.innerHTML = '<p class="hint">' + esc(V.pipelineNote) + '</p>' +
    '<p><button type="button" id="sim-preset">' + esc(V.preset) + '</button></p>' +
    '<div id="sim-controls"><div id="sim-form" class="grid"></div>' +
    '<p><label><input type="checkbox" id="sim-perStage"> ' + esc(V.perStage) + '</label></p>' +
    '<ol id="sim-stages" class="sim-stage-list" hidden></ol></div>' +
    '<p><progress id="sim-progress" max="1" value="0" hidden aria-label="' + esc(V.progress) + '"></progress> ' +
    '<button type="button" id="sim-cancel" hidden>' + esc(V.cancel) + '</button> <span id="sim-note" role="status"></span></p>' +
    '<p id="sim-alert" class="sr-only" role="alert"></p><div id="sim-result"></div>';
  body.hidden = false;
  drawForm();
  var p = pipeline();
  drawStages(p ? p.tau.length : form.stages.length);
  bind(); rerun();
}

export { start };
