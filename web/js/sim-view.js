// Draws a simulation (hp.simulate's result; docs/simulation.md#monte-carlo): the makespan histogram
// with the closed forms T_async and T_block marked, the statistics, each stage's busy, starved and
// blocked time, and the Gantt chart of the sampled run (gantt.js). Every number is the core's.
import * as fmt from './format.js';
import * as gantt from './gantt.js';
import * as svg from './svg.js';
var L = window.HP_I18N, V = L.sim;
var esc = svg.esc, n = svg.n;
var $ = function (id) { return document.getElementById(id); };

// The form control that holds each field the core names in an error.
var CONTROL = { service: 'sim-cv', link_service: 'sim-linkCv', link_mode: 'sim-links', shared: 'sim-shared',
  buffers: 'sim-buffers', reps: 'sim-reps', seed: 'sim-seed', service_samples: 'sim-service', service_probabilities: 'sim-service' };

function mark(e) {
  document.querySelectorAll('#sim-controls [aria-invalid]').forEach(function (x) { x.removeAttribute('aria-invalid'); });
  if (!e) return;
  var perStage = e.field === 'service' && e.index !== null && e.index >= 0 &&
    document.querySelector('#sim-stages:not([hidden]) input[data-stage-cv="' + e.index + '"]');
  var control = perStage || $(CONTROL[e.field] || '');
  if (control) control.setAttribute('aria-invalid', 'true');
}

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
function pipelineBad() { mark(null); stale(V.pipelineBad); }
function cancelled() { stale(V.cancelled); }

function error(e, limits) {
  mark(e);
  var r = $('sim-result');
  r.classList.remove('stale');
  $('sim-note').textContent = '';
  r.innerHTML = '<p class="error" role="alert" id="sim-error">' + esc(L.error ? L.error(e, limits) : e.message) + '</p>';
}

// The histogram's bins with the closed forms, the deterministic makespan and the p99 as lines.
function histogram(sim, width) {
  var h = sim.histogram, W = width, H = 220, left = 40, right = 16, top = 12, bottom = 40;
  // Solid, dashed, dotted: told apart without colour.
  var marks = [[sim.T_async, 'T_async', ''], [sim.T_block, 'T_block', '6 3'], [sim.makespan.p99, 'p99', '2 2']];
  var lo = Math.min(h.edges[0], sim.T_async, sim.T_block), hi = Math.max(h.edges[h.edges.length - 1], sim.T_async, sim.T_block);
  if (!(hi > lo)) { lo = lo * 0.95; hi = hi * 1.05 || 1; }
  var x = function (t) { return left + (t - lo) / (hi - lo) * (W - left - right); };
  var most = Math.max.apply(null, h.counts), y = function (c) { return top + (H - top - bottom) * (1 - c / most); };
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
  marks.forEach(function (m, k) {
    out.push('<line stroke="currentColor" stroke-width="2" stroke-dasharray="' + (m[2] || 'none') + '" x1="' + n(x(m[0])) + '" y1="' + top + '" x2="' + n(x(m[0])) + '" y2="' + axis + '"/>',
      '<text x="' + n(Math.min(x(m[0]) + 4, W - right - 60)) + '" y="' + (top + 10 + 13 * k) + '">' + esc(m[1]) + '</text>');
  });
  out.push('</svg>');
  return out.join('');
}

// Each statistic with its exact value in data-value, for tests and the curious.
function stats(sim) {
  var ms = sim.makespan, rows = [
    ['mean', ms.mean], ['sd', ms.sd], ['ci95', ms.ci95], ['p50', ms.p50], ['p90', ms.p90], ['p95', ms.p95], ['p99', ms.p99],
    ['min', ms.min], ['max', ms.max], ['deterministic_makespan', sim.deterministic_makespan], ['jensen_gap', sim.jensen_gap],
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

// sim: the Monte Carlo; detail: the sampled run's first micro-batches with their timeline.
function show(sim, detail, analysis, links) {
  mark(null);
  $('sim-note').textContent = '';
  var r = $('sim-result');
  r.classList.remove('stale');
  // Its rows end with the sampled run's utilization (busy over its makespan, the core's).
  var tl = detail && Object.assign({ makespan: detail.run.makespan, utilization: detail.run.utilization }, detail.run.timeline);
  var width = Math.max(300, Math.min(900, r.clientWidth || 640));
  r.innerHTML = '<p class="sim-headline">' + esc(V.headline(fmt.time(sim.makespan.mean), fmt.time(sim.makespan.p99), fmt.time(sim.T_async),
    fmt.time(sim.jensen_gap))) + '</p>' + histogram(sim, Math.min(640, width)) +
    '<p class="hint">' + esc(V.histNote) + '</p>' + stats(sim) + stages(sim.run) +
    '<h3>' + esc(V.ganttHeading) + '</h3>' +
    (tl ? '<p class="hint">' + esc(V.ganttNote(tl.M, fmt.integer(sim.M))) + '</p><div id="sim-gantt-box"></div>' : '<p class="hint">' + esc(V.ganttNone) + '</p>');
  if (tl) {
    $('sim-gantt-box').innerHTML = gantt.render(tl, analysis, links === 'blocking' ? 'blocking' : 'async', width, { id: 'sim-gantt', head: V.ganttTitle, span: tl.makespan, legendBlocked: V.legendBlocked });
  }
}

export { show, error, progress, pipelineBad, cancelled };
