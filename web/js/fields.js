// The input fields and presets: builds them, reads the typed text through the module, and shows
// each field's error next to it. The module words errors in English; a language table that words
// them itself (zh.js) supplies L.error.
(function () {
  'use strict';
  var HP = window.HP = window.HP || {};
  var L = window.HP_I18N;
  var T = L.text;
  var $ = function (id) { return document.getElementById(id); };
  var esc = HP.svg.esc;

  // Presets: the reference's three, the phase transition, and two measured pipelines
  // (per-host dur_min of the measured data set; see docs/data.md).
  var PRESETS = {
    'illustrative': { tau: '0.5, 1, 1, 5', d: '' },
    'legalone-paper': { tau: '1.13, 2.90, 2.62', d: '' },
    'comm': { tau: '0.5, 1, 1, 5', d: '0.2, 0.1, 0.3' },
    'phase': { tau: '0.5, 1, 1, 5', d: '4.6, 0.1, 0.1' },
    'legalone-measured': { tau: '1.13, 2.901, 2.621', d: '', data: true },
    'qwen-measured': { tau: '0.208, 0.285, 0.031, 30.111, 0.118', d: '', data: true }
  };
  var INPUTMODE = { tau: 'text', d: 'text', M: 'numeric', rho: 'decimal', T_real: 'decimal' };

  function build() {
    $('fields').innerHTML = HP.state.FIELDS.map(function (k) {
      return '<div class="field" id="' + k + '-field"><label for="' + k + '">' + esc(T['label_' + k]) + '</label>' +
        '<input id="' + k + '" name="' + k + '" type="text" inputmode="' + INPUTMODE[k] + '" autocomplete="off" spellcheck="false" aria-describedby="' + k + '-hint">' +
        '<p class="hint" id="' + k + '-hint">' + (typeof T['hint_' + k] === 'string' ? esc(T['hint_' + k]) : '') + '</p>' +
        '<p class="error" id="' + k + '-error" hidden></p></div>';
    }).join('');
    $('presets').innerHTML = L.presets.map(function (p) {
      return '<button type="button" data-preset="' + p.id + '"' + (PRESETS[p.id].data ? ' class="data"' : '') + '>' + esc(p.label) + '</button>';
    }).join('');
  }

  // The typed text of every field, into the page state, and back.
  function read(state) { HP.state.FIELDS.forEach(function (k) { state[k] = $(k).value; }); }
  function write(state) { HP.state.FIELDS.forEach(function (k) { $(k).value = state[k]; }); }

  // A preset replaces the pipeline and clears the measured run, which belonged to another pipeline.
  function applyPreset(id) {
    var p = PRESETS[id];
    $('tau').value = p.tau; $('d').value = p.d; $('T_real').value = '';
  }

  // The core reads the typed fields (hp.readRequest, as the CLI does): every bad field at once.
  // On this page a blank rho means the default and a blank T_real means none.
  function validate(hp, text) {
    var typed = { tau: text.tau, d: text.d, M: text.M }, errors = {};
    if (text.rho.trim() !== '') typed.rho = text.rho;
    if (text.T_real.trim() !== '') typed.T_real = text.T_real;
    var read = hp.readRequest(typed);
    read.errors.forEach(function (e) { errors[e.field] = e; });
    return { errors: errors, input: read.request, links: Math.max(0, read.request.tau.length - 1) };
  }

  // The sentence for one error: the module's own (the CLI's words) unless the page's language words it.
  function sentence(hp, e, v) {
    if (!L.error) return e.message;
    return L.error(e, hp.limits);
  }

  function showErrors(hp, v) {
    HP.state.FIELDS.forEach(function (k) {
      var input = $(k), box = $(k + '-error'), e = v.errors[k];
      if (e) {
        box.textContent = sentence(hp, e, v);
        box.hidden = false;
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', k + '-error ' + k + '-hint');
      } else {
        box.textContent = ''; box.hidden = true;
        input.removeAttribute('aria-invalid');
        input.setAttribute('aria-describedby', k + '-hint');
      }
    });
  }

  // Hints that quote a limit are functions of the module's limits, filled in once it is ready.
  function fillHints(limits) {
    HP.state.FIELDS.forEach(function (k) {
      if (typeof T['hint_' + k] === 'function') $(k + '-hint').textContent = T['hint_' + k](limits, HP.fmt.bound);
    });
  }

  HP.fields = { build: build, fillHints: fillHints, read: read, write: write, applyPreset: applyPreset, validate: validate, showErrors: showErrors };
})();
