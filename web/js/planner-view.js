// Draws a plan (hp.plan's result; docs/planner.md#the-result): one bar per device over the model's
// layers with its memory fill, the stages' table, the optimum beside the even and the
// memory-proportional splits, and the runtime flags to copy. Every number is the core's.
import * as fieldErrors from './field-errors.js';
import * as fmt from './format.js';
import * as svg from './svg.js';
import * as undoFill from './undo-fill.js';
var P = window.HP_I18N.plan;
var T = window.HP_I18N.text;
var esc = svg.esc, n = svg.n;
var $ = function (id) { return document.getElementById(id); };

var current = null;  // the plan shown, whose pipeline "Use this pipeline" loads

var GiB = 1073741824;
var bytes = function (b) { return fmt.four(b / GiB) + ' ' + P.gib; };

// One row per device: its name, then where its layers sit among all L and how full its memory is.
// Drawn at the box's own width, so that the names keep their size on a phone.
function bars(plan, names, width) {
  var L = plan.stages[plan.stages.length - 1].last_layer + 1;
  var W = Math.max(280, Math.min(720, width || 640)), row = 42, H = plan.stages.length * row + 20, span = W - 2;
  var out = ['<svg class="plan-bars" width="' + W + '" height="' + H + '" viewBox="0 0 ' + W + ' ' + H + '" role="img" aria-label="' + esc(P.barsLabel) + '">'];
  plan.stages.forEach(function (s, k) {
    var y = 4 + k * row, x = 1 + span * s.first_layer / L, w = Math.max(1, span * s.layers / L);
    var fill = Math.min(1, s.memory_used / s.memory_capacity);
    out.push('<text class="plan-name" x="1" y="' + n(y + 12) + '">' + esc(names[s.device]) + '</text>',
      '<rect class="plan-layer c' + (k % 6) + '" x="' + n(x) + '" y="' + (y + 17) + '" width="' + n(w) + '" height="12" rx="2"><title>' +
      esc(P.stageTitle(s.device, s.first_layer, s.last_layer, s.layers)) + '</title></rect>',
      '<rect class="plan-memory-cap" x="' + n(x) + '" y="' + (y + 31) + '" width="' + n(w) + '" height="5"></rect>',
      '<rect class="plan-memory" x="' + n(x) + '" y="' + (y + 31) + '" width="' + n(w * fill) + '" height="5"><title>' +
      esc(P.memoryTitle(bytes(s.memory_used), bytes(s.memory_capacity))) + '</title></rect>');
  });
  out.push('<text class="plan-axis" x="1" y="' + (H - 4) + '">0</text>',
    '<text class="plan-axis" x="' + (W - 1) + '" y="' + (H - 4) + '" text-anchor="end">' + esc(P.layersAxis(L)) + '</text></svg>');
  return out.join('');
}

// A table that scrolls sideways on its own when a phone is too narrow for it.
// Focusable, so that a keyboard can scroll a table wider than a phone.
var scroll = function (table) { return '<div class="plan-scroll" tabindex="0">' + table + '</div>'; };
// A row's cells, each with its column's name, which a narrow screen shows before the value (the
// stacked layout of .stack-table, calculator.css); cells: markup, heads: plain text.
var cells = function (heads, cells) {
  return cells.map(function (c, i) { return '<td data-label="' + esc(heads[i]) + '">' + c + '</td>'; }).join('');
};

function stagesTable(plan, names) {
  var heads = [P.colDevice, P.colLayers, P.colCount, P.colTau, P.colMemory];
  return scroll('<table class="plan-table plan-stages stack-table"><thead><tr><th>' + heads.map(esc).join('</th><th>') +
    '</th></tr></thead><tbody>' + plan.stages.map(function (s) {
      return '<tr>' + cells(heads, [esc(names[s.device]), s.first_layer + '–' + s.last_layer, s.layers, fmt.four(s.tau),
        bytes(s.memory_used) + ' / ' + bytes(s.memory_capacity)]) + '</tr>';
    }).join('') + '</tbody></table>');
}

// A speed's band (the core's tokens_per_second_band) with its ends formatted; null when it has none.
function band(x) {
  var b = x.tokens_per_second_band;
  return b ? [fmt.four(b[0]), fmt.four(b[1])] : null;
}

// A speed and its band, in the page's words: '17.6 tok/s (typically 15–20)'.
function speed(x) { return P.speed(fmt.four(x.tokens_per_second), band(x)); }

