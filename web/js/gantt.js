// The schedule viewer (Gantt chart) as hand-written SVG, from the engine's exact timeline: one row
// per stage, each link's transfers in a lane of their own between its two rows, a legend, the
// regime named in the picture itself (so print and export say it), a focusable bar with its own
// title for each cell, each stage's utilization at its row's end (the engine's), and zoom and pan
// along time. Only drawing arithmetic happens here.
import * as fmt from './format.js';
import * as svg from './svg.js';
var L = window.HP_I18N;
var T = L.text;
var MAX_STAGES = 128;     // rows beyond this are unreadable on any screen
var MAX_BATCHES = 24;     // the first micro-batches show the fill, the steady state and the bubbles
var COLOURS = 6;
var view = { from: 0, to: 1 };  // the part of the time span shown, as fractions of it
var last = null;                 // the last drawing's inputs, to draw again on zoom and pan
var cells = [];                  // the last drawing's bars, [m, s, x, y, width, height], for their hit boxes
var pending = 0;                 // the idle callback that adds the hit boxes

function rowHeight(S) { return S <= 12 ? 24 : S <= 32 ? 14 : S <= 64 ? 8 : 5; }

// The legend, wrapped to the picture's width: [class or swatch markup, text] pairs.
function legend(items, left, y, W) {
  var out = [], x = left, row = 0;
  items.forEach(function (it) {
    var w = 20 + svg.textWidth(it[1]) + 14;
    if (x + w > W && x > left) { x = left; row++; }
    var yy = y + row * 16;
    out.push(it[0](x, yy) + '<text x="' + (x + 18) + '" y="' + (yy + 9) + '">' + svg.esc(it[1]) + '</text>');
    x += w;
  });
  return { svg: out.join(''), height: (row + 1) * 16 };
}

function swatch(cls) {
  return function (x, y) { return '<rect class="' + cls + '" x="' + x + '" y="' + y + '" width="14" height="10"/>'; };
}
function computeSwatch(x, y) {
  var s = '';
  for (var c = 0; c < 3; c++) s += '<rect class="mb mb' + c + '" x="' + (x + c * 5) + '" y="' + y + '" width="5" height="10"/>';
  return s;
}

