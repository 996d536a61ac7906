// Wires the page: the page text, then on each change the fields are read through the module and
// the results, pictures and shared link follow (fields.js, results.js, pictures.js, sharing.js).
import * as afterPaint from './after-paint.js';
import * as fields from './fields.js';
import * as fmt from './format.js';
import * as pictures from './pictures.js';
import * as results from './results.js';
import * as sections from './sections.js';
import * as sharing from './sharing.js';
import * as svg from './svg.js';
import * as tools from './tools.js';
import * as undoFill from './undo-fill.js';
import { FIELDS, fromHash, sectionOnly } from './state.js';
var L = window.HP_I18N;
var T = L.text;
// The string tables word a number (an error's value or limit, a count) as the page does.
L.fmt = fmt;
var $ = function (id) { return document.getElementById(id); };
var esc = svg.esc;
var SETTLE_MS = 900;  // a pause this long ends "still typing"

var hp = null, state = null, shown = null;  // shown: the analysis on the page, null while the input is bad
var typing = null;       // the field being typed in, while a count mismatch may be held back
var settleTimer = 0, announceTimer = 0, announced = '';

function applyText() {
  document.title = T.title;
  document.querySelectorAll('[data-i18n]').forEach(function (el) { el.textContent = T[el.getAttribute('data-i18n')]; });
  $('formulas').innerHTML = T.footnote.map(function (p) { return '<p>' + esc(p) + '</p>'; }).join('');
  $('regime-toggle').setAttribute('aria-label', T.regimeLabel);
  $('gantt-zoom').setAttribute('aria-label', T.zoomLabel);
  $('jump').setAttribute('aria-label', T.navLabel);
}

// A section link or a permalink's section=: the section opens and the page moves to it; the rest
// of the state stays. "calculator" is the inputs, and no section in the hash.
function go(section) {
  afterPaint.flush();  // the pictures above the section take their height first
  state.section = section === 'calculator' ? '' : section;
  sharing.sync(state);
  if (section === 'calculator') {
    $('inputs').scrollIntoView({ block: 'start' });
    $('tau').focus({ preventScroll: true });
  } else sections.reveal(section);
}

// While the input is bad, every export is off, and says why.
function exportsEnabled(yes) {
  document.querySelectorAll('button[data-export]').forEach(function (b) { b.disabled = !yes; });
  document.querySelectorAll('.export-reason').forEach(function (s) { s.textContent = yes ? '' : T.exportDisabled; });
}

function update() {
  if (!hp) return;  // typed before the module was ready: start() updates
  fields.read(state);
  fmt.setUnit(state.unit);
  fields.markPreset(state);
  var v = fields.validate(hp, state);
  var held = typing && (typing === 'tau' || typing === 'd') ? fields.countMismatch(v.errors) : null;
  var error = fields.showErrors(hp, v.errors, held);
  var rest = null;  // the pictures out of view, drawn after the next paint
  if (Object.keys(v.errors).length === 0) {
    shown = hp.analyze(v.input);
    var sentence = results.show(shown);
    rest = pictures.draw(hp, shown, v.input, state);
    announceLater(sentence);
  } else {
    results.stale(shown !== null || $('summary').innerHTML !== '');
    pictures.stale();
    shown = null;
    // What is said once typing settles is the error, never the last good input's numbers; an error
    // held back while typing says nothing yet.
    if (error) announceLater(error);
    else clearTimeout(announceTimer);
  }
  exportsEnabled(shown !== null);
  // The mark times the first result in view.
  if (++update.count === 1 && performance.mark) performance.mark('hp-first-result');
  afterPaint.later(function () {
    if (rest) rest();
    sharing.sync(state);
    // Tests and the benchmark wait for this count: every picture and the link are up to date.
    document.documentElement.setAttribute('data-ready', String(update.count));
    if (performance.mark && !performance.getEntriesByName('hp-first-complete').length) performance.mark('hp-first-complete');
  });
}
update.count = 0;

// Only the summary (or, while the input is bad, its first error) is announced, and only once the
// typing has settled: one message, not one per key.
function announceLater(sentence) {
  clearTimeout(announceTimer);
  if (update.count === 0) { announced = sentence; return; }  // the first result is the page itself
  announceTimer = setTimeout(function () {
    if (sentence !== announced) $('announce').textContent = announced = sentence;
  }, SETTLE_MS);
}