// The optimum beside the two rules runtimes use by default: the headline is what those cost.
function baselines(plan) {
  var rows = [[P.optimal, plan, null]].concat(['even', 'memory_proportional'].map(function (k) {
    return [P['baseline_' + k], plan.baselines[k], plan.baselines[k]];
  }));
  var heads = [P.colSplit, P.colTokens(fmt.integer(plan.analysis.M)), P.colObjective, P.colLoss];
  return scroll('<table class="plan-table stack-table"><thead><tr><th>' + heads.map(esc).join('</th><th>') +
    '</th></tr></thead><tbody>' + rows.map(function (r) {
      var b = r[1];
      var why = b.feasible === false ? (b.reason === 'memory' ? P.infeasible : P.idle_device) : '';
      return '<tr>' + cells(heads, [esc(r[0]) + (why ? ' <span class="plan-warn">(' + esc(why) + ')</span>' : ''),
        esc(P.speedCell(fmt.four(b.tokens_per_second), band(b))), fmt.four(b.objective_value),
        r[2] ? fmt.short(r[2].loss_percent) + '%' : '—']) + '</tr>';
    }).join('') + '</tbody></table>');
}

// Each runtime's whole command (the core's) with a button that copies it (planner.js handles the clicks).
function flags(runtime) {
  var lines = [['vLLM', runtime.vllm_command], ['SGLang', runtime.sglang_command], ['llama.cpp', runtime.llama_cpp_command]];
  return '<h3>' + esc(P.flagsHeading) + '</h3><dl class="plan-flags">' + lines.map(function (l) {
    return '<dt>' + esc(l[0]) + '</dt><dd><code>' + esc(l[1]) + '</code> <button type="button" data-copy="' + esc(l[1]) +
      '" aria-label="' + esc(P.copy + T.colon + l[0]) + '">' + esc(P.copy) + '</button></dd>';
  }).join('') + '</dl><p class="plan-flags-note">' + esc(P.flagsNote) + '</p><p id="plan-copied" role="status"></p>';
}

// The answer's first sentence, its main point, chosen from the core's numbers: a device that holds the
// fewest layers and whose removal costs nothing (the what-if); else what the default split loses (the
// feasible baseline the headline compares); else the plan's speed.
function lead(plan, names, which) {
  var fewest = plan.stages.reduce(function (a, s) { return s.layers < a.layers ? s : a; }, plan.stages[0]);
  var without = plan.what_if.filter(function (w) { return w.change === 'remove' && w.device === fewest.device; })[0];
  if (plan.stages.length > 1 && without && without.feasible && without.tokens_per_second_change >= 0) {
    return P.leadSpare(fewest.device, names[fewest.device], fewest.layers, speed(without));
  }
  if (which && plan.baselines[which].loss_percent > 0) return P.leadBeats(speed(plan), fmt.short(plan.baselines[which].loss_percent), which);
  return P.leadSpeed(speed(plan));
}

// A stage above 95 % of its device's memory (the core's warnings), marked for the eye and for tests.
function warnings(plan, names) {
  return plan.warnings.map(function (w) {
    return '<p class="plan-warn plan-memory-warning" data-warning="memory">' +
      esc(P.memoryWarning(w.device, names[w.device], fmt.four(w.fraction * 100))) + '</p>';
  }).join('');
}

// Why a what-if has no split (its reason, the core's error code): too few layers, or too little memory.
function infeasible(w) { return w.reason === 'fewer_layers_than_devices' ? P.whatIfNoLayer : P.whatIfInfeasible; }

// "Why did adding a GPU make it slower?": the plan re-solved with one device less or one more.
function whatIf(plan, names) {
  if (!plan.what_if.length) return '';
  return '<h3>' + esc(P.whatIfHeading) + '</h3><ul class="plan-whatif">' + plan.what_if.map(function (w) {
    var what = w.change === 'remove' ? P.without(w.device, names[w.device]) : P.withAnother(names[w.device]);
    var change = (w.tokens_per_second_change > 0 ? '+' : '') + fmt.four(w.tokens_per_second_change);
    return '<li>' + esc(what) + esc(T.colon) + esc(w.feasible ? P.whatIfSpeed(speed(w), change) : infeasible(w)) + '</li>';
  }).join('') + '</ul>';
}

// A memory error of the whole chain, which says what would fit (one device too small for any layer
// is that device's).
function wholeChain(e) {
  return e.fits_quant !== undefined && e.code !== 'device_too_small';
}