// tl: hp.timeline(...) for the first `shown` micro-batches; a: the analysis. Another section's
// chart (trace import, the simulator) gives o: its ids' prefix, heading and time span, at the full
// view, and may name its blocked time (o.legendBlocked). A timeline with `release` (the
// simulator's) has a stage hold each cell from its finish to its release: that is its blocked time.
function render(tl, a, regime, width, o) {
  var esc = svg.esc, n = svg.n;
  var S = tl.S, M = tl.M, rh = rowHeight(S), gap = Math.max(1, Math.round(rh / 6));
  var hasLinks = false;
  for (var k = 0; k < tl.transfer_start.length && !hasLinks; k++) hasLinks = tl.transfer_finish[k] > tl.transfer_start[k];
  var lh = hasLinks ? Math.max(3, Math.round(rh / 2.5)) : 0;  // the link lane under each row but the last
  var pitch = rh + lh, left = 56, right = 52;  // the right margin holds each row's utilization
  var W = Math.max(300, width), plotW = W - left - right;
  var blocking = regime === 'blocking' || !!tl.release;
  var items = [[computeSwatch, T.legendCompute], [swatch('xfer'), T.legendTransfer]];
  if (blocking) items.push([swatch('blocked'), (o && o.legendBlocked) || T.legendBlocked]);
  items.push([swatch('idle'), T.legendIdle]);
  var leg = legend(items, left, 24, W);
  var top = 26 + leg.height + 6, axisH = 36, H = top + S * pitch - lh + axisH;
  var id = o ? o.id : 'gantt', v = o ? { from: 0, to: 1 } : view, head = o ? o.head : T.ganttHead(T['regime_' + regime]);
  var span = o ? o.span : tl.makespan > 0 ? tl.makespan : 1, t0 = v.from * span, t1 = v.to * span;
  var x = function (t) { return left + ((t - t0) / (t1 - t0)) * plotW; };
  var bottleneck = regime === 'blocking' ? a.blocking_bottleneck_stage : a.bottleneck_stage;
  var rowY = function (s) { return top + s * pitch; };
  var out = [];
  out.push('<svg xmlns="http://www.w3.org/2000/svg" class="gantt" width="' + W + '" height="' + H +
    '" viewBox="0 0 ' + W + ' ' + H + '" role="group" aria-labelledby="' + id + '-title">');
  out.push('<title id="' + id + '-title">' + esc(head) + '</title>');
  out.push('<defs><pattern id="' + id + '-idle" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
    '<rect class="idle-bg" width="6" height="6"/><line class="idle-line" x1="0" y1="0" x2="0" y2="6"/></pattern>' +
    '<pattern id="' + id + '-blocked" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">' +
    '<rect class="blocked-bg" width="5" height="5"/><line class="blocked-line" x1="0" y1="0" x2="0" y2="5"/></pattern>' +
    '<clipPath id="' + id + '-clip"><rect x="' + left + '" y="0" width="' + plotW + '" height="' + H + '"/></clipPath></defs>');
  // From the chart's left edge, over the row labels too: a long title ('Replication 0: compute,
  // transfers and blocked time') ran past a phone's width from the plot's edge.
  out.push('<text class="head" x="2" y="14">' + esc(head) + '</text>');
  out.push(leg.svg);
  out.push('<text class="tick" x="' + (left + plotW + 6) + '" y="' + (top - 4) + '">' + esc(T.busyShare) + '</text>');
  var every = Math.ceil(18 / pitch);  // thin the row labels when rows are narrower than a label
  for (var s = 0; s < S; s++) {
    var y = rowY(s);
    out.push('<rect class="idle" x="' + left + '" y="' + n(y + gap / 2) + '" width="' + n(plotW) + '" height="' + n(rh - gap) + '"/>');
    if (s % every === 0 || (every === 1 && s === bottleneck)) {
      var cls = 'row-label' + (s === bottleneck ? ' bn' : ''), cy = n(y + rh / 2);
      out.push('<text class="' + cls + '" x="' + (left - 6) + '" y="' + cy + '" text-anchor="end" dominant-baseline="central">' +
        esc(T.stageRow(s)) + '</text>');
      out.push('<text class="' + cls + '" x="' + (left + plotW + 6) + '" y="' + cy + '" dominant-baseline="central">' +
        esc(fmt.percent(tl.utilization[s])) + '</text>');
    }
  }
  // One path per colour for the bars, one for the transfers and one for blocked time: a few
  // elements to paint; the transparent hit boxes above them carry each cell's title and focus.
  var cs = tl.compute_start, cf = tl.compute_finish, ts = tl.transfer_start, tf = tl.transfer_finish;
  var bars = [], xfers = [], held = [], labels = [], label = rh >= 14, h = rh - gap;
  var boxes = [];
  for (var c = 0; c < COLOURS; c++) bars.push([]);
  var box = function (x0, y0, w, hh) { return 'M' + n(x0) + ' ' + n(y0) + 'h' + n(w) + 'v' + n(hh) + 'h' + n(-w) + 'z'; };
  for (var m = 0; m < M; m++) {
    for (s = 0; s < S; s++) {
      var i = m * S + s, x0 = x(cs[i]), x1 = x(cf[i]);
      y = rowY(s) + gap / 2;
      if (x1 > x0 && x1 >= left && x0 <= left + plotW) {
        bars[m % COLOURS].push(box(x0, y, Math.max(x1 - x0, 0.5), h));
        if (label && x1 - x0 >= 16) {
          labels.push('<text class="bar-label" x="' + n((x0 + x1) / 2) + '" y="' + n(y + h / 2) + '" text-anchor="middle" dominant-baseline="central">' + (m + 1) + '</text>');
        }
        boxes.push([m, s, n(x0), n(y), n(Math.max(x1 - x0, 2)), n(h)]);
      }
      var r1 = tl.release ? x(tl.release[i]) : x1;
      if (r1 > x1 && r1 >= left && x1 <= left + plotW) held.push(box(x1, y, r1 - x1, h));
      if (s < S - 1) {
        var j = m * (S - 1) + s, u0 = x(ts[j]), u1 = x(tf[j]);
        if (u1 > u0 && u1 >= left && u0 <= left + plotW) {
          // The transfer on its link's lane, at least 2 px wide so a short one still shows.
          xfers.push(box(u0, rowY(s) + rh, Math.max(u1 - u0 - (u1 - u0 > 4 ? 1 : 0), 2), lh));
          // Blocking: the send holds the stage, which can start nothing else meanwhile.
          if (blocking && !tl.release) held.push(box(u0, y, Math.max(u1 - u0, 0.5), h));
        }
      }
    }
  }
  if (!o) cells = boxes;
  out.push('<g clip-path="url(#' + id + '-clip)">');
  for (c = 0; c < COLOURS; c++) {
    if (bars[c].length) out.push('<path class="mb mb' + c + '" data-bars="' + bars[c].length + '" d="' + bars[c].join('') + '"/>');
  }
  if (held.length) out.push('<path class="blocked" data-bars="' + held.length + '" d="' + held.join('') + '"/>');
  if (xfers.length) out.push('<path class="xfer" data-bars="' + xfers.length + '" d="' + xfers.join('') + '"/>');
  out.push(labels.join(''), '<g class="hits"></g></g>');
  // The bottleneck row is outlined so it stands out at any size.
  out.push('<rect class="bn-outline" x="' + n(left - 2) + '" y="' + n(rowY(bottleneck)) + '" width="' + n(plotW + 4) + '" height="' + rh + '"/>');
  var axisY = top + S * pitch - lh + 2;
  out.push('<line class="axis" x1="' + left + '" y1="' + axisY + '" x2="' + (left + plotW) + '" y2="' + axisY + '"/>');
  svg.ticksIn(t0, t1, Math.floor(plotW / 70)).forEach(function (t) {
    var tx = n(x(t));
    out.push('<line class="axis" x1="' + tx + '" y1="' + axisY + '" x2="' + tx + '" y2="' + (axisY + 4) + '"/>');
    out.push('<text class="tick" x="' + tx + '" y="' + (axisY + 15) + '" text-anchor="middle">' + esc(fmt.short(t)) + '</text>');
  });
  out.push('<text class="tick" x="' + (left + plotW) + '" y="' + (axisY + 30) + '" text-anchor="end">' + esc(fmt.withUnit(T.axisTime)) + '</text>');
  out.push('<text class="row-label bn" x="' + left + '" y="' + (axisY + 30) + '">' + esc(T.bottleneckMark + T.colon + T.stageRow(bottleneck)) + '</text>');
  out.push('</svg>');
  return out.join('');
}

