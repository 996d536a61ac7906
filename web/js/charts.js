// The two line charts (makespan against M, GPipe overestimate against M), drawn with uPlot.
// Every plotted number comes from the module's makespanCurve; this file only draws.
(function () {
  'use strict';
  var HP = window.HP = window.HP || {};
  var L = window.HP_I18N;
  var HEIGHT = 300;

  function css(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }

  function palette() {
    return {
      ink: css('--ink'), muted: css('--muted'), line: css('--line'), bg: css('--card'),
      free: css('--c-free'), async: css('--c-async'), block: css('--c-block'), gpipe: css('--c-gpipe'),
      band: css('--c-band'), mark: css('--c-mark'), real: css('--c-real')
    };
  }

  function axis(c, label, values) {
    return {
      stroke: c.muted, label: label, labelSize: 18, font: '12px system-ui, sans-serif', labelFont: '12px system-ui, sans-serif',
      grid: { stroke: c.line, width: 1 }, ticks: { stroke: c.line, width: 1 }, values: values
    };
  }

  function shortValues(u, splits) { return splits.map(HP.fmt.short); }
  function percentValues(u, splits) { return splits.map(HP.fmt.percent); }
  function legendNumber(u, v) { return v == null ? '' : HP.fmt.number(v); }
  function legendInteger(u, v) { return v == null ? '' : HP.fmt.integer(v); }
  function legendPercent(u, v) { return v == null ? '' : HP.fmt.percent(v); }

  // Vertical dashed marks (crossover, current M) and the measured point, drawn on the plot canvas.
  function drawMarks(u, marks, c) {
    var ctx = u.ctx, px = uPlot.pxRatio, top = u.bbox.top, bottom = u.bbox.top + u.bbox.height;
    var left = u.bbox.left, right = u.bbox.left + u.bbox.width;
    ctx.save();
    ctx.font = (11 * px) + 'px system-ui, sans-serif';
    // uPlot leaves its own text alignment on the context; labels here are measured from their left edge.
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    marks.lines.forEach(function (m, i) {
      var x = Math.round(u.valToPos(m.x, 'x', true));
      if (!(x >= left - 1 && x <= right + 1)) return;
      ctx.strokeStyle = m.color; ctx.fillStyle = m.color; ctx.lineWidth = px;
      ctx.setLineDash([4 * px, 3 * px]);
      ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke();
      ctx.setLineDash([]);
      var w = ctx.measureText(m.label).width;
      var tx = x + 3 * px + w <= right ? x + 3 * px : Math.max(left, x - 3 * px - w);
      ctx.fillText(m.label, tx, top + 2 * px + i * 13 * px);
    });
    if (marks.point) {
      var px0 = u.valToPos(marks.point.x, 'x', true), py0 = u.valToPos(marks.point.y, 'y', true);
      ctx.fillStyle = c.real; ctx.strokeStyle = c.bg; ctx.lineWidth = 2 * px;
      ctx.beginPath(); ctx.arc(px0, py0, 5 * px, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
      ctx.fillStyle = c.real; ctx.textBaseline = 'bottom';
      var lw = ctx.measureText(marks.point.label).width;
      ctx.fillText(marks.point.label, px0 - 8 * px - lw > left ? px0 - 8 * px - lw : px0 + 8 * px, py0 - 4 * px);
    }
    ctx.restore();
  }

  function Chart(el, kind) {
    this.el = el; this.kind = kind; this.u = null; this.marks = { lines: [], point: null }; this.data = null; this.yMax = null;
  }

  // width: the container's, when the caller has read it already (see pictures.js).
  Chart.prototype.options = function (width) {
    var self = this, c = palette();
    width = Math.max(280, width || this.el.clientWidth || 600);
    var o = {
      width: width, height: HEIGHT, scales: { x: { time: false } },
      legend: { live: true },
      cursor: { drag: { x: true, y: false } },
      hooks: { draw: [function (u) { drawMarks(u, self.marks, c); }] }
    };
    if (this.kind === 'curve') {
      o.series = [
        { label: 'M', value: legendInteger },
        { label: 'T_free', stroke: c.free, width: 1.5, value: legendNumber, points: { show: false } },
        { label: 'T_async', stroke: c.async, width: 2, value: legendNumber, points: { show: false } },
        { label: 'T_block', stroke: c.block, width: 2, value: legendNumber, points: { show: false } },
        { label: 'T_gpipe', stroke: c.gpipe, width: 1.5, dash: [6, 4], value: legendNumber, points: { show: false } }
      ];
      o.bands = [{ series: [3, 2], fill: c.band }];
      o.scales.y = { range: function (u, lo, hi) { var top = Math.max(hi, self.yMax || 0); return [0, top > 0 ? top * 1.05 : 1]; } };
      o.axes = [axis(c, L.text.axisM, shortValues), axis(c, L.text.axisTime, shortValues)];
      o.axes[1].size = 56;
    } else {
      o.series = [
        { label: 'M', value: legendInteger },
        { label: L.text.seriesOver, stroke: c.gpipe, width: 2, value: legendPercent, points: { show: false },
          fill: c.band }
      ];
      o.scales.y = { range: function (u, lo, hi) { return [Math.min(0, lo), hi > 0 ? hi * 1.05 : 1]; } };
      o.axes = [axis(c, L.text.axisM, shortValues), axis(c, L.text.axisPercent, percentValues)];
      o.axes[1].size = 60;
    }
    return o;
  };

  Chart.prototype.update = function (data, marks, yMax, width) {
    this.data = data; this.marks = marks; this.yMax = yMax;
    if (!this.u) { this.u = new uPlot(this.options(width), data, this.el); return; }
    this.u.setData(data);
  };

  // Colours and sizes come from the page, so a theme change or a new width rebuilds the chart.
  Chart.prototype.rebuild = function () {
    if (!this.u) return;
    this.u.destroy(); this.u = new uPlot(this.options(), this.data, this.el);
  };
  Chart.prototype.resize = function () {
    if (this.u) this.u.setSize({ width: Math.max(280, this.el.clientWidth || 600), height: HEIGHT });
  };

  // A standalone PNG: the plot canvas under a title and a legend line.
  Chart.prototype.toPngBlob = function (title, callback) {
    var u = this.u, c = palette(), px = uPlot.pxRatio;
    var src = u.ctx.canvas, head = 48 * px;
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
    out.toBlob(callback, 'image/png');
  };

  HP.Chart = Chart;
})();
