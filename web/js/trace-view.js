// Draws an imported trace (hp.importTrace's result; docs/traces.md#the-result): first T_real in
// its named parts (a sentence and a stacked bar), then the recovered model and where the run sits
// in the sandwich, the per-stage, per-link and per-rank tables, the warnings, or for a trace that
// is no pipeline its reason. Every number is the core's.
import * as fmt from './format.js';
import * as svg from './svg.js';
var R = window.HP_I18N.trace;
var esc = svg.esc;

var num = fmt.number;
var row = window.HP_I18N.text.stageRow;
var list = function (xs) { return Array.prototype.map.call(xs, num).join(window.HP_I18N.text.listSeparator); };

// Each cell carries its column's name, which a narrow screen shows before the value (the stacked
// layout of .stack-table, calculator.css).
function table(head, rows) {
  var cols = head.slice(1);
  return '<div class="trace-scroll" tabindex="0" role="region" aria-label="' + esc(head[0]) + '"><table class="trace-table stack-table"><thead><tr><th>' +
    cols.map(esc).join('</th><th>') + '</th></tr></thead><tbody>' +
    rows.map(function (r) {
      return '<tr>' + r.map(function (c, i) { return '<td data-label="' + esc(cols[i]) + '">' + c + '</td>'; }).join('') + '</tr>';
    }).join('') + '</tbody></table></div>';
}

function stat(s) { return [s.min, s.p50, s.mean, s.p95, s.max].map(num); }

function ranks(r) {
  return '<h3>' + esc(R.ranksHeading) + '</h3>' + table([R.ranksHeading].concat(R.rankCols), r.ranks.map(function (k) {
    return [k.rank, k.stage < 0 ? '—' : row(k.stage), k.kernels, k.compute_kernels, k.transfer_kernels, k.collective_kernels, k.streams,
      num(k.compute_time), num(k.communication_time)].map(String);
  }));
}

// A ratio, or a dash with its reason on a line of its own in small type (no long value to wrap);
// a ratio outside [0, 1] (T_real outside its bounds) with a line saying it is no overlap ratio.
function ratio(x) {
  if (x === undefined) return '—<small>' + esc(R.noHeadroom) + '</small>';
  return esc(num(x)) + (x < 0 || x > 1 ? '<small>' + esc(R.outsideModel) + '</small>' : '');
}

function summary(r) {
  var a = r.analysis;
  // Each with its key and the core's value as data (the tests compare them with the module's),
  // and its markup, escaped.
  var items = [['τ', esc(list(r.tau)), 'tau', r.tau], ['d', esc(r.d.length ? list(r.d) : '—'), 'd', r.d], ['M', String(r.M), 'M', r.M],
    ['T_real', esc(num(r.T_real)), 'T_real', r.T_real], ['T_async / T_block', esc(num(a.T_async) + ' / ' + num(a.T_block)), 'bounds', [a.T_async, a.T_block]],
    [R.overlap, ratio(r.overlap_ratio), 'overlap_ratio', r.overlap_ratio]];
  if (r.replay) {
    items.push([R.replay, esc(num(r.replay.async) + ' / ' + num(r.replay.blocking)), 'replay', [r.replay.async, r.replay.blocking]],
      [R.overlapReplay, ratio(r.overlap_ratio_replay), 'overlap_ratio_replay', r.overlap_ratio_replay]);
  }
  items.push([R.offsets, esc(list(r.clock_offsets)), 'clock_offsets', r.clock_offsets], [R.bottleneck, esc(row(a.bottleneck_stage)), 'bottleneck', a.bottleneck_stage]);
  var wide = { tau: 1, d: 1, clock_offsets: 1 };  // lists take a row of their own
  return '<dl class="summary trace-summary">' + items.map(function (i) {
    return '<div' + (wide[i[2]] ? ' class="wide"' : '') + '><dt>' + esc(i[0]) + '</dt><dd data-key="' + i[2] + '" data-value="' +
      (i[3] === undefined ? '' : esc(Array.prototype.map.call([].concat(i[3]), String).join(','))) + '">' + i[1] + '</dd></div>';
  }).join('') + '</dl>';
}

