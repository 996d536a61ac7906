// "Measured run": trace files in (dropped or chosen in sections.js), imported by the whole module's
// hp.importTrace in a Web Worker (tools.run), so the page stays responsive for a trace of hundreds
// of megabytes, and drawn by trace-view.js and trace-gantt.js. The worker gets the Files themselves
// (a File crosses without its bytes): the module reads each in pieces, inflating gzip as it streams,
// straight into its own memory, so no whole copy of a text exists outside it. "Fill the calculator"
// hands the recovered tau, d, M and T_real to its fields. The import options are kept as typed in
// the permalink (the `trace` parameter); the files never are.
import * as svg from './svg.js';
import * as tools from './tools.js';
import * as traceGantt from './trace-gantt.js';
import * as traceView from './trace-view.js';
import * as undoFill from './undo-fill.js';
var R = window.HP_I18N.trace;
var $ = function (id) { return document.getElementById(id); };
var esc = svg.esc;
var OPTIONS = ['stage_order', 'compute', 'transfer', 'microbatch', 'profiler_step'];
// The option each of the core's fields is typed in.
var OPTION_OF = { stage_order: 'stage_order', compute_regex: 'compute', transfer_regex: 'transfer',
  microbatch_regex: 'microbatch', profiler_step: 'profiler_step', stat: 'stat' };
var STATS = ['min', 'p50', 'mean'];

var hp = null, files = [], result = null;
var run = 0;          // the current import's number: a later one makes every earlier answer stale
var pending = null;   // the current import in the worker, to cancel
var answered = 0;     // imports answered (a result or an error): tests and the benchmark wait for it
var onChange = function () {};  // gets the options' text for the permalink

function build(body) {
  body.innerHTML = '<div class="trace-bar"><progress id="trace-progress" max="1" value="0" hidden aria-label="' + esc(R.progressLabel) + '"></progress> ' +
    '<button type="button" id="trace-cancel" hidden>' + esc(R.cancel) + '</button></div>' +
    '<details class="trace-options"><summary>' + esc(R.optionsHeading) + '</summary><div class="grid">' +
    '<div class="field"><label for="trace-stat">' + esc(R.label_stat) + '</label><select id="trace-stat">' +
    STATS.map(function (s) { return '<option value="' + s + '"' + (s === 'p50' ? ' selected' : '') + '>' + esc(R['stat_' + s]) + '</option>'; }).join('') + '</select></div>' +
    OPTIONS.map(function (k) {
      return '<div class="field"><label for="trace-' + k + '">' + esc(R['label_' + k]) + '</label><input id="trace-' + k +
        '" type="text" autocomplete="off" spellcheck="false" placeholder="' + esc(R['hint_' + k]) + '"></div>';
    }).join('') + '</div><button type="button" id="trace-again">' + esc(R.again) + '</button></details>' +
    '<div id="trace-result"></div>';
  body.hidden = false;
  $('trace-cancel').addEventListener('click', cancel);
  $('trace-again').addEventListener('click', start);
  $('trace-stat').addEventListener('change', start);
  $('trace-result').addEventListener('click', function (ev) { if (ev.target.id === 'trace-use') fill(); });
  $('trace-result').addEventListener('change', function (ev) { if (ev.target.id === 'trace-regime') traceGantt.draw(hp, result, ev.target.value); });
  body.querySelector('.trace-options').addEventListener('input', function () { onChange(saveText()); });
}

// The options as typed, from the permalink's text (a hand-edited one that is no such object: none).
function restore(text) {
  var saved = null;
  try { saved = text ? JSON.parse(text) : null; } catch (e) { saved = null; }
  if (!saved || typeof saved !== 'object') return;
  if (STATS.indexOf(saved.stat) >= 0) $('trace-stat').value = saved.stat;
  OPTIONS.forEach(function (k) { if (typeof saved[k] === 'string') $('trace-' + k).value = saved[k]; });
}

// The options typed, for the permalink: those not left at their defaults; '' when none is.
function saveText() {
  var o = {};
  if ($('trace-stat').value !== 'p50') o.stat = $('trace-stat').value;
  OPTIONS.forEach(function (k) { if ($('trace-' + k).value) o[k] = $('trace-' + k).value; });
  return Object.keys(o).length ? JSON.stringify(o) : '';
}