function typed(ev) {
  undoFill.withdraw();
  typing = ev.target.id;
  update();
  clearTimeout(settleTimer);
  settleTimer = setTimeout(settled, SETTLE_MS);
}

// The field lost focus or the typing paused: a held-back error now shows.
function settled() {
  clearTimeout(settleTimer);
  if (typing === null) return;
  typing = null;
  update();
}

function bind() {
  FIELDS.forEach(function (k) {
    $(k).addEventListener('input', typed);
    $(k).addEventListener('blur', settled);
  });
  $('unit').addEventListener('change', update);
  $('presets').addEventListener('click', function (ev) {
    var b = ev.target.closest('button[data-preset]');
    if (!b) return;
    var before = undoFill.snapshot();
    fields.applyPreset(b.getAttribute('data-preset'));
    typing = null;
    update();
    undoFill.offer(T.presetLoaded(b.textContent), before);
  });
  $('regime-toggle').addEventListener('click', function (ev) {
    var b = ev.target.closest('button[data-regime]');
    if (!b) return;
    state.regime = b.getAttribute('data-regime');
    update();
  });
  $('copy-link').addEventListener('click', function () { afterPaint.flush(); sharing.copyLink(); });
  // A click that follows a keystroke within a frame still carries what was typed.
  $('lang-switch').addEventListener('click', afterPaint.flush);
  // The hash holds the inputs, so the skip link moves focus itself instead of naming a fragment.
  document.querySelector('.skip').addEventListener('click', function (ev) {
    ev.preventDefault();
    $('results').focus();
    $('results').scrollIntoView();
  });
  document.querySelectorAll('button[data-export]').forEach(function (b) {
    // The exporters load on the first click (tools.part): no first load pays for them.
    b.addEventListener('click', function () {
      afterPaint.flush();
      var page = { analysis: shown, regime: state.regime, version: hp.version, unit: fmt.unit() };
      tools.part('exports').then(function (exports) { exports.download(b.getAttribute('data-export'), page); });
    });
  });
  $('jump').addEventListener('click', function (ev) {
    var a = ev.target.closest('a[data-section]');
    if (!a) return;
    ev.preventDefault();  // the link's own hash would replace the state's
    go(a.getAttribute('data-section'));
  });
  window.addEventListener('hashchange', function () {
    var only = sectionOnly(location.hash);
    if (only) { go(only); return; }
    var next = sharing.changed(state, location.hash);
    if (!next) return;
    var moved = next.section && next.section !== state.section;
    state = next; fields.write(state); update();
    if (moved) go(state.section);
  });
  var resizeTimer = 0;
  window.addEventListener('resize', function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(pictures.resize, 100);
  });
  var dark = window.matchMedia('(prefers-color-scheme: dark)');
  if (dark.addEventListener) dark.addEventListener('change', pictures.rebuild);
  window.addEventListener('beforeprint', function () { afterPaint.flush(); pictures.fit(); });
  pictures.bind();
}

// Everything that needs no module runs while the browser compiles the wasm.
function prepare() {
  state = fromHash(location.hash);
  sharing.prepare(state);
  applyText();
  fields.build();
  pictures.create();
  fields.write(state);
  bind();
  if (!state.embed) {
    sections.create('planner', 'plan', 'plan', L.plan, state.plan, function (plan) { state.plan = plan; sharing.sync(state); });
    sections.createDrop('trace', 'trace', 'measured-run', L.trace, state.trace, function (trace) { state.trace = trace; sharing.sync(state); });
    sections.create('sim', 'sim', 'simulate', L.sim, state.sim, function (sim) { state.sim = sim; sharing.sync(state); });
  }
}

function start(module) {
  hp = module;
  $('version').textContent = T.version(hp.version);
  fields.fillHints(hp.limits);
  update();
  // After the first result: go draws the pictures above the section first, so they have their height.
  if (state.section && !state.embed) go(state.section);
}

function fail(err) {
  document.body.classList.add('failed');
  var p = document.createElement('p');
  p.className = 'load-failed'; p.setAttribute('role', 'alert'); p.textContent = T.loadFailed;
  document.querySelector('main').prepend(p);
  if (window.console) console.error(err);
}

try {
  var loading = heteropipe();
  prepare();
  loading.then(start, fail);
} catch (e) { fail(e); }