// The transparent hit box of each bar, with its own title (stage, micro-batch, start, end and
// duration: tau[s], the stage's time). One tab stop; the arrow keys move it.
function hits(tl, a) {
  var esc = svg.esc, dur = {};
  return cells.map(function (c, k) {
    var i = c[0] * tl.S + c[1];
    if (!(c[1] in dur)) dur[c[1]] = fmt.time(a.tau[c[1]]);
    return '<rect class="hit" role="img"' + (k ? '' : ' tabindex="0"') + ' data-m="' + c[0] + '" data-s="' + c[1] + '" x="' + c[2] +
      '" y="' + c[3] + '" width="' + c[4] + '" height="' + c[5] + '"><title>' +
      esc(T.barTitle(T.stageRow(c[1]), c[0] + 1, fmt.time(tl.compute_start[i]), fmt.time(tl.compute_finish[i]), dur[c[1]])) + '</title></rect>';
  }).join('');
}

// The picture is painted at once; the hit boxes (thousands of titled elements at S = 64) follow
// when the page is idle, so typing stays fast, and are dropped if the next drawing comes first.
function draw(el, tl, a, regime, width) {
  last = { el: el, tl: tl, a: a, regime: regime, width: width };
  el.innerHTML = render(tl, a, regime, width);
  el.removeAttribute('data-hits');
  var idle = window.requestIdleCallback || function (f) { return setTimeout(f, 1); };
  (window.cancelIdleCallback || clearTimeout)(pending);
  pending = idle(function () {
    var g = el.querySelector('g.hits');
    if (g) g.innerHTML = hits(tl, a);
    el.setAttribute('data-hits', String(cells.length));
  }, { timeout: 300 });
}