// The import's options: the stat, and each option typed (the core reads and checks them). Times
// are in ms, the scale of a micro-batch on a GPU, whatever the calculator's unit: the first page's
// seconds would write a kernel's time as 0.00005.
function options() {
  var o = { stat: $('trace-stat').value, unit: 'ms' };
  OPTIONS.forEach(function (k) { if ($('trace-' + k).value.trim()) o[k] = $('trace-' + k).value.trim(); });
  // The step goes as typed: the core reads it as the CLI reads --profiler-step (a JS number would
  // turn 1e400 into Infinity, and 1e20 into 1e+20, before the core could name it).
  return o;
}

function busy(yes, text) {
  $('trace-cancel').hidden = !yes;
  $('trace-progress').hidden = !yes;
  if (!yes) pending = null;
  $('trace-status').textContent = text;
}

function cancel() {
  if (!pending) return;
  pending.cancel();
  run++;
  busy(false, R.cancelled);
}

function start() {
  if (!files.length) return;
  if (pending) pending.cancel();
  var mine = ++run;
  var names = files.map(function (f) { return f.name; });
  document.querySelectorAll('.trace-options [aria-invalid]').forEach(function (c) {
    c.removeAttribute('aria-invalid');
    c.removeAttribute('aria-describedby');
  });
  busy(true, R.reading(files.length));
  $('trace-progress').value = 0;
  // The fraction of the files' (compressed) bytes read; then the core reads the text.
  function progress(f) {
    if (mine !== run) return;
    $('trace-progress').value = f;
    if (f < 1) return;
    $('trace-status').textContent = R.importing;
    $('trace-progress').removeAttribute('value');  // indeterminate while the core reads
  }
  var texts = files.map(function (f) { return { name: f.name, bytes: f }; });
  pending = tools.run('importTrace', [texts, options()], { onProgress: progress });
  pending.promise.then(function (r) {
    if (mine !== run) return;
    busy(false, '');
    show(r, names);
    $('trace-body').setAttribute('data-answered', String(++answered));
  }, function (e) {
    if (mine !== run || (e && e.cancelled)) return;
    busy(false, '');
    result = null;
    // An option's error names the option by its label, and marks it (opening the options to show it).
    var option = e && e.code && OPTION_OF[e.field] ? OPTION_OF[e.field] : null;
    var text = e && e.code ? R.error(e, hp.limits, option && R['label_' + option]) : R.failed + ' ' + ((e && e.message) || '');
    $('trace-result').innerHTML = '<p class="error" role="alert" id="trace-error">' + esc(text) + '</p>';
    if (option) {
      var control = $('trace-' + option);
      control.setAttribute('aria-invalid', 'true');
      control.setAttribute('aria-describedby', 'trace-error');
      control.closest('details').open = true;
    }
    $('trace-body').setAttribute('data-answered', String(++answered));
  });
}

function show(r, names) {
  result = r;
  $('trace-result').innerHTML = traceView.render(r, names);
  if (r.pipeline) traceGantt.draw(hp, r, $('trace-regime').value);
}

// The recovered model into the calculator as typed text, in the result's unit, with Undo back to
// what the fields held (undo-fill.js), as the planner's "Use this pipeline" does.
function fill() {
  if (!result || !result.pipeline) return;
  // 12 significant digits keep every digit the trace holds (nanoseconds, up to hours in any unit).
  var text = function (xs) { return undoFill.typedList(xs, 12); };
  undoFill.fill({ unit: result.unit, tau: text(result.tau), d: text(result.d), M: text([result.M]), T_real: text([result.T_real]) },
    R.filled);
  $('inputs').scrollIntoView();
}

// Files dropped or chosen, with the page's module hp (its timeline draws the exact schedule): imported
// at once, with the options the permalink saved (`saved`) the first time; `changed` gets them as typed.
function take(module, list, saved, changed) {
  hp = module;
  files = Array.prototype.slice.call(list);
  if (changed) onChange = changed;
  if (!$('trace-result')) {
    build($('trace-body'));
    restore(saved);
  }
  start();
}

export { take };
