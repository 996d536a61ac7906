// Wires the page: the page text, then on each change the fields are read through the module and
// the results, pictures and shared link follow (fields.js, results.js, pictures.js, sharing.js).
(function () {
  'use strict';
  var HP = window.HP;
  var L = window.HP_I18N;
  var T = L.text;
  var $ = function (id) { return document.getElementById(id); };
  var esc = HP.svg.esc;

  var hp = null, state = null, shown = null;  // shown: the analysis on the page, null while the input is bad

  function applyText() {
    document.title = T.title;
    document.querySelectorAll('[data-i18n]').forEach(function (el) { el.textContent = T[el.getAttribute('data-i18n')]; });
    $('formulas').innerHTML = T.footnote.map(function (p) { return '<p>' + esc(p) + '</p>'; }).join('');
    $('regime-toggle').setAttribute('aria-label', T.regimeLabel);
  }

  function update() {
    if (!hp) return;  // typed before the module was ready: start() updates
    HP.fields.read(state);
    var v = HP.fields.validate(hp, state);
    HP.fields.showErrors(hp, v);
    if (Object.keys(v.errors).length === 0) {
      shown = hp.analyze(v.input);
      HP.results.show(shown);
      HP.pictures.draw(hp, shown, v.input, state);
    } else {
      shown = null;
      HP.results.hide();
      HP.pictures.stale();
    }
    HP.sharing.sync(state);
    // Tests and the benchmark wait for this count; the mark times the first complete result.
    document.documentElement.setAttribute('data-ready', String(++update.count));
    if (update.count === 1 && performance.mark) performance.mark('hp-first-result');
  }
  update.count = 0;

  function bind() {
    HP.state.FIELDS.forEach(function (k) { $(k).addEventListener('input', update); });
    $('presets').addEventListener('click', function (ev) {
      var b = ev.target.closest('button[data-preset]');
      if (!b) return;
      HP.fields.applyPreset(b.getAttribute('data-preset'));
      update();
    });
    $('regime-toggle').addEventListener('click', function (ev) {
      var b = ev.target.closest('button[data-regime]');
      if (!b) return;
      state.regime = b.getAttribute('data-regime');
      update();
    });
    $('copy-link').addEventListener('click', HP.sharing.copyLink);
    document.querySelectorAll('button[data-export]').forEach(function (b) {
      b.addEventListener('click', function () { HP.exports.download(b.getAttribute('data-export'), shown, state.regime); });
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
    if (!state.embed) HP.planner.create(state.plan, function (plan) { state.plan = plan; HP.sharing.sync(state); });
  }

  function start(module) {
    if (performance.mark) performance.mark('hp-module-ready');
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
