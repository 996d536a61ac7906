// The pictures card: the two uPlot charts (charts.js), the Gantt timeline (gantt.js) and the
// per-link slack (slack.js), drawn from the module's curve and timeline for the current analysis.
// The makespan chart, beside the summary, draws at once; the others draw at once only when they are
// near the view, and otherwise after the next paint (after-paint.js), so that a keystroke pays for
// what can be seen.
import * as fmt from './format.js';
import * as gantt from './gantt.js';
import * as slack from './slack.js';
import { Chart } from './charts.js';
var T = window.HP_I18N.text;
var $ = function (id) { return document.getElementById(id); };
var CURVE_POINTS = 240;

var charts = {};
var drawn = null;     // what the pictures show now, to draw again at a new width
var shownCurve = null; // the makespan curve behind the charts (the CSV export)
var shownTimeline = null; // the schedule the Gantt shows (the schedule CSV)
// The pictures' widths, read once and again only when one of their boxes changes size: read on
// every keystroke, they would force a layout of the whole page before anything is drawn.
var widths = null;
// Which of the later pictures' boxes were last seen in the view (an IntersectionObserver reports it
// after layout, so asking costs no layout of its own). One out of view is at most a frame late.
var near = {};
var LATER = ['chart-over', 'chart-gantt', 'chart-slack'];

function measure() {
  return { curve: charts.curve.el.clientWidth, over: charts.over.el.clientWidth,
    gantt: $('chart-gantt').clientWidth, slack: $('chart-slack').clientWidth };
}

function create() {
  ['curve', 'over'].forEach(function (k) {
    charts[k] = new Chart($('chart-' + k), k);
    charts[k].onZoom = function (zoomed) { document.querySelector('.zoom-reset[data-chart="' + k + '"]').hidden = !zoomed; };
  });
  // A box that changes size (the window, a scroll bar, a section opened) draws the pictures again;
  // the observer reports after layout, so reading the widths then costs no layout of its own.
  if (window.ResizeObserver) {
    var boxes = new ResizeObserver(function () {
      var now = measure();
      if (!widths || Object.keys(now).every(function (k) { return now[k] === widths[k]; })) return;
      widths = now;
      if (drawn) paint(drawn.hp, drawn.a, drawn.input, drawn.view);
    });
    [charts.curve.el, charts.over.el, $('chart-gantt'), $('chart-slack')].forEach(function (el) { boxes.observe(el); });
  }
  if (window.IntersectionObserver) {
    var seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { near[e.target.id] = e.isIntersecting; });
    });
    LATER.forEach(function (id) { seen.observe($(id)); });
  }
}

function bind() {
  document.querySelectorAll('.scale-toggle').forEach(function (b) {
    b.addEventListener('click', function () {
      var chart = charts[b.getAttribute('data-chart')];
      chart.setLog(!chart.isLog());
      b.setAttribute('aria-pressed', String(chart.isLog()));
    });
  });
  document.querySelectorAll('.zoom-reset').forEach(function (b) {
    b.addEventListener('click', function () { charts[b.getAttribute('data-chart')].resetZoom(); });
  });
  gantt.bind($('chart-gantt'), $('gantt-tip'), $('gantt-zoom'));
}

function cssColor(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }

// What the curve chart says in words: curves that coincide, and why.
function curveNotes(a) {
  var notes = [];
  if (!a.overlap_headroom) notes.push(T.noHeadroomNote);
  if (a.T_free === a.T_async) notes.push(T.freeIsAsync);
  return notes.join(' ');
}

function drawCurve(hp, a, input, view, widths) {
  var batches = hp.curveBatches({ tau: input.tau, d: input.d, M: a.M, points: CURVE_POINTS });
  var c = hp.makespanCurve({ tau: input.tau, d: input.d, batches: batches });
  shownCurve = c;
  var current = c.M.indexOf(a.M);
  if (current < 0) current = null;
  var lines = [
    { x: a.crossover_batches, label: T.markCrossover + ' = ' + fmt.number(a.crossover_batches), color: cssColor('--c-mark') },
    { x: a.M, label: T.markCurrent + ' = ' + fmt.integer(a.M), color: cssColor('--muted') }
  ];
  // The makespan predicted at the input rho, as a dashed line up to the current M.
  var level = a.T_rho === undefined ? null : { x: a.M, y: a.T_rho, label: T.markRho(fmt.number(a.rho)) + ' = ' + fmt.time(a.T_rho), color: cssColor('--c-async') };
  var point = a.T_real !== undefined ? { x: a.M, y: a.T_real, label: T.markReal + ' = ' + fmt.time(a.T_real) } : null;
  $('curve-note').textContent = curveNotes(a);
  charts.curve.update([c.M, c.T_free, c.T_async, c.T_block, c.T_gpipe], { lines: lines, point: point, level: level }, a.T_real,
    widths.curve, current);
  pressScaleToggles();
  return { c: c, lines: lines, current: current };
}