// The form's control an error is about: a field of the form, a device's select or typed fact, or a
// link's select; null for the input as a whole (its error goes above the result).
var FORM_FIELDS = ['model', 'quant', 'context', 'phase', 'tokens', 'M', 'objective'];
// A llama-bench record's fields: their errors go under the bench file's field.
var BENCH_FIELDS = ['calibration', 'gpu_info', 'device', 'model_size', 'model_n_params', 'n_prompt', 'n_gen'];
function isBenchError(e) { return BENCH_FIELDS.indexOf(e.field) >= 0; }
function control(e) {
  var c = formControl(e);
  // A hidden control (the catalog model's while a file's model plans) cannot show its error.
  return c && !c.closest('[hidden]') ? c : null;
}
function formControl(e) {
  if (wholeChain(e)) return null;
  if (FORM_FIELDS.indexOf(e.field) >= 0) return $('plan-' + e.field);
  if (BENCH_FIELDS.indexOf(e.field) >= 0) return $('plan-bench');
  var i = e.index === null || e.index === undefined ? 0 : e.index;
  if (e.field === 'devices') return document.querySelector('#plan-devices select[data-device="' + i + '"]');
  if (e.field === 'links') return document.querySelector('#plan-devices select[data-link="' + i + '"]');
  return document.querySelector('#plan-devices input[data-device="' + i + '"][data-fact="' + e.field + '"]');
}

// The words the form shows for the field (the error's own position follows them).
function label(e) {
  if (FORM_FIELDS.indexOf(e.field) >= 0) return P['label_' + e.field];
  // The bench file, and a record's key as the file spells it.
  if (BENCH_FIELDS.indexOf(e.field) >= 0) return P.error_bench + (e.field === 'calibration' ? '' : T.colon + e.field);
  if (e.field === 'devices' || e.field === 'links') return P['error_' + e.field];
  return P['fact_' + e.field];
}

var FORM = { id: 'plan', controls: '#plan-form [aria-invalid], #plan-devices [aria-invalid], #plan-bench[aria-invalid]', result: 'plan-result',
  alert: 'plan-alert', before: 'plan-result', control: control, label: label };

// Every bad field's error under its field, as the calculator does; the last good plan stays, dimmed.
// limits: the module's, which the page's language words the errors with.
function showErrors(errors, limits) {
  $('plan-use').disabled = true;
  fieldErrors.show(FORM, errors, limits);
  $('plan-result').classList.add('stale');
  // A chain without room: what is missing and what would fit, above the result, marked for tests.
  var box = $('plan-section-errors');
  if (box && errors.some(wholeChain)) box.setAttribute('data-error', 'memory');
}

function show(plan, names) {
  current = plan;
  fieldErrors.shown(FORM);
  $('plan-use').disabled = !plan;
  // The headline compares only a baseline that keeps the plan's rules.
  var which = ['memory_proportional', 'even'].filter(function (k) { return plan.baselines[k].feasible; })[0] || null;
  $('plan-result').innerHTML = '<p class="plan-lead" id="plan-lead">' + esc(lead(plan, names, which)) + '</p>' +
    warnings(plan, names) +
    '<p class="plan-headline" role="status">' + esc(P.headline(fmt.four(plan.tokens_per_second), band(plan),
    which && fmt.short(plan.baselines[which].loss_percent), which, plan.objective)) + '</p>' +
    bars(plan, names, $('plan-result').clientWidth) + stagesTable(plan, names) + baselines(plan) + flags(plan.runtime) + whatIf(plan, names);
}

// The unit in which the plan's largest stage time reads between 1 and 1000 (s, ms or µs), and how
// many of it make a second: the plan's times are in seconds.
function naturalUnit(times) {
  var top = Math.max.apply(null, Array.prototype.slice.call(times));
  return top >= 1 ? ['s', 1] : top >= 1e-3 ? ['ms', 1e3] : ['us', 1e6];
}


// Loads the plan's pipeline into the calculator: tau and d in a unit where they read naturally, and
// the plan's M; then the page moves to the summary and says what changed.
function usePipeline() {
  if (!current) return;
  var unit = naturalUnit(current.tau), scale = unit[1];
  // Six significant digits: the plan's times are estimates.
  var text = function (xs) { return undoFill.typedList(Array.prototype.map.call(xs, function (x) { return x * scale; }), 6); };
  var M = current.analysis.M;
  // Read at once (one change event), so no count mismatch shows midway; the status region says what
  // changed, read out as well as shown, with "Undo" back to what was typed.
  var said = P.used(current.tau.length, M, fmt.unitName(unit[0]));
  undoFill.fill({ tau: text(current.tau), d: text(current.d), M: String(M), unit: unit[0] }, said);
  $('plan-use-status').textContent = said;
  $('results').scrollIntoView({ block: 'start' });
  $('results').focus({ preventScroll: true });
}

export { show, showErrors, usePipeline, isBenchError };
