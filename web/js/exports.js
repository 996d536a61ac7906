// Files the page hands out: the analysis as JSON, the makespan curve as CSV, pictures as PNG or SVG.
(function () {
  'use strict';
  var HP = window.HP = window.HP || {};
  var T = window.HP_I18N.text;

  function save(name, blob) {
    var url = URL.createObjectURL(blob), a = document.createElement('a');
    a.href = url; a.download = name; a.hidden = true;
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }

  function json(analysis) { return JSON.stringify(analysis, null, 2) + '\n'; }

  var CSV_COLUMNS = ['M', 'T_free', 'T_async', 'T_block', 'T_gpipe', 'gpipe_overestimate'];
  // Full precision (String(x)) so a spreadsheet gets exactly the module's numbers.
  function csv(curve) {
    var rows = [CSV_COLUMNS.join(',')];
    for (var i = 0; i < curve.M.length; i++) {
      rows.push(CSV_COLUMNS.map(function (k) { return String(curve[k][i]); }).join(','));
    }
    return rows.join('\n') + '\n';
  }

  // A standalone SVG file: the page styles the picture through CSS classes, so copy the computed
  // colours onto each element before it leaves the page.
  var PROPS = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'opacity', 'font-size', 'font-family', 'font-weight'];
  function svg(el) {
    var clone = el.cloneNode(true), src = el.querySelectorAll('*'), dst = clone.querySelectorAll('*');
    for (var i = 0; i < src.length; i++) {
      var cs = getComputedStyle(src[i]);
      PROPS.forEach(function (p) { var v = cs.getPropertyValue(p); if (v && !dst[i].hasAttribute(p)) dst[i].setAttribute(p, v); });
    }
    var bg = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    bg.setAttribute('width', '100%'); bg.setAttribute('height', '100%');
    bg.setAttribute('fill', getComputedStyle(document.documentElement).getPropertyValue('--card').trim());
    clone.insertBefore(bg, clone.firstChild.nextSibling);
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(clone) + '\n';
  }

  // One export button: kind is its data-export; analysis the one shown (null while the input is bad).
  function download(kind, analysis, regime) {
    if (!analysis) return;
    var base = 'heteropipe-';
    if (kind === 'json') save(base + 'analysis.json', new Blob([json(analysis)], { type: 'application/json' }));
    else if (kind === 'csv') save(base + 'makespan-curve.csv', new Blob([csv(HP.pictures.curve())], { type: 'text/csv' }));
    else if (kind === 'png-curve') HP.pictures.png('curve', T.fig_curve, function (b) { save(base + 'makespan.png', b); });
    else if (kind === 'png-over') HP.pictures.png('over', T.fig_over, function (b) { save(base + 'gpipe-overestimate.png', b); });
    else if (kind === 'svg-gantt' || kind === 'svg-slack') {
      var el = document.getElementById(kind === 'svg-gantt' ? 'chart-gantt' : 'chart-slack').querySelector('svg');
      if (el) save(base + (kind === 'svg-gantt' ? 'timeline-' + regime : 'link-slack') + '.svg', new Blob([svg(el)], { type: 'image/svg+xml' }));
    }
  }

  HP.exports = { save: save, json: json, csv: csv, svg: svg, download: download, CSV_COLUMNS: CSV_COLUMNS };
})();
