// Draws a simulation (hp.simulate's result; docs/simulation.md#monte-carlo): the makespan histogram
// with the closed forms T_async and T_block marked, the statistics, each stage's busy, starved and
// blocked time, and the Gantt chart of the sampled run (gantt.js). Every number is the core's.
import * as fieldErrors from './field-errors.js';
import * as fmt from './format.js';
import * as gantt from './gantt.js';
import * as svg from './svg.js';
var L = window.HP_I18N, V = L.sim;
var esc = svg.esc, n = svg.n;
var $ = function (id) { return document.getElementById(id); };

// The form control that holds each field the core names in an error, and the words its label shows.
var CONTROL = { service: 'sim-cv', link_service: 'sim-linkCv', link_mode: 'sim-links', shared: 'sim-shared',
  buffers: 'sim-buffers', reps: 'sim-reps', seed: 'sim-seed', service_samples: 'sim-service', service_probabilities: 'sim-service' };
var LABEL = { 'sim-cv': 'label_cv', 'sim-linkCv': 'label_linkCv', 'sim-links': 'label_links', 'sim-shared': 'label_shared',
  'sim-buffers': 'label_buffers', 'sim-reps': 'label_reps', 'sim-seed': 'label_seed', 'sim-service': 'label_service' };

// A stage's error goes under that stage's box when each stage has its own.
function control(e) {
  var perStage = e.field === 'service' && e.index !== null && e.index >= 0 &&
    document.querySelector('#sim-stages:not([hidden]) input[data-stage-cv="' + e.index + '"]');
  return perStage || $(CONTROL[e.field] || '');
}
function label(e, c) { return c.hasAttribute('data-stage-cv') ? V.param : V[LABEL[c.id]]; }

var FORM = { id: 'sim', controls: '#sim-controls [aria-invalid]', result: 'sim-result', alert: 'sim-alert', before: 'sim-result',
  control: control, label: label };

function progress(f) {
  $('sim-progress').hidden = $('sim-cancel').hidden = f === null;
  if (f !== null) { $('sim-progress').value = f; $('sim-note').textContent = V.running; }
  else if ($('sim-note').textContent === V.running) $('sim-note').textContent = '';
}

function stale(note) {
  var r = $('sim-result');
  if (r.firstChild) r.classList.add('stale');
  $('sim-note').textContent = note;
}
function pipelineBad() { fieldErrors.clear(FORM); stale(V.pipelineBad); }
function cancelled() { stale(V.cancelled); }

// Every bad field's error under its field, as the calculator does; the last good result stays, dimmed.
function errors(list, limits) {
  $('sim-note').textContent = '';
  fieldErrors.show(FORM, list, limits);
}

var MARK_ROW = 16, LABEL_WIDTH = 50;  // a mark label's row pitch and its most width (11 px text)

// The histogram's bins with the closed forms, the deterministic makespan and the p99 as lines.
function histogram(sim, width) {
  var h = sim.histogram, W = width, H = 220, left = 40, right = 16, top = 12, bottom = 40;
  // Solid, dashed, dotted: told apart without colour.
  var marks = [[sim.T_async, 'T_async', ''], [sim.T_block, 'T_block', '6 3'], [sim.makespan.p99, 'p99', '2 2']];
  var lo = Math.min(h.edges[0], sim.T_async, sim.T_block), hi = Math.max(h.edges[h.edges.length - 1], sim.T_async, sim.T_block);
  if (!(hi > lo)) { lo = lo * 0.95; hi = hi * 1.05 || 1; }
  var x = function (t) { return left + (t - lo) / (hi - lo) * (W - left - right); };
  // The bars rise to just below the marks' labels, which sit in a band of their own above them.
  var band = 10 + MARK_ROW * (marks.length - 1) + 6;
  var most = Math.max.apply(null, h.counts), y = function (c) { return top + band + (H - top - band - bottom) * (1 - c / most); };
  var out = ['<svg class="sim-hist" viewBox="0 0 ' + W + ' ' + H + '" role="img" aria-label="' +
    esc(V.histLabel(fmt.integer(sim.reps), fmt.time(sim.T_async), fmt.time(sim.T_block), fmt.time(sim.makespan.p99))) + '">'];
  h.counts.forEach(function (c, k) {
    var x0 = x(h.edges[k]), x1 = x(h.edges[k + 1]);
    if (c > 0) out.push('<rect class="bin" x="' + n(x0) + '" y="' + n(y(c)) + '" width="' + n(Math.max(x1 - x0 - 0.5, 2)) + '" height="' + n(H - bottom - y(c)) + '"/>');
  });
  var axis = H - bottom;
  out.push('<line class="axis" x1="' + left + '" y1="' + axis + '" x2="' + (W - right) + '" y2="' + axis + '"/>');
  svg.ticksIn(lo, hi, 7).forEach(function (t) {
    out.push('<text class="tick" x="' + n(x(t)) + '" y="' + (axis + 14) + '" text-anchor="middle">' + esc(fmt.short(t)) + '</text>');
  });
  out.push('<text x="' + (W - right) + '" y="' + (axis + 30) + '" text-anchor="end">' + esc(fmt.withUnit(V.axisMakespan)) + '</text>',
    '<text x="' + left + '" y="' + (axis + 30) + '">' + esc(V.axisCount(fmt.integer(most))) + '</text>');
  // Each mark's label on a row of its own, a row apart (more than the text's height), so that labels
  // never overlap however close the marks are (T_async = T_block included); beside its line, on
  // the side with room.
  marks.forEach(function (m, k) {
    var at = x(m[0]), right = at + 4 + LABEL_WIDTH <= W - 2;
    out.push('<line stroke="currentColor" stroke-width="2" stroke-dasharray="' + (m[2] || 'none') + '" x1="' + n(at) + '" y1="' + top + '" x2="' + n(at) + '" y2="' + axis + '"/>',
      '<text class="sim-mark" data-mark="' + m[1] + '" x="' + n(right ? at + 4 : at - 4) + '" y="' + (top + 10 + MARK_ROW * k) + '"' +
      (right ? '' : ' text-anchor="end"') + '>' + esc(m[1]) + '</text>');
  });
  out.push('</svg>');
  return out.join('');
}

