// The two line charts (makespan against M, GPipe overestimate against M), drawn with uPlot.
// Every plotted number comes from the module's makespanCurve; this file only draws.
import * as fmt from './format.js';
var L = window.HP_I18N;
var HEIGHT = 300;
// Micro-batch counts are whole: the M axis steps by whole numbers only.
var WHOLE = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500];
for (var e = 3; e <= 15; e++) WHOLE.push(Math.pow(10, e), 2 * Math.pow(10, e), 5 * Math.pow(10, e));

// The theme's colours: the page's own, or the light ones (exports) read from a .theme-light element.
function palette(from) {
  var cs = getComputedStyle(from || document.documentElement);
  var css = function (name) { return cs.getPropertyValue(name).trim(); };
  return {
    ink: css('--ink'), muted: css('--muted'), line: css('--line'), bg: css('--card'),
    free: css('--c-free'), async: css('--c-async'), block: css('--c-block'), gpipe: css('--c-gpipe'),
    band: css('--c-band'), mark: css('--c-mark'), real: css('--c-real')
  };
}

function axisValues(u, splits) { return splits.map(fmt.axis); }
function percentValues(u, splits) { return splits.map(fmt.percent); }
function legendNumber(u, v) { return v == null ? '' : fmt.number(v); }
function legendInteger(u, v) { return v == null ? '' : fmt.integer(v); }
function legendPercent(u, v) { return v == null ? '' : fmt.percent(v); }

// Two boxes [x, y, w, h] overlap.
function hits(a, b) { return a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3]; }