function redraw() { if (last) draw(last.el, last.tl, last.a, last.regime, last.width); }

// Zoom by two around the middle, pan by a quarter of the window, or reset; fractions of the span.
function zoom(action) {
  var w = view.to - view.from, mid = (view.from + view.to) / 2;
  if (action === 'reset') { view = { from: 0, to: 1 }; }
  else if (action === 'in') setView(mid - w / 4, mid + w / 4);
  else if (action === 'out') setView(mid - w, mid + w);
  else setView(view.from + (action === 'left' ? -w : w) / 4, view.to + (action === 'left' ? -w : w) / 4);
  redraw();
}
function setView(from, to) {
  var w = Math.min(1, Math.max(1 / 64, to - from));
  from = Math.min(Math.max(0, from), 1 - w);
  view = { from: from, to: from + w };
}
function zoomed() { return view.from > 0 || view.to < 1; }

// Hover or focus on a cell highlights its micro-batch on every stage; the focused cell's title shows
// below the chart (a hover shows the title as a tooltip); arrow keys move between cells.
function highlight(el, hit) {
  var picture = el.querySelector('svg');
  if (!picture) return;
  picture.querySelectorAll('.hit.on').forEach(function (r) { r.classList.remove('on'); });
  picture.classList.toggle('hl', !!hit);
  if (hit) picture.querySelectorAll('.hit[data-m="' + hit.getAttribute('data-m') + '"]').forEach(function (r) { r.classList.add('on'); });
}

function bind(el, tip, zoomBar) {
  el.addEventListener('pointerover', function (ev) { highlight(el, ev.target.closest('.hit')); });
  el.addEventListener('pointerleave', function () { highlight(el, null); });
  el.addEventListener('focusin', function (ev) {
    var hit = ev.target.closest('.hit');
    highlight(el, hit);
    tip.hidden = !hit;
    if (hit) tip.textContent = hit.querySelector('title').textContent;
  });
  el.addEventListener('focusout', function () { highlight(el, null); tip.hidden = true; });
  el.addEventListener('keydown', function (ev) {
    var hit = ev.target.closest('.hit'), step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
    if (!hit || !step) return;
    var next = el.querySelector('.hit[data-m="' + (Number(hit.getAttribute('data-m')) + step[0]) + '"][data-s="' +
      (Number(hit.getAttribute('data-s')) + step[1]) + '"]');
    ev.preventDefault();
    if (!next) return;
    hit.removeAttribute('tabindex'); next.setAttribute('tabindex', '0'); next.focus();
  });
  // Drag along time to pan a zoomed chart.
  var drag = null;
  el.addEventListener('pointerdown', function (ev) { if (zoomed()) drag = { x: ev.clientX, view: view }; });
  window.addEventListener('pointerup', function () { drag = null; });
  el.addEventListener('pointermove', function (ev) {
    if (!drag || !last) return;
    var w = drag.view.to - drag.view.from, dx = (ev.clientX - drag.x) / Math.max(1, last.width - 70) * w;
    setView(drag.view.from - dx, drag.view.to - dx);
    if (!drag.frame) drag.frame = requestAnimationFrame(function () { if (drag) drag.frame = 0; redraw(); });
  });
  zoomBar.addEventListener('click', function (ev) {
    var b = ev.target.closest('button[data-zoom]');
    if (b) zoom(b.getAttribute('data-zoom'));
  });
}

export { render, draw, bind, zoom, MAX_STAGES, MAX_BATCHES };
