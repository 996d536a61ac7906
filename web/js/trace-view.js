// Draws an imported trace (hp.importTrace's result; docs/traces.md#the-result): the recovered
// model and where the run sits in the sandwich, the per-stage, per-link and per-rank tables, the
// warnings, or for a trace that is no pipeline its reason. Every number is the core's.
import * as fmt from './format.js';
import * as svg from './svg.js';
var R = window.HP_I18N.trace;
var esc = svg.esc;

var num = fmt.number;
var row = window.HP_I18N.text.stageRow;
var list = function (xs) { return Array.prototype.map.call(xs, num).join(window.HP_I18N.text.listSeparator); };

function table(head, rows) {
  return '<div class="trace-scroll" tabindex="0" role="region" aria-label="' + esc(head[0]) + '"><table class="trace-table"><thead><tr><th>' +
    head.slice(1).map(esc).join('</th><th>') + '</th></tr></thead><tbody>' +
    rows.map(function (r) { return '<tr><td>' + r.join('</td><td>') + '</td></tr>'; }).join('') + '</tbody></table></div>';
}

function stat(s) { return [s.min, s.p50, s.mean, s.p95, s.max].map(num); }

function ranks(r) {
  return '<h3>' + esc(R.ranksHeading) + '</h3>' + table([R.ranksHeading].concat(R.rankCols), r.ranks.map(function (k) {
    return [k.rank, k.stage < 0 ? '—' : row(k.stage), k.kernels, k.compute_kernels, k.transfer_kernels, k.collective_kernels, k.streams,
      num(k.compute_time), num(k.communication_time)].map(String);
  }));
}

function summary(r) {
  var a = r.analysis;
  // Each with its key and the core's value as data (the tests compare them with the module's).
  var items = [['τ', list(r.tau), 'tau', r.tau], ['d', r.d.length ? list(r.d) : '—', 'd', r.d], ['M', String(r.M), 'M', r.M],
    ['T_real', num(r.T_real), 'T_real', r.T_real], ['T_async / T_block', num(a.T_async) + ' / ' + num(a.T_block), 'bounds', [a.T_async, a.T_block]],
    [R.overlap, r.overlap_ratio === undefined ? R.noHeadroom : num(r.overlap_ratio), 'overlap_ratio', r.overlap_ratio],
    [R.offsets, list(r.clock_offsets), 'clock_offsets', r.clock_offsets], [R.bottleneck, row(a.bottleneck_stage), 'bottleneck', a.bottleneck_stage]];
  var wide = { tau: 1, d: 1, clock_offsets: 1 };  // lists take a row of their own
  return '<dl class="summary trace-summary">' + items.map(function (i) {
    return '<div' + (wide[i[2]] ? ' class="wide"' : '') + '><dt>' + esc(i[0]) + '</dt><dd data-key="' + i[2] + '" data-value="' +
      (i[3] === undefined ? '' : esc(Array.prototype.map.call([].concat(i[3]), String).join(','))) + '">' + esc(i[1]) + '</dd></div>';
  }).join('') + '</dl>';
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
  return head + '<p class="trace-headline" role="status">' + esc(R.headline(r.tau.length, r.M, num(r.T_real) + ' ' + unit,
    R.position[r.position] || '')) + '</p>' + summary(r) +
    '<button type="button" id="trace-use">' + esc(R.use) + '</button>' +
    '<h3>' + esc(R.ganttHeading) + '</h3><div class="gantt-bar"><label>' + esc(R.exactRegime) + ' <select id="trace-regime">' +
    ['async', 'blocking'].map(function (g) { return '<option value="' + g + '">' + esc(window.HP_I18N.text['regime_' + g]) + '</option>'; }).join('') +
    '</select></label></div><p id="trace-gantt-note" class="hint"></p><div id="trace-m" class="svgbox"></div><div id="trace-x" class="svgbox"></div>' +
    stages(r) + links(r) + ranks(r) + warnings(r);
}

export { render };