// Vertical dashed marks (crossover, current M), a horizontal one (the makespan predicted at the
// input rho, when the module gives it) and the measured point, drawn on the plot canvas; each label
// goes to the first place that no earlier label covers.
function drawMarks(u, marks, c, k) {
  var ctx = u.ctx, px = uPlot.pxRatio * k, top = u.bbox.top, bottom = u.bbox.top + u.bbox.height;
  var left = u.bbox.left, right = u.bbox.left + u.bbox.width, placed = [], lineH = 13 * px;
  ctx.save();
  ctx.font = (11 * px) + 'px system-ui, sans-serif';
  // uPlot leaves its own text alignment on the context; labels here are measured from their left edge.
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  function place(text, candidates) {
    var w = ctx.measureText(text).width + 4 * px;
    var spot = candidates.map(function (p) { return [Math.min(Math.max(left, p[0]), right - w), Math.min(Math.max(top, p[1]), bottom - lineH), w, lineH]; })
      .find(function (b) { return !placed.some(function (q) { return hits(b, q); }); });
    spot = spot || candidates[0].concat([w, lineH]);
    placed.push(spot);
    ctx.fillText(text, spot[0] + 2 * px, spot[1]);
  }
  marks.lines.forEach(function (m) {
    var x = Math.round(u.valToPos(m.x, 'x', true));
    if (!(x >= left - 1 && x <= right + 1)) return;
    ctx.strokeStyle = m.color; ctx.fillStyle = m.color; ctx.lineWidth = px;
    ctx.setLineDash([4 * px, 3 * px]);
    ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke();
    ctx.setLineDash([]);
    var w = ctx.measureText(m.label).width + 6 * px, rows = [0, 1, 2, 3];
    place(m.label, rows.map(function (r) { return [x + w <= right ? x + px : x - w, top + 2 * px + r * lineH]; }));
  });
  if (marks.level) {
    var ly = Math.round(u.valToPos(marks.level.y, 'y', true)), lx = Math.min(right, u.valToPos(marks.level.x, 'x', true));
    ctx.strokeStyle = ctx.fillStyle = marks.level.color; ctx.lineWidth = px;
    ctx.setLineDash([2 * px, 2 * px]);
    ctx.beginPath(); ctx.moveTo(left, ly); ctx.lineTo(lx, ly); ctx.stroke();
    ctx.setLineDash([]);
    place(marks.level.label, [[left + 4 * px, ly - lineH - 2 * px], [left + 4 * px, ly + 2 * px], [left + 4 * px, ly - 2 * lineH]]);
  }
  if (marks.point) {
    var px0 = u.valToPos(marks.point.x, 'x', true), py0 = u.valToPos(marks.point.y, 'y', true);
    ctx.fillStyle = c.real; ctx.strokeStyle = c.bg; ctx.lineWidth = 2 * px;
    ctx.beginPath(); ctx.arc(px0, py0, 5 * px, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    var lw = ctx.measureText(marks.point.label).width + 4 * px, d = 8 * px;
    placed.push([px0 - 6 * px, py0 - 6 * px, 12 * px, 12 * px]);
    place(marks.point.label, [[px0 - d - lw, py0 - d - lineH], [px0 + d, py0 - d - lineH], [px0 - d - lw, py0 + d], [px0 + d, py0 + d],
      [px0 - d - lw, py0 - 2 * d - 2 * lineH], [px0 + d, py0 + 2 * d + lineH]]);
  }
  ctx.restore();
}

function Chart(el, kind) {
  this.el = el; this.kind = kind; this.u = null; this.marks = { lines: [], point: null }; this.data = null; this.yMax = null;
  this.log = null;       // null: chosen from the range of M; true or false: the person's choice
  this.current = null;   // the index of the current M, whose values the legend shows by default
  this.onZoom = null;    // called with whether the x axis is zoomed in
}

// Whether the M axis is logarithmic: the person's choice, else when M spans more than three decades.
Chart.prototype.isLog = function () {
  if (this.log !== null) return this.log;
  var M = this.data && this.data[0];
  return !!M && M.length > 1 && M[M.length - 1] > 1000 * M[0];
};

// width: the container's, when the caller has read it already (see pictures.js); k scales every
// size (2 / pxRatio for an export at twice the CSS size); c: the colours.
Chart.prototype.options = function (width, k, c) {
  var self = this;
  k = k || 1; c = c || palette();
  width = Math.max(280, width || this.el.clientWidth || 600);
  var font = (12 * k) + 'px system-ui, sans-serif';
  var axis = function (label, values) {
    return { stroke: c.muted, label: label, labelSize: 18 * k, font: font, labelFont: font, gap: 4 * k,
      grid: { stroke: c.line, width: 1 }, ticks: { stroke: c.line, width: 1, size: 6 * k }, values: values,
      // Room for the longest label, so no tick value is clipped.
      size: function (u, vals) {
        if (!vals) return 50 * k;
        u.ctx.font = font.replace(/^[\d.]+/, function (n) { return String(n * uPlot.pxRatio); });
        var w = Math.max.apply(null, vals.map(function (v) { return u.ctx.measureText(v || '').width; }));
        return Math.ceil(w / uPlot.pxRatio) + 30 * k;
      } };
  };
  var line = function (label, stroke, w, dash, value) {
    return { label: label, stroke: stroke, width: w * k, dash: dash && dash.map(function (x) { return x * k; }), value: value, points: { show: false } };
  };
  var log = this.isLog();
  var o = {
    width: width * k, height: HEIGHT * k, scales: { x: { time: false, distr: log ? 3 : 1, log: 10 } },
    legend: { live: true },
    cursor: { drag: { x: true, y: false } },
    hooks: {
      draw: [function (u) {
        drawMarks(u, self.marks, c, k);
        // The M axis's tick values, for tests and scripts (they are drawn on the canvas).
        if (k === 1) self.el.setAttribute('data-x-ticks', (u.axes[0]._splits || []).join(','));
      }],
      // With the cursor off the chart, the legend shows the values at the current M.
      setCursor: [function (u) { if (u.cursor.idx == null && self.current !== null) u.setLegend({ idx: self.current }, false); }],
      setScale: [function (u, key) {
        if (key !== 'x' || !self.onZoom || !self.data) return;
        var M = self.data[0];
        self.onZoom(u.scales.x.min > M[0] || u.scales.x.max < M[M.length - 1]);
      }]
    }
  };
  var xAxis = axis(L.text.axisM, axisValues);
  xAxis.size = 50 * k;
  if (!log) xAxis.incrs = WHOLE;
  if (this.kind === 'curve') {
    // Dash patterns keep coinciding curves readable: T_free is drawn wide beneath, T_block dashed
    // over T_async, T_gpipe dotted.
    o.series = [
      { label: 'M', value: legendInteger },
      line('T_free', c.free, 4, null, legendNumber),
      line('T_async', c.async, 2, null, legendNumber),
      line('T_block', c.block, 2, [7, 5], legendNumber),
      line('T_gpipe', c.gpipe, 2, [2, 3], legendNumber)
    ];
    o.bands = [{ series: [3, 2], fill: c.band }];
    o.scales.y = { range: function (u, lo, hi) { var top = Math.max(hi, self.yMax || 0); return [0, top > 0 ? top * 1.05 : 1]; } };
    o.axes = [xAxis, axis(fmt.withUnit(L.text.axisTime), axisValues)];
  } else {
    o.series = [
      { label: 'M', value: legendInteger },
      Object.assign(line(L.text.seriesOver, c.gpipe, 2, null, legendPercent), { fill: c.band })
    ];
    o.scales.y = { range: function (u, lo, hi) { return [Math.min(0, lo), hi > 0 ? hi * 1.05 : 1]; } };
    o.axes = [xAxis, axis(L.text.axisPercent, percentValues)];
  }
  return o;
};

// current: the index of the current M in data[0].
Chart.prototype.update = function (data, marks, yMax, width, current) {
  var was = this.u && this.isLog() + this.unit;
  this.data = data; this.marks = marks; this.yMax = yMax; this.current = current;
  // The log axis and the unit in the axis's name are options: a change of either rebuilds.
  if (!this.u || was !== this.isLog() + fmt.unit()) this.rebuild(width);
  else {
    this.u.setData(data);
    // A box that has changed width since the chart was built (the first layout of an embed, a
    // window resized): the chart fills it again.
    var fill = Math.max(280, width || this.el.clientWidth || 600);
    if (fill !== this.u.width) this.u.setSize({ width: fill, height: HEIGHT });
  }
  if (current !== null && this.u.cursor.idx == null) this.u.setLegend({ idx: current }, false);
};

// Colours, sizes and the scale's kind are options, so a theme change, a new width or the log
// axis rebuilds the chart.
Chart.prototype.rebuild = function (width) {
  if (!this.data) return;
  if (this.u) this.u.destroy();
  this.unit = fmt.unit();
  this.u = new uPlot(this.options(width), this.data, this.el);
  if (this.current !== null) this.u.setLegend({ idx: this.current }, false);
  if (this.onZoom) this.onZoom(false);
};
Chart.prototype.resize = function () {
  if (this.u) this.u.setSize({ width: Math.max(280, this.el.clientWidth || 600), height: HEIGHT });
};
Chart.prototype.setLog = function (log) { this.log = log; this.rebuild(); };
Chart.prototype.resetZoom = function () {
  var M = this.data[0];
  this.u.setScale('x', { min: M[0], max: M[M.length - 1] });
};

// A standalone PNG, light whatever the page's theme, at twice the chart's CSS size: the chart drawn
// again off screen under a title and a legend line.
Chart.prototype.toPngBlob = function (title, callback) {
  var host = document.createElement('div');
  host.className = 'theme-light offscreen';
  document.body.appendChild(host);
  var c = palette(host), k = 2 / uPlot.pxRatio, width = Math.max(280, this.el.clientWidth || 600);
  var u = new uPlot(Object.assign(this.options(width, k, c), { legend: { show: false } }), this.data, host);
  // uPlot sizes and draws its canvas in a microtask after it is made.
  setTimeout(function () { compose(u, c, title, callback); host.remove(); }, 0);
};

function compose(u, c, title, callback) {
  var src = u.ctx.canvas, px = 2, head = 48 * px;
  var out = document.createElement('canvas');
  out.width = src.width; out.height = src.height + head;
  var ctx = out.getContext('2d');
  ctx.fillStyle = c.bg; ctx.fillRect(0, 0, out.width, out.height);
  ctx.fillStyle = c.ink; ctx.font = 'bold ' + (14 * px) + 'px system-ui, sans-serif'; ctx.textBaseline = 'top';
  ctx.fillText(title, 8 * px, 6 * px);
  ctx.font = (12 * px) + 'px system-ui, sans-serif';
  var x = 8 * px;
  u.series.slice(1).forEach(function (s) {
    ctx.fillStyle = typeof s.stroke === 'function' ? s.stroke(u, 1) : s.stroke;
    ctx.fillRect(x, 30 * px, 14 * px, 3 * px);
    ctx.fillStyle = c.ink; ctx.fillText(s.label, x + 18 * px, 25 * px);
    x += (26 * px) + ctx.measureText(s.label).width;
  });
  ctx.drawImage(src, 0, head);
  u.destroy();
  out.toBlob(callback, 'image/png');
}

export { Chart };
