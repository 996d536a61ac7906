// Wires the page: fields, presets, validation through the module, results, pictures, sharing.
(function () {
  'use strict';
  var HP = window.HP;
  var L = window.HP_I18N;
  var T = L.text;
  var $ = function (id) { return document.getElementById(id); };
  var esc = HP.svg.esc;
  var CURVE_POINTS = 240;

  // Presets: the reference's three, the phase transition, and two measured pipelines
  // (dur_min per host from data/real_vs_formula.csv, CC BY 4.0).
  var PRESETS = {
    'illustrative': { tau: '0.5, 1, 1, 5', d: '' },
    'legalone-paper': { tau: '1.13, 2.90, 2.62', d: '' },
    'comm': { tau: '0.5, 1, 1, 5', d: '0.2, 0.1, 0.3' },
    'phase': { tau: '0.5, 1, 1, 5', d: '4.6, 0.1, 0.1' },
    'legalone-measured': { tau: '1.13, 2.901, 2.621', d: '', data: true },
    'qwen-measured': { tau: '0.208, 0.285, 0.031, 30.111, 0.118', d: '', data: true }
  };
  var INPUTMODE = { tau: 'text', d: 'text', M: 'numeric', rho: 'decimal', T_real: 'decimal' };

  var hp = null, state = null, charts = {}, last = { analysis: null, curve: null };

  function applyText() {
    document.title = T.title;
    document.querySelectorAll('[data-i18n]').forEach(function (el) { el.textContent = T[el.getAttribute('data-i18n')]; });
    $('formulas').innerHTML = T.footnote.map(function (p) { return '<p>' + esc(p) + '</p>'; }).join('');
    $('lang-switch').textContent = L.otherLanguage;
    $('lang-switch').setAttribute('hreflang', L.lang === 'en' ? 'zh-CN' : 'en');
    $('lang-switch').setAttribute('aria-label', T.languageSwitch + ': ' + L.otherLanguageName);
    $('regime-toggle').setAttribute('aria-label', T.regimeLabel);
  }

  function buildFields() {
    $('fields').innerHTML = HP.state.FIELDS.map(function (k) {
      return '<div class="field" id="' + k + '-field"><label for="' + k + '">' + esc(T['label_' + k]) + '</label>' +
        '<input id="' + k + '" name="' + k + '" type="text" inputmode="' + INPUTMODE[k] + '" autocomplete="off" spellcheck="false" aria-describedby="' + k + '-hint">' +
        '<p class="hint" id="' + k + '-hint">' + esc(T['hint_' + k]) + '</p>' +
        '<p class="error" id="' + k + '-error" hidden></p></div>';
    }).join('');
    $('presets').innerHTML = L.presets.map(function (p) {
      return '<button type="button" data-preset="' + p.id + '"' + (PRESETS[p.id].data ? ' class="data"' : '') + '>' + esc(p.label) + '</button>';
    }).join('');
  }

  // The core reads the typed fields (hp.readRequest, as the CLI does): every bad field at once.
  // On this page a blank rho means the default and a blank T_real means none.
  function validate(text) {
    var typed = { tau: text.tau, d: text.d, M: text.M }, errors = {};
    if (text.rho.trim() !== '') typed.rho = text.rho;
    if (text.T_real.trim() !== '') typed.T_real = text.T_real;
    var read = hp.readRequest(typed);
    read.errors.forEach(function (e) { errors[e.field] = e; });
    return { errors: errors, input: read.request, links: Math.max(0, read.request.tau.length - 1) };
  }

  function showErrors(v) {
    HP.state.FIELDS.forEach(function (k) {
      var input = $(k), box = $(k + '-error'), e = v.errors[k];
      if (e) {
        box.textContent = L.error(e, HP.fmt.raw(e.value), { links: v.links, cells: hp.limits.max_timeline_cells });
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

  // ---- results -------------------------------------------------------------
  var GROUPS = [
    ['group_makespan', ['T_free', 'T_async', 'T_block', 'T_gpipe']],
    ['group_bias', ['homogeneity_bias', 'full_bias', 'phase_transition', 'overlap_gap', 'effective_slope', 'gpipe_overestimate', 'overlap_headroom']],
    ['group_throughput', ['asymptotic_throughput_async', 'asymptotic_throughput_blocking', 'crossover_batches']],
    ['group_real', ['T_real', 'overlap_ratio', 'T_real_position']],
    ['group_pipeline', ['S', 'M', 'rho', 'tau_max', 'sigma_max', 'bottleneck_stage', 'blocking_bottleneck_stage']],
    ['group_links', ['tau', 'd', 'sigma', 'link_slack', 'link_margin']]
  ];
  var LIST_SHOWN = 16;

  function display(key, x) {
    if (typeof x === 'boolean') return x ? T.yes : T.no;
    if (typeof x === 'string') return L.position[x] || x;
    if (Array.isArray(x)) {
      if (x.length === 0) return T.none;
      var shown = x.slice(0, LIST_SHOWN).map(HP.fmt.number).join(L.lang === 'en' ? ', ' : '，');
      return x.length > LIST_SHOWN ? shown + ' ' + T.moreItems(x.length) : shown;
    }
    if (key === 'S' || key === 'M') return HP.fmt.integer(x);
    if (key === 'bottleneck_stage' || key === 'blocking_bottleneck_stage') return T.stage(x);
    if (key === 'gpipe_overestimate') return HP.fmt.percent(x);
    return HP.fmt.number(x);
  }

  function rawValue(x) { return Array.isArray(x) ? x.map(String).join(',') : String(x); }

  function renderResults(a) {
    var html = GROUPS.map(function (g) {
      var rows = g[1].filter(function (k) { return a[k] !== undefined; });
      if (rows.length === 0) return '';
      return '<h3>' + esc(T[g[0]]) + '</h3><table class="results-table ' + g[0] + '"><tbody>' + rows.map(function (k) {
        var x = a[k], flag = (k === 'phase_transition' && x) ? ' flag' : '';
        return '<tr><th scope="row">' + esc(L.results[k]) + '</th><td class="val' + flag + (Array.isArray(x) ? ' list' : '') +
          '" data-key="' + k + '" data-value="' + esc(rawValue(x)) + '">' + esc(display(k, x)) + '</td></tr>';
      }).join('') + '</tbody></table>';
    }).join('');
    $('result-groups').innerHTML = html;
  }

  function renderReconcile(a) {
    var box = $('reconcile');
    if (a.T_real === undefined) { box.hidden = true; box.textContent = ''; return; }
    var parts = [L.reconcile[a.T_real_position]];
    if (a.overlap_ratio !== undefined) parts.push(L.reconcile.ratio(HP.fmt.number(a.overlap_ratio)));
    else parts.push(L.reconcile.noHeadroom);
    box.className = 'reconcile ' + a.T_real_position + (a.overlap_ratio === undefined ? ' no-headroom' : '');
    box.innerHTML = parts.map(function (p) { return '<p>' + esc(p) + '</p>'; }).join('');
    box.hidden = false;
  }

  // ---- pictures ------------------------------------------------------------
  function renderCurves(a, input, widths) {
    var batches = hp.curveBatches({ tau: input.tau, d: input.d, M: a.M, points: CURVE_POINTS });
    var c = hp.makespanCurve({ tau: input.tau, d: input.d, batches: batches });
    last.curve = c;
    var lines = [
      { x: a.crossover_batches, label: T.markCrossover + ' = ' + HP.fmt.number(a.crossover_batches), color: getComputedStyle(document.documentElement).getPropertyValue('--c-mark').trim() },
      { x: a.M, label: T.markCurrent + ' = ' + HP.fmt.integer(a.M), color: getComputedStyle(document.documentElement).getPropertyValue('--muted').trim() }
    ];
    var point = a.T_real !== undefined ? { x: a.M, y: a.T_real, label: T.markReal + ' = ' + HP.fmt.number(a.T_real) } : null;
    charts.curve.update([c.M, c.T_free, c.T_async, c.T_block, c.T_gpipe], { lines: lines, point: point }, a.T_real,
      widths.curve);
    if (!state.embed) charts.over.update([c.M, c.gpipe_overestimate], { lines: lines, point: null }, null, widths.over);
  }

  function renderGantt(a, input, width) {
    var box = $('chart-gantt'), note = $('gantt-note');
    document.querySelectorAll('#regime-toggle button').forEach(function (b) {
      b.setAttribute('aria-pressed', String(b.getAttribute('data-regime') === state.regime));
    });
    if (a.S > HP.gantt.MAX_STAGES) { box.innerHTML = ''; note.textContent = T.ganttTooMany(a.S, HP.gantt.MAX_STAGES); return; }
    var shown = Math.min(a.M, HP.gantt.MAX_BATCHES);
    var tl = hp.timeline({ tau: input.tau, d: input.d, M: shown, regime: state.regime });
    note.textContent = shown < a.M ? T.ganttFirst(shown, HP.fmt.integer(a.M)) : T.ganttAll(HP.fmt.integer(a.M));
    box.innerHTML = HP.gantt.render(tl, a, state.regime, width || 640);
  }

  function renderSlack(a, width) {
    var box = $('chart-slack'), note = $('slack-note');
    var links = a.link_slack.length;
    if (links === 0) { box.innerHTML = ''; note.textContent = T.slackNone; return; }
    if (links > HP.slack.MAX_LINKS) { box.innerHTML = ''; note.textContent = T.slackTooMany(links, HP.slack.MAX_LINKS); return; }
    note.textContent = '';
    box.innerHTML = HP.slack.render(a, width || 640);
  }

  function renderPictures(a, input) {
    // Every width is read before anything is drawn: one layout of the page,
    // not one forced by each picture after the previous one changed it.
    var widths = { curve: charts.curve.el.clientWidth, over: charts.over.el.clientWidth,
      gantt: $('chart-gantt').clientWidth, slack: $('chart-slack').clientWidth };
    renderCurves(a, input, widths);
    if (state.embed) return;
    renderGantt(a, input, widths.gantt);
    renderSlack(a, widths.slack);
  }

  // ---- state, hash, sharing ------------------------------------------------
  function readFields() { HP.state.FIELDS.forEach(function (k) { state[k] = $(k).value; }); }
  function writeFields() { HP.state.FIELDS.forEach(function (k) { $(k).value = state[k]; }); }

  function pageUrl(page, extra) {
    var here = location.href.replace(/#.*$/, '');
    return here.replace(/[^/]*$/, page) + HP.state.toHash(state, extra);
  }

  function syncShare() {
    var hash = HP.state.toHash(state, { embed: state.embed });
    if (location.hash !== hash) history.replaceState(null, '', hash);
    $('lang-switch').href = L.otherPage + hash;
    var page = location.pathname.replace(/^.*\//, '') || 'calculator.html';
    $('open-full').href = page + HP.state.toHash(state);
    $('embed-snippet').textContent = '<iframe src="' + page + HP.state.toHash(state, { embed: true }).replace(/&/g, '&amp;') +
      '" title="' + T.heading.replace(/"/g, '&quot;') + '" width="100%" height="620" loading="lazy"></iframe>';
  }

  function update() {
    if (!hp) return;  // typed before the module was ready: start() updates
    readFields();
    var v = validate(state);
    showErrors(v);
    var ok = Object.keys(v.errors).length === 0;
    $('results-invalid').hidden = ok;
    $('result-groups').hidden = !ok;
    $('figures').classList.toggle('stale', !ok);
    if (ok) {
      var a = hp.analyze(v.input);
      last.analysis = a; last.input = v.input;
      renderResults(a);
      renderReconcile(a);
      renderPictures(a, v.input);
    } else {
      last.analysis = null;
      $('reconcile').hidden = true;
    }
    syncShare();
    document.documentElement.setAttribute('data-ready', String(++update.count));
    if (update.count === 1 && performance.mark) performance.mark('hp-first-result');
  }
  update.count = 0;

  function copyLink() {
    var url = location.href, status = $('copy-status');
    function done(ok) { status.textContent = ok ? T.copied : T.copyFailed; }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url).then(function () { done(true); }, function () { done(fallback(url)); });
    } else done(fallback(url));
  }
  function fallback(text) {
    var ta = document.createElement('textarea');
    ta.value = text; ta.setAttribute('readonly', ''); ta.className = 'offscreen';
    document.body.appendChild(ta); ta.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    ta.remove();
    return ok;
  }

  function doExport(kind) {
    var a = last.analysis;
    if (!a) return;
    var base = 'heteropipe-';
    if (kind === 'json') HP.exports.save(base + 'analysis.json', new Blob([HP.exports.json(a)], { type: 'application/json' }));
    else if (kind === 'csv') HP.exports.save(base + 'makespan-curve.csv', new Blob([HP.exports.csv(last.curve)], { type: 'text/csv' }));
    else if (kind === 'png-curve') charts.curve.toPngBlob(T.fig_curve, function (b) { HP.exports.save(base + 'makespan.png', b); });
    else if (kind === 'png-over') charts.over.toPngBlob(T.fig_over, function (b) { HP.exports.save(base + 'gpipe-overestimate.png', b); });
    else if (kind === 'svg-gantt' || kind === 'svg-slack') {
      var el = $(kind === 'svg-gantt' ? 'chart-gantt' : 'chart-slack').querySelector('svg');
      if (el) HP.exports.save(base + (kind === 'svg-gantt' ? 'timeline-' + state.regime : 'link-slack') + '.svg', new Blob([HP.exports.svg(el)], { type: 'image/svg+xml' }));
    }
  }

  function bind() {
    HP.state.FIELDS.forEach(function (k) { $(k).addEventListener('input', update); });
    $('presets').addEventListener('click', function (ev) {
      var b = ev.target.closest('button[data-preset]');
      if (!b) return;
      var p = PRESETS[b.getAttribute('data-preset')];
      $('tau').value = p.tau; $('d').value = p.d; $('T_real').value = '';
      update();
    });
    $('regime-toggle').addEventListener('click', function (ev) {
      var b = ev.target.closest('button[data-regime]');
      if (!b) return;
      state.regime = b.getAttribute('data-regime');
      update();
    });
    $('copy-link').addEventListener('click', copyLink);
    document.querySelectorAll('button[data-export]').forEach(function (b) {
      b.addEventListener('click', function () { doExport(b.getAttribute('data-export')); });
    });
    window.addEventListener('hashchange', function () {
      var next = HP.state.fromHash(location.hash);
      if (HP.state.toHash(next, { embed: next.embed }) === HP.state.toHash(state, { embed: state.embed })) return;
      state = next; writeFields(); update();
    });
    var resizeTimer = 0;
    window.addEventListener('resize', function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(function () { charts.curve.resize(); charts.over.resize(); if (last.analysis) renderPictures(last.analysis, last.input); }, 100);
    });
    var dark = window.matchMedia('(prefers-color-scheme: dark)');
    if (dark.addEventListener) dark.addEventListener('change', function () { charts.curve.rebuild(); charts.over.rebuild(); });
    window.addEventListener('beforeprint', function () { charts.curve.resize(); charts.over.resize(); });
  }

  // Everything that needs no module runs while the browser compiles the wasm.
  function prepare() {
    state = HP.state.fromHash(location.hash);
    document.body.classList.toggle('embed', state.embed);
    $('open-full').hidden = !state.embed;
    applyText();
    buildFields();
    charts.curve = new HP.Chart($('chart-curve'), 'curve');
    charts.over = new HP.Chart($('chart-over'), 'over');
    writeFields();
    bind();
  }

  function start(module) {
    if (performance.mark) performance.mark('hp-module-ready');
    hp = module;
    $('version').textContent = T.version(hp.version);
    update();
    // Tests and the benchmark read the module and the page's exports through this.
    HP.app = { hp: hp, last: last, exportText: function (kind) {
      return kind === 'json' ? HP.exports.json(last.analysis) : kind === 'csv' ? HP.exports.csv(last.curve) : null;
    } };
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
