// Wires the page: the page text, then on each change the fields are read through the module and
// the results, pictures and shared link follow (fields.js, results.js, pictures.js, sharing.js).
(function () {
  'use strict';
  var HP = window.HP;
  var L = window.HP_I18N;
  var T = L.text;
  var $ = function (id) { return document.getElementById(id); };
  var esc = HP.svg.esc;
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
  }

  // While the input is bad, every export is off, and says why.
  function exportsEnabled(yes) {
    document.querySelectorAll('button[data-export]').forEach(function (b) { b.disabled = !yes; });
    document.querySelectorAll('.export-reason').forEach(function (s) { s.textContent = yes ? '' : T.exportDisabled; });
  }

  function update() {
    if (!hp) return;  // typed before the module was ready: start() updates
    HP.fields.read(state);
    HP.fmt.setUnit(state.unit);
    HP.fields.markPreset(state);
    var v = HP.fields.validate(hp, state);
    var held = typing && (typing === 'tau' || typing === 'd') ? HP.fields.countMismatch(v.errors) : null;
    HP.fields.showErrors(hp, v.errors, held);
    if (Object.keys(v.errors).length === 0) {
      shown = hp.analyze(v.input);
      var sentence = HP.results.show(shown);
      HP.pictures.draw(hp, shown, v.input, state);
      announceLater(sentence);
    } else {
      HP.results.stale(shown !== null || $('summary').innerHTML !== '');
      HP.pictures.stale();
      shown = null;
    }
    exportsEnabled(shown !== null);
    HP.sharing.sync(state);
    // Tests and the benchmark wait for this count; the mark times the first complete result.
    document.documentElement.setAttribute('data-ready', String(++update.count));
    if (update.count === 1 && performance.mark) performance.mark('hp-first-result');
  }
  update.count = 0;

  // Only the summary is announced, and only once the typing has settled: one message, not one per key.
  function announceLater(sentence) {
    clearTimeout(announceTimer);
    if (update.count === 0) { announced = sentence; return; }  // the first result is the page itself
    announceTimer = setTimeout(function () {
      if (sentence !== announced) $('announce').textContent = announced = sentence;
    }, SETTLE_MS);
  }

  function typed(ev) {
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
    HP.state.FIELDS.forEach(function (k) {
      $(k).addEventListener('input', typed);
      $(k).addEventListener('blur', settled);
    });
    $('unit').addEventListener('change', update);
    $('presets').addEventListener('click', function (ev) {
      var b = ev.target.closest('button[data-preset]');
      if (!b) return;
      HP.fields.applyPreset(b.getAttribute('data-preset'));
      typing = null;
      update();
    });
    $('regime-toggle').addEventListener('click', function (ev) {
      var b = ev.target.closest('button[data-regime]');
      if (!b) return;
      state.regime = b.getAttribute('data-regime');
      update();
    });
    $('copy-link').addEventListener('click', HP.sharing.copyLink);
    // The hash holds the inputs, so the skip link moves focus itself instead of naming a fragment.
    document.querySelector('.skip').addEventListener('click', function (ev) {
      ev.preventDefault();
      $('results').focus();
      $('results').scrollIntoView();
    });
    document.querySelectorAll('button[data-export]').forEach(function (b) {
      // The exporters load on the first click (HP.tools.file): no first load pays for them.
      b.addEventListener('click', function () {
        var page = { analysis: shown, regime: state.regime, version: hp.version, unit: HP.fmt.unit() };
        HP.tools.file('js/exports.js').then(function () { HP.exports.download(b.getAttribute('data-export'), page); });
      });
    });
    window.addEventListener('hashchange', function () {
      var next = HP.sharing.changed(state, location.hash);
      if (!next) return;
      state = next; HP.fields.write(state); update();
    });
    var resizeTimer = 0;
    window.addEventListener('resize', function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(HP.pictures.resize, 100);
    });
    var dark = window.matchMedia('(prefers-color-scheme: dark)');
    if (dark.addEventListener) dark.addEventListener('change', HP.pictures.rebuild);
    window.addEventListener('beforeprint', HP.pictures.fit);
    HP.pictures.bind();
  }

  // Everything that needs no module runs while the browser compiles the wasm.
  function prepare() {
    state = HP.state.fromHash(location.hash);
    HP.sharing.prepare(state);
    applyText();
    HP.fields.build();
    HP.pictures.create();
    HP.fields.write(state);
    bind();
    if (!state.embed) {
      HP.sections.create('planner', 'plan', L.plan, state.plan, function (plan) { state.plan = plan; HP.sharing.sync(state); });
      HP.sections.createDrop('trace', 'trace', L.trace);
      HP.sections.create('sim', 'sim', L.sim, state.sim, function (sim) { state.sim = sim; HP.sharing.sync(state); });
    }
  }

  function start(module) {
    hp = module;
    $('version').textContent = T.version(hp.version);
    HP.fields.fillHints(hp.limits);
    update();
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
})();