// The GPipe overestimate over the same points and marks as the makespan chart.
function drawOver(curve, width) {
  var c = curve.c;
  charts.over.update([c.M, c.gpipe_overestimate], { lines: curve.lines, point: null }, null, width, curve.current);
  pressScaleToggles();
}

function pressScaleToggles() {
  document.querySelectorAll('.scale-toggle').forEach(function (b) {
    b.setAttribute('aria-pressed', String(charts[b.getAttribute('data-chart')].isLog()));
  });
}

function drawGantt(hp, a, input, view, width) {
  var box = $('chart-gantt'), note = $('gantt-note');
  document.querySelectorAll('#regime-toggle button').forEach(function (b) {
    b.setAttribute('aria-pressed', String(b.getAttribute('data-regime') === view.regime));
  });
  if (a.S > gantt.MAX_STAGES) { box.innerHTML = ''; shownTimeline = null; note.textContent = T.ganttTooMany(a.S, gantt.MAX_STAGES); return; }
  var shown = Math.min(a.M, gantt.MAX_BATCHES);
  shownTimeline = hp.timeline({ tau: input.tau, d: input.d, M: shown, regime: view.regime });
  note.textContent = shown < a.M ? T.ganttFirst(shown, fmt.integer(a.M)) : T.ganttAll(fmt.integer(a.M));
  gantt.draw(box, shownTimeline, a, view.regime, width || 640);
}

function drawSlack(a, width) {
  var box = $('chart-slack'), note = $('slack-note');
  var links = a.link_slack.length;
  if (links === 0) { box.innerHTML = ''; note.textContent = T.slackNone; return; }
  if (links > slack.MAX_LINKS) { box.innerHTML = ''; note.textContent = T.slackTooMany(links, slack.MAX_LINKS); return; }
  note.textContent = '';
  box.innerHTML = slack.render(a, width || 640);
}

// view: the page state's regime and embed mode. Draws what is in view and returns a function that
// draws the rest (null when nothing is left).
function draw(hp, a, input, view) {
  $('figures').classList.remove('stale');
  return paint(hp, a, input, view, true);
}

// inView: draw only what is near the view now, and return the rest; otherwise draw everything.
function paint(hp, a, input, view, inView) {
  drawn = { hp: hp, a: a, input: input, view: view };
  if (!widths) widths = measure();
  var curve = drawCurve(hp, a, input, view, widths);
  if (view.embed) return null;
  var parts = {
    'chart-over': function () { drawOver(curve, widths.over); },
    'chart-gantt': function () { drawGantt(hp, a, input, view, widths.gantt); },
    'chart-slack': function () { drawSlack(a, widths.slack); }
  };
  var rest = [];
  LATER.forEach(function (id) { if (!inView || near[id]) parts[id](); else rest.push(parts[id]); });
  return rest.length === 0 ? null : function () { rest.forEach(function (part) { part(); }); };
}

// Bad input: the pictures stay, dimmed, until the input is fixed.
function stale() {
  $('figures').classList.add('stale');
}

function resize() {
  widths = null;
  charts.curve.resize(); charts.over.resize();
  if (drawn) paint(drawn.hp, drawn.a, drawn.input, drawn.view);
}

// The charts take their colours from the page's theme when built.
function rebuild() { charts.curve.rebuild(); charts.over.rebuild(); }

// For printing: the charts fit the printed width (the SVG pictures scale by themselves).
function fit() { charts.curve.resize(); charts.over.resize(); }

// which: 'curve' or 'over'.
function png(which, title, callback) { charts[which].toPngBlob(title, callback); }

// What the exports write: the curve and the schedule shown.
function curve() { return shownCurve; }
function timeline() { return shownTimeline; }

export { create, bind, draw, stale, resize, rebuild, fit, png, curve, timeline };