// Each statistic with its exact value in data-value, for tests and the curious.
function stats(sim) {
  var ms = sim.makespan, rows = [
    ['mean', ms.mean], ['sd', ms.sd], ['ci95', ms.ci95], ['p50', ms.p50], ['p90', ms.p90], ['p95', ms.p95], ['p99', ms.p99],
    ['min', ms.min], ['max', ms.max], ['deterministic_makespan', sim.deterministic_makespan], ['jensen_gap', sim.jensen_gap], ['jensen_gap_ci95', sim.jensen_gap_ci95],
    ['T_async', sim.T_async], ['T_block', sim.T_block], ['throughput_mean', sim.throughput.mean]];
  return '<dl class="summary sim-stats">' + rows.map(function (r) {
    var v = r[1], shown = typeof v === 'object' ? V.interval(fmt.time(v[0]), fmt.time(v[1])) : r[0] === 'throughput_mean' ? fmt.rate(v) : fmt.time(v);
    return '<div><dt>' + esc(V['stat_' + r[0]]) + '</dt><dd data-key="' + r[0] + '" data-value="' + esc(typeof v === 'object' ? Array.prototype.join.call(v, ',') : String(v)) + '">' + esc(shown) + '</dd></div>';
  }).join('') + '</dl>';
}

function stages(run) {
  return '<table class="sim-table"><caption>' + esc(V.stagesCaption) + '</caption><thead><tr><th>' +
    [V.colStage, fmt.withUnit(V.colBusy), fmt.withUnit(V.colStarved), fmt.withUnit(V.colBlocked)].map(esc).join('</th><th>') + '</th></tr></thead><tbody>' +
    Array.prototype.map.call(run.busy, function (b, s) {
      return '<tr><td>' + esc(V.stage(s)) + '</td><td>' + fmt.number(b) + '</td><td>' + fmt.number(run.starved[s]) + '</td><td>' + fmt.number(run.blocked[s]) + '</td></tr>';
    }).join('') + '</tbody></table>';
}

// A number of percent with its sign, to `decimals` places: "+0.6%", "−1.2%" ("0%" for none).
function signedPercent(x, decimals) {
  if (!isFinite(x)) return '—';
  return new Intl.NumberFormat(L.locale, { signDisplay: 'exceptZero', minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(x) + '%';
}
// The decimal places at which a ± half-width shows its first significant digit (0.12 -> 1, 3 -> 0),
// so that a value beside it shows no digit its interval makes noise.
function placesOf(half) { return isFinite(half) && half > 0 ? Math.max(0, Math.min(6, -Math.floor(Math.log10(half)))) : 0; }

// The answer in one line: the mean and p99 against T_async in percent (the core's), the mean to
// the places its 95% interval allows; then the cost of variability with its interval, which says
// whether it is more than noise.
function headline(sim) {
  var half = sim.mean_vs_T_async_ci95_percent, places = placesOf(half);
  var gap = sim.jensen_gap_ci95, noise = gap[0] <= 0 && gap[1] >= 0 && gap[1] > gap[0];
  return '<p class="sim-headline">' +
    esc(V.headline(signedPercent(sim.mean_vs_T_async_percent, places), signedPercent(half, places).replace(/^\+/, ''),
      signedPercent(sim.p99_vs_T_async_percent, twoFigures(sim.p99_vs_T_async_percent)), fmt.time(sim.T_async))) + '</p>' +
    '<p class="hint sim-gap">' + esc(V.gapLine(fmt.time(sim.jensen_gap), V.interval(fmt.time(gap[0]), fmt.time(gap[1])), noise)) + '</p>';
}
// The places that show two significant figures, as a tail percentile reads (+22%, +0.61%).
function twoFigures(x) { return placesOf(Math.abs(x) / 10); }

// sim: the Monte Carlo; detail: the sampled run's first micro-batches with their timeline.
function show(sim, detail, analysis, links) {
  fieldErrors.shown(FORM);
  $('sim-note').textContent = '';
  var r = $('sim-result');
  // Its rows end with the sampled run's utilization (busy over its makespan, the core's).
  var tl = detail && Object.assign({ makespan: detail.run.makespan, utilization: detail.run.utilization }, detail.run.timeline);
  var width = Math.max(300, Math.min(900, r.clientWidth || 640));
  r.innerHTML = headline(sim) + histogram(sim, Math.min(640, width)) +
    '<p class="hint">' + esc(V.histNote) + '</p>' + stats(sim) + stages(sim.run) +
    '<h3>' + esc(V.ganttHeading) + '</h3>' +
    (tl ? '<p class="hint">' + esc(V.ganttNote(tl.M, fmt.integer(sim.M))) + '</p><div id="sim-gantt-box"></div>' : '<p class="hint">' + esc(V.ganttNone) + '</p>');
  if (tl) {
    $('sim-gantt-box').innerHTML = gantt.render(tl, analysis, links === 'blocking' ? 'blocking' : 'async', width, { id: 'sim-gantt', head: V.ganttTitle, span: tl.makespan, legendBlocked: V.legendBlocked });
  }
}

export { show, errors, progress, pipelineBad, cancelled };
