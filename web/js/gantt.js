// The schedule timeline (Gantt chart) as hand-written SVG, from the engine's exact timeline.
(function () {
  'use strict';
  var HP = window.HP = window.HP || {};
  var L = window.HP_I18N;
  var MAX_STAGES = 128;     // rows beyond this are unreadable on any screen
  var MAX_BATCHES = 24;     // the first micro-batches show the fill, the steady state and the bubbles
  var COLOURS = 6;

  function rowHeight(S) { return S <= 12 ? 24 : S <= 32 ? 14 : S <= 64 ? 8 : 5; }

  // tl: hp.timeline(...) for the first `shown` micro-batches; a: the analysis.
  function render(tl, a, regime, width) {
    var esc = HP.svg.esc, n = HP.svg.n;
    var S = tl.S, M = tl.M, rh = rowHeight(S), gap = Math.max(1, Math.round(rh / 6));
    var left = 64, right = 16, top = 8, axisH = 34;
    var W = Math.max(320, width), plotW = W - left - right, H = top + S * rh + axisH;
    var span = tl.makespan > 0 ? tl.makespan : 1;
    var x = function (t) { return left + (t / span) * plotW; };
    var bottleneck = regime === 'blocking' ? a.blocking_bottleneck_stage : a.bottleneck_stage;
    var out = [];
    out.push('<svg xmlns="http://www.w3.org/2000/svg" class="gantt" width="' + W + '" height="' + H +
      '" viewBox="0 0 ' + W + ' ' + H + '" role="img" aria-labelledby="gantt-title">');
    out.push('<title id="gantt-title">' + esc(L.text.fig_gantt + ' (' + L.text['regime_' + regime] + ')') + '</title>');
    out.push('<defs><pattern id="gantt-idle" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
      '<rect class="idle-bg" width="6" height="6"/><line class="idle-line" x1="0" y1="0" x2="0" y2="6"/></pattern></defs>');
    for (var s = 0; s < S; s++) {
      var y = top + s * rh;
      out.push('<rect class="idle" x="' + n(x(0)) + '" y="' + n(y + gap / 2) + '" width="' + n(plotW) + '" height="' + n(rh - gap) + '" fill="url(#gantt-idle)"/>');
      if (rh >= 8) {
        out.push('<text class="row-label' + (s === bottleneck ? ' bn' : '') + '" x="' + (left - 6) + '" y="' + n(y + rh / 2) +
          '" text-anchor="end" dominant-baseline="central">' + esc(L.text.stageRow(s)) + '</text>');
      }
    }
    // One path per colour for the bars and one for the transfers: a few elements instead of thousands
    // keeps a keystroke cheap at S = 64.
    var cs = tl.compute_start, cf = tl.compute_finish, ts = tl.transfer_start, tf = tl.transfer_finish;
    var bars = [], xfers = [], labels = [], label = rh >= 14, h = n(rh - gap);
    var holding = regime === 'blocking', th = holding ? rh - gap : Math.max(2, (rh - gap) / 4);
    for (var c = 0; c < COLOURS; c++) { bars.push([]); xfers.push([]); }
    for (var m = 0; m < M; m++) {
      var colour = m % COLOURS;
      for (s = 0; s < S; s++) {
        var i = m * S + s, x0 = x(cs[i]), w = x(cf[i]) - x0;
        y = top + s * rh + gap / 2;
        if (w > 0) {
          bars[colour].push('M' + n(x0) + ' ' + n(y) + 'h' + n(Math.max(w, 0.5)) + 'v' + h + 'h' + n(-Math.max(w, 0.5)) + 'z');
          if (label && w >= 16) {
            labels.push('<text class="bar-label" x="' + n(x0 + w / 2) + '" y="' + n(y + (rh - gap) / 2) + '" text-anchor="middle" dominant-baseline="central">' + (m + 1) + '</text>');
          }
        }
        if (s < S - 1) {
          // Blocking: the send holds the stage, so it fills the row; asynchronous: it runs beside it.
          var j = m * (S - 1) + s, t0 = x(ts[j]), tw = x(tf[j]) - t0;
          if (tw > 0) {
            var ty = holding ? y : y + (rh - gap) - th;
            xfers[colour].push('M' + n(t0) + ' ' + n(ty) + 'h' + n(Math.max(tw, 0.5)) + 'v' + n(th) + 'h' + n(-Math.max(tw, 0.5)) + 'z');
          }
        }
      }
    }
    for (c = 0; c < COLOURS; c++) {
      if (bars[c].length) out.push('<path class="mb mb' + c + '" data-bars="' + bars[c].length + '" d="' + bars[c].join('') + '"/>');
      if (xfers[c].length) out.push('<path class="xfer ' + (holding ? 'hold ' : '') + 'mb' + c + '" data-bars="' + xfers[c].length + '" d="' + xfers[c].join('') + '"/>');
    }
    out.push(labels.join(''));
    // The bottleneck row is outlined so it stands out at any size.
    out.push('<rect class="bn-outline" x="' + n(left - 2) + '" y="' + n(top + bottleneck * rh) + '" width="' + n(plotW + 4) + '" height="' + rh + '"/>');
    var axisY = top + S * rh + 2;
    out.push('<line class="axis" x1="' + left + '" y1="' + axisY + '" x2="' + (left + plotW) + '" y2="' + axisY + '"/>');
    HP.svg.ticks(span, Math.max(2, Math.floor(plotW / 90))).forEach(function (t) {
      var tx = n(x(t));
      out.push('<line class="axis" x1="' + tx + '" y1="' + axisY + '" x2="' + tx + '" y2="' + (axisY + 4) + '"/>');
      out.push('<text class="tick" x="' + tx + '" y="' + (axisY + 15) + '" text-anchor="middle">' + esc(HP.fmt.short(t)) + '</text>');
    });
    out.push('<text class="tick" x="' + (left + plotW) + '" y="' + (axisY + 30) + '" text-anchor="end">' + esc(L.text.axisTime) + '</text>');
    out.push('<text class="row-label bn" x="' + left + '" y="' + (axisY + 30) + '">' + esc(L.text.bottleneckMark + ': ' + L.text.stageRow(bottleneck)) + '</text>');
    out.push('</svg>');
    return out.join('');
  }

  HP.gantt = { render: render, MAX_STAGES: MAX_STAGES, MAX_BATCHES: MAX_BATCHES };
})();
