// The input fields and presets: builds them, reads the typed text through the module, and shows
// each field's error next to it, naming the field in the page's words (field-errors.js): in English
// the module's sentence without its key (detail); a language table that words the errors itself
// (zh.js) supplies L.error.
import * as fieldErrors from './field-errors.js';
import * as fmt from './format.js';
import * as svg from './svg.js';
import { FIELDS, UNITS } from './state.js';
var L = window.HP_I18N;
var T = L.text;
var $ = function (id) { return document.getElementById(id); };
var esc = svg.esc;

// Presets: the reference's three, the phase transition, and two measured pipelines
// (per-host dur_min of the measured data set; see docs/data.md). A preset sets every field, so
// nothing of another pipeline (its M, its measured T_real) stays behind unseen.
var COMMON = { M: '8', rho: '1', T_real: '' };
var PRESETS = {
  'illustrative': { tau: '0.5, 1, 1, 5', d: '', unit: '' },
  'legalone-paper': { tau: '1.13, 2.90, 2.62', d: '', unit: 's' },
  'comm': { tau: '0.5, 1, 1, 5', d: '0.2, 0.1, 0.3', unit: '' },
  'phase': { tau: '0.5, 1, 1, 5', d: '4.6, 0.1, 0.1', unit: '' },
  // dur_min of node-01, node-02, node-03 as tau; their dur_p5, dur_p50, dur_p95 for the simulator.
  'legalone-measured': { tau: '1.13, 2.901, 2.621', d: '', unit: 's', data: true,
    quantiles: [[7.006, 8.569, 10.3396], [2.961, 4.817, 12.666], [2.6381, 4.5855, 12.50665]] },
  'qwen-measured': { tau: '0.208, 0.285, 0.031, 30.111, 0.118', d: '', unit: 's', data: true }
};
var INPUTMODE = { tau: 'text', d: 'text', M: 'numeric', rho: 'decimal', T_real: 'decimal' };

function build() {
  $('fields').innerHTML = FIELDS.map(function (k) {
    return '<div class="field" id="' + k + '-field"><label for="' + k + '">' + esc(T['label_' + k]) + '</label>' +
      '<input id="' + k + '" name="' + k + '" type="text" inputmode="' + INPUTMODE[k] + '" autocomplete="off" spellcheck="false" aria-describedby="' + k + '-hint">' +
      '<p class="hint" id="' + k + '-hint">' + (typeof T['hint_' + k] === 'string' ? esc(T['hint_' + k]) : '') + '</p>' +
      '<p class="error" id="' + k + '-error" hidden></p></div>';
  }).join('') + '<div class="field"><label for="unit">' + esc(T.label_unit) + '</label><select id="unit">' +
    UNITS.map(function (u) { return '<option value="' + u + '">' + esc(fmt.unitName(u)) + '</option>'; }).join('') +
    '</select></div>';
  $('presets').innerHTML = L.presets.map(function (p) {
    return '<button aria-pressed="false" data-preset="' + p.id + '"' + (PRESETS[p.id].data ? ' class="data"' : '') + '>' + esc(p.label) + '</button>';
  }).join('');
}

// The typed text of every field and the unit, into the page state, and back.
function read(state) {
  FIELDS.forEach(function (k) { state[k] = $(k).value; });
  state.unit = $('unit').value;
}
function write(state) {
  FIELDS.forEach(function (k) { $(k).value = state[k]; });
  $('unit').value = state.unit;
}

function applyPreset(id) {
  var p = Object.assign({}, COMMON, PRESETS[id]);
  FIELDS.forEach(function (k) { $(k).value = p[k]; });
  $('unit').value = p.unit;
}

// The preset whose every field the page shows now is pressed; after an edit, none is.
function markPreset(state) {
  document.querySelectorAll('#presets button').forEach(function (b) {
    var p = Object.assign({}, COMMON, PRESETS[b.getAttribute('data-preset')]);
    var same = FIELDS.concat(['unit']).every(function (k) { return state[k] === p[k]; });
    b.setAttribute('aria-pressed', String(same));
  });
}

// The core reads the typed fields (hp.readRequest, as the CLI does): every bad field at once.
// On this page a blank rho means the default and a blank T_real means none.
function validate(hp, text) {
  var typed = { tau: text.tau, d: text.d, M: text.M }, errors = {};
  if (text.rho.trim() !== '') typed.rho = text.rho;
  if (text.T_real.trim() !== '') typed.T_real = text.T_real;
  var read = hp.readRequest(typed);
  read.errors.forEach(function (e) { errors[e.field] = e; });
  return { errors: errors, input: read.request };
}

// A count mismatch between tau and d (wrong_length on d) while the person is still typing in
// either field: held back until the field loses focus or the typing pauses.
function countMismatch(errors) { return errors.d && errors.d.code === 'wrong_length' ? 'd' : null; }

// The sentence for one error, the field named as its label names it, less the label's note in
// brackets: the words the results table uses for the same value (L.results).
function sentence(hp, e) { return fieldErrors.words(e, L.results[e.field], hp.limits); }

// held: the field whose error is held back, or null.
// Returns the first error shown, in the fields' order (null for none), for the announcement.
function showErrors(hp, errors, held) {
  var first = null;
  FIELDS.forEach(function (k) {
    var input = $(k), box = $(k + '-error'), e = k === held ? null : errors[k];
    if (e) {
      box.textContent = sentence(hp, e);
      if (first === null) first = box.textContent;
      box.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', k + '-error ' + k + '-hint');
    } else {
      box.textContent = ''; box.hidden = true;
      input.removeAttribute('aria-invalid');
      input.setAttribute('aria-describedby', k + '-hint');
    }
  });
  return first;
}

// Hints that quote a limit are functions of the module's limits, filled in once it is ready.
function fillHints(limits) {
  FIELDS.forEach(function (k) {
    if (typeof T['hint_' + k] === 'function') $(k + '-hint').textContent = T['hint_' + k](limits, fmt.bound);
  });
}

export { PRESETS as presets, build, fillHints, read, write, applyPreset, markPreset, validate, countMismatch, showErrors };