// T_real in its parts (model, variability, blocking, other), stacked from 0 in order: a part
// below 0 is drawn leftwards from the sum so far, hatched, so the bar still ends at T_real.
function explainBar(r, sentence) {
  var W = 640, H = 58, pad = 10, top = 6, h = 20;
  var at = 0, lo = 0, hi = 0;
  var segs = r.explain.map(function (p) {
    var from = at;
    at += p.time;
    lo = Math.min(lo, at);
    hi = Math.max(hi, at);
    return { cause: p.cause, time: p.time, a: Math.min(from, at), b: Math.max(from, at) };
  });
  var span = hi - lo || 1;
  var x = function (v) { return svg.n(pad + (v - lo) / span * (W - 2 * pad)); };
  var out = ['<svg xmlns="http://www.w3.org/2000/svg" class="explain-bar" viewBox="0 0 ' + W + ' ' + H + '" role="img" aria-label="' + esc(sentence) + '">',
    '<defs><pattern id="explain-negative" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
    '<rect class="negative-bg" width="6" height="6"/><line class="negative-line" x1="0" y1="0" x2="0" y2="6"/></pattern></defs>'];
  segs.forEach(function (s) {
    if (s.b <= s.a) return;
    out.push('<rect class="part ' + s.cause + (s.time < 0 ? ' negative' : '') + '" data-cause="' + s.cause + '" data-time="' + s.time +
      '" x="' + x(s.a) + '" y="' + top + '" width="' + svg.n(x(s.b) - x(s.a)) + '" height="' + h + '"><title>' +
      esc(R.cause[s.cause] + ' ' + num(s.time)) + '</title></rect>');
  });
  // T_real, where the parts end, and the axis below.
  out.push('<line class="explain-total" x1="' + x(at) + '" x2="' + x(at) + '" y1="' + (top - 4) + '" y2="' + (top + h + 4) + '"/>');
  svg.ticksIn(lo, hi, 6).forEach(function (t) {
    out.push('<text class="tick" x="' + x(t) + '" y="' + (top + h + 18) + '" text-anchor="middle">' + esc(fmt.axis(t)) + '</text>');
  });
  return out.join('') + '</svg>';
}

// The explanation first: the sentence, the bar and its legend.
function explanation(r, unit) {
  if (!r.explain || !r.explain.length) return '';
  var sentence = R.explainSentence(num(r.T_real), unit, r.explain.map(function (p) { return [R.cause[p.cause], num(p.time)]; }));
  return '<div class="trace-explain"><h3>' + esc(R.explainHeading) + '</h3><p class="trace-explain-sentence">' + esc(sentence) + '</p>' +
    explainBar(r, sentence) + '<ul class="explain-legend">' + r.explain.map(function (p) {
      return '<li><span class="swatch ' + p.cause + '"></span>' + esc(R.cause[p.cause]) + '</li>';
    }).join('') + '</ul></div>';
}

function stages(r) {
  return '<h3>' + esc(R.stagesHeading) + '</h3>' + table([R.stagesHeading].concat(R.stageCols), r.stages.map(function (s) {
    return [row(s.stage), s.rank, s.microbatches, num(r.tau[s.stage])].concat(stat(s.span), [num(s.busy.min), num(s.busy.max)]).map(String);
  }));
}

function links(r) {
  if (!r.links.length) return '';
  return '<h3>' + esc(R.linksHeading) + '</h3>' + table([R.linksHeading].concat(R.linkCols), r.links.map(function (l) {
    return [row(l.link) + '→' + row(l.link + 1), l.from_rank + '→' + l.to_rank, l.pairs, num(r.d[l.link])].concat(stat(l.d), [l.unmatched]).map(String);
  }));
}

function warnings(r) {
  if (!r.warnings.length) return '';
  return '<h3>' + esc(R.warningsHeading) + '</h3><ul class="trace-warnings">' + r.warnings.map(function (w) {
    return '<li>' + esc(R.warning(w)) + '</li>';
  }).join('') + '</ul>';
}

// The result's markup; the two schedules are drawn after it is in the page (trace-gantt.js).
function render(r, names) {
  var unit = fmt.unitName(r.unit);
  var head = '<p class="trace-files">' + esc(R.filesRead(names.join(window.HP_I18N.text.listSeparator), unit, R['stat_' + r.stat])) + '</p>';
  if (!r.pipeline) {
    return head + '<p class="trace-headline" role="status">' + esc(R.notPipeline(R.reason(r))) + '</p>' +
      ranks(r) + warnings(r);
  }
  return head + explanation(r, unit) + '<p class="trace-headline" role="status">' + esc(R.headline(r.tau.length, r.M, num(r.T_real) + ' ' + unit,
    R.position[r.position] || '')) + '</p>' + summary(r) +
    '<button type="button" id="trace-use">' + esc(R.use) + '</button>' +
    '<h3>' + esc(R.ganttHeading) + '</h3><div class="gantt-bar"><label>' + esc(R.exactRegime) + ' <select id="trace-regime">' +
    ['async', 'blocking'].map(function (g) { return '<option value="' + g + '">' + esc(window.HP_I18N.text['regime_' + g]) + '</option>'; }).join('') +
    '</select></label></div><p id="trace-gantt-note" class="hint"></p><div id="trace-m" class="svgbox"></div><div id="trace-x" class="svgbox"></div>' +
    stages(r) + links(r) + ranks(r) + warnings(r);
}

export { render };
