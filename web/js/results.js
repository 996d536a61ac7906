// The results card: the analysis in groups of rows, and the reading of a measured run.
// Each value cell carries data-key and data-value (the module's number, unformatted), so a test
// or a script can read exactly what the module returned.
import * as fmt from './format.js';
import * as summary from './summary.js';
import * as svg from './svg.js';
var L = window.HP_I18N;
var T = L.text;
var $ = function (id) { return document.getElementById(id); };
var esc = svg.esc;

var GROUPS = [
  ['group_makespan', ['T_free', 'T_async', 'T_block', 'T_gpipe']],
  ['group_bias', ['homogeneity_bias', 'full_bias', 'phase_transition', 'overlap_gap', 'effective_slope', 'T_rho', 'gpipe_overestimate', 'overlap_headroom']],
  ['group_throughput', ['asymptotic_throughput_async', 'asymptotic_throughput_blocking', 'crossover_batches']],
  ['group_real', ['T_real', 'overlap_ratio', 'T_real_position']],
  ['group_pipeline', ['S', 'M', 'rho', 'tau_max', 'sigma_max', 'bottleneck_stage', 'blocking_bottleneck_stage']],
  ['group_links', ['tau', 'd', 'sigma', 'link_slack', 'link_margin']]
];
var LIST_SHOWN = 16;     // a list is cut to this many values on screen
var LIST_IN_FULL = 64;   // up to this many, data-value keeps the whole list; past it, its ends only
var LIST_ENDS = 8;       // values kept from each end of a summarized list

// Fields in the time unit, and throughputs per time unit.
var TIMES = /^(T_(free|async|block|gpipe|real|rho)|\w+_bias|overlap_gap|effective_slope|tau|tau_max|d|sigma|sigma_max|link_slack|link_margin)$/;

function display(key, x) {
  var text = plain(key, x);
  if (TIMES.test(key) && fmt.unit() && text !== T.none) return text + '\u00a0' + fmt.unit();
  if (key.indexOf('asymptotic_throughput') === 0) return fmt.rate(x);
  return text;
}

function plain(key, x) {
  if (typeof x === 'boolean') return x ? T.yes : T.no;
  if (typeof x === 'string') return L.position[x] || x;
  if (Array.isArray(x) || ArrayBuffer.isView(x)) {
    if (x.length === 0) return T.none;
    if (x.length > LIST_IN_FULL) {
      return ends(x, LIST_ENDS).map(function (v) { return v === null ? '…' : fmt.number(v); }).join(T.listSeparator) +
        ' ' + T.summarized(fmt.integer(x.length));
    }
    var shown = Array.prototype.slice.call(x, 0, LIST_SHOWN).map(fmt.number).join(T.listSeparator);
    return x.length > LIST_SHOWN ? shown + ' ' + T.moreItems(x.length) : shown;
  }
  if (key === 'S' || key === 'M') return fmt.integer(x);
  if (key === 'bottleneck_stage' || key === 'blocking_bottleneck_stage') return T.stage(x);
  if (key === 'gpipe_overestimate') return fmt.percent(x);
  return fmt.number(x);
}

// The first and last n values with null between them.
function ends(x, n) {
  var head = Array.prototype.slice.call(x, 0, n), tail = Array.prototype.slice.call(x, x.length - n);
  return head.concat([null], tail);
}

// A huge pipeline must not put megabytes into the page: past LIST_IN_FULL values only the ends
// go into data-value (the JSON export carries every value).
function rawValue(x) {
  if (!Array.isArray(x) && !ArrayBuffer.isView(x)) return String(x);
  var values = x.length > LIST_IN_FULL ? ends(x, LIST_ENDS) : Array.prototype.slice.call(x);
  return values.map(function (v) { return v === null ? '…' : String(v); }).join(',');
}

function isList(x) { return Array.isArray(x) || ArrayBuffer.isView(x); }

// The groups, then every field the module returns that no group names, so that a field added to
// the core's analysis visitor shows on the page with no other change.
function groupsOf(a) {
  var named = {};
  GROUPS.forEach(function (g) { g[1].forEach(function (k) { named[k] = true; }); });
  var other = Object.keys(a).filter(function (k) { return !named[k]; });
  return other.length ? GROUPS.concat([['group_other', other]]) : GROUPS;
}

function renderGroups(a) {
  $('result-groups').innerHTML = groupsOf(a).map(function (g) {
    var rows = g[1].filter(function (k) { return a[k] !== undefined; });
    if (rows.length === 0) return '';
    return '<h3>' + esc(T[g[0]]) + '</h3><table class="results-table ' + g[0] + '"><tbody>' + rows.map(function (k) {
      var x = a[k], flag = (k === 'phase_transition' && x) ? ' flag' : '';
      var count = isList(x) ? '" data-count="' + x.length : '';
      return '<tr><th scope="row">' + esc(L.results[k] || k) + '</th><td class="val' + flag + (isList(x) ? ' list' : '') +
        '" data-key="' + k + count + '" data-value="' + esc(rawValue(x)) + '">' + esc(display(k, x)) + '</td></tr>';
    }).join('') + '</tbody></table>';
  }).join('');
}

function renderReconcile(a) {
  var box = $('reconcile');
  if (a.T_real === undefined) { box.hidden = true; box.textContent = ''; return; }
  var parts = [L.reconcile[a.T_real_position]], r = a.overlap_ratio;
  // The measured overlap is only a fraction inside the sandwich; outside it, it is flagged as such.
  if (r === undefined) parts.push(L.reconcile.noHeadroom);
  else if (r >= 0 && r <= 1) parts.push(L.reconcile.ratio(fmt.number(r)));
  else parts.push(L.reconcile.outside(fmt.number(r)));
  box.className = 'reconcile ' + a.T_real_position + (a.overlap_ratio === undefined ? ' no-headroom' : '');
  box.innerHTML = parts.map(function (p) { return '<p>' + esc(p) + '</p>'; }).join('');
  box.hidden = false;
}

// Returns the summary's sentence (app.js announces it once typing settles).
function show(a) {
  current(true);
  $('results-invalid').hidden = true;
  $('result-groups').hidden = $('summary').hidden = false;
  renderGroups(a);
  renderReconcile(a);
  return summary.show(a);
}

// Bad input: the last valid results stay where they are, dimmed and marked as not current, so
// nothing on the page moves; with none yet (a bad link), the page says what to fix.
function stale(hadResults) {
  current(false);
  if (!hadResults) {
    $('results-invalid').hidden = false;
    $('result-groups').hidden = $('summary').hidden = true;
  }
}

function current(yes) {
  $('stale-badge').hidden = yes;
  ['results', 'details'].forEach(function (id) {
    $(id).classList.toggle('stale', !yes);
    $(id).setAttribute('data-current', String(yes));
  });
}

export { show, stale };
