// Files the page hands out: the analysis as JSON, the makespan curve and the schedule as CSV, pictures
// as PNG or SVG. Numbers are written as JavaScript writes them (the shortest text that reads back to
// the same double); pictures are light, whatever the page's theme.
//
// Loaded on the first export (tools.part('exports')), it registers download(kind, page).
import * as pictures from './pictures.js';
import { register } from './tools.js';
var T = window.HP_I18N.text;

function save(name, blob) {
  var url = URL.createObjectURL(blob), a = document.createElement('a');
  a.href = url; a.download = name; a.hidden = true;
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
}

// The analysis under the version that computed it and the time unit its times are in (null: none).
function json(analysis, version, unit) {
  return JSON.stringify(Object.assign({ heteropipe_version: version, time_unit: unit || null }, analysis), null, 2) + '\n';
}

// A time column's name carries the unit, as the trace reader takes it: start_ms (µs as us).
function timed(name, unit) { return unit ? name + '_' + unit.replace('µ', 'u') : name; }

var CSV_COLUMNS = ['M', 'T_free', 'T_async', 'T_block', 'T_gpipe', 'gpipe_overestimate'];
function csv(curve, unit) {
  var rows = [CSV_COLUMNS.map(function (k) { return /^T_/.test(k) ? timed(k, unit) : k; }).join(',')];
  for (var i = 0; i < curve.M.length; i++) {
    rows.push(CSV_COLUMNS.map(function (k) { return String(curve[k][i]); }).join(','));
  }
  return rows.join('\n') + '\n';
}

// The schedule the Gantt shows, one row per compute cell and per transfer (stage: the sender),
// stages and micro-batches counted from 0 as in the CLI's timeline; trace import reads it back.
function scheduleCsv(tl, unit) {
  var rows = ['stage,microbatch,kind,' + timed('start', unit) + ',' + timed('end', unit)], S = tl.S;
  for (var m = 0; m < tl.M; m++) {
    for (var s = 0; s < S; s++) {
      rows.push(s + ',' + m + ',compute,' + tl.compute_start[m * S + s] + ',' + tl.compute_finish[m * S + s]);
      if (s < S - 1) rows.push(s + ',' + m + ',transfer,' + tl.transfer_start[m * (S - 1) + s] + ',' + tl.transfer_finish[m * (S - 1) + s]);
    }
  }
  return rows.join('\n') + '\n';
}

// A standalone SVG file in the light theme: the picture is drawn again inside a light element, and
// the computed look of each kind of element (tag and classes) goes into one <style> block.
var PROPS = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'opacity', 'font-size', 'font-family', 'font-weight'];
function svg(el) {
  var host = document.createElement('div');
  host.className = 'theme-light offscreen';
  document.body.appendChild(host);
  var clone = el.cloneNode(true);
  clone.classList.remove('hl');
  clone.querySelectorAll('.on').forEach(function (r) { r.classList.remove('on'); });
  clone.querySelectorAll('[tabindex]').forEach(function (r) { r.removeAttribute('tabindex'); });
  host.appendChild(clone);
  var rules = {}, css = [];
  clone.querySelectorAll('*').forEach(function (node) {
    if (node.tagName === 'title') return;
    var sel = node.tagName + Array.prototype.map.call(node.classList, function (c) { return '.' + c; }).join('');
    if (rules[sel]) return;
    var cs = getComputedStyle(node);
    rules[sel] = true;
    css.push(sel + '{' + PROPS.map(function (p) { return p + ':' + cs.getPropertyValue(p); }).join(';') + '}');
  });
  var card = getComputedStyle(host).getPropertyValue('--card').trim();
  // Out of the page first: the page's CSP would refuse a <style> element inside it.
  host.remove();
  var ns = 'http://www.w3.org/2000/svg', style = document.createElementNS(ns, 'style'), bg = document.createElementNS(ns, 'rect');
  style.textContent = css.join('\n');
  bg.setAttribute('width', '100%'); bg.setAttribute('height', '100%'); bg.setAttribute('fill', card);
  clone.insertBefore(bg, clone.firstChild.nextSibling);
  clone.insertBefore(style, clone.firstChild.nextSibling);
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(clone) + '\n';
}

// One export button: kind is its data-export; page: the analysis shown (null while the input is
// bad), the Gantt regime, the module's version and the time unit.
function download(kind, page) {
  var analysis = page.analysis, base = 'heteropipe-';
  if (!analysis) return;
  if (kind === 'json') save(base + 'analysis.json', new Blob([json(analysis, page.version, page.unit)], { type: 'application/json' }));
  else if (kind === 'csv') save(base + 'makespan-curve.csv', new Blob([csv(pictures.curve(), page.unit)], { type: 'text/csv' }));
  else if (kind === 'csv-schedule' && pictures.timeline()) {
    save(base + 'schedule-' + page.regime + '.csv', new Blob([scheduleCsv(pictures.timeline(), page.unit)], { type: 'text/csv' }));
  }
  else if (kind === 'png-curve') pictures.png('curve', T.fig_curve, function (b) { save(base + 'makespan.png', b); });
  else if (kind === 'png-over') pictures.png('over', T.fig_over, function (b) { save(base + 'gpipe-overestimate.png', b); });
  else if (kind === 'svg-gantt' || kind === 'svg-slack') {
    var el = document.getElementById(kind === 'svg-gantt' ? 'chart-gantt' : 'chart-slack').querySelector('svg');
    if (el) save(base + (kind === 'svg-gantt' ? 'timeline-' + page.regime : 'link-slack') + '.svg', new Blob([svg(el)], { type: 'image/svg+xml' }));
  }
}

register('exports', { download: download });
