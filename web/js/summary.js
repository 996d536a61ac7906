// The headline summary at the top of the results: T_async, T_block, the GPipe error, the
// bottleneck and the phase-transition verdict, in words a person reads first. Each value carries
// data-key and data-value like the detailed rows, and the same text is what a screen reader hears
// once typing settles (app.js).
import * as fmt from './format.js';
import * as svg from './svg.js';
var T = window.HP_I18N.text;
var $ = function (id) { return document.getElementById(id); };
var esc = svg.esc;

// value: the headline; note: smaller words after it.
function item(key, label, value, note, raw, cls) {
  return '<div' + (cls ? ' class="' + cls + '"' : '') + '><dt>' + esc(label) + '</dt><dd data-key="' + key +
    '" data-value="' + esc(raw) + '"' + (cls === 'wide flag' ? ' class="flag"' : '') + '>' + esc(value) +
    (note ? ' <small>' + esc(note) + '</small>' : '') + '</dd></div>';
}

// Returns the summary as one sentence, for the announcement.
function show(a) {
  var both = a.blocking_bottleneck_stage !== a.bottleneck_stage;
  var items = [
    ['T_async', T.sum_T_async, fmt.time(a.T_async), '', a.T_async],
    ['T_block', T.sum_T_block, fmt.time(a.T_block), '', a.T_block],
    ['gpipe_overestimate', T.sum_gpipe, fmt.percent(a.gpipe_overestimate), T.gpipeNote, a.gpipe_overestimate],
    ['bottleneck_stage', T.sum_bottleneck, T.stage(a.bottleneck_stage), both ? T.bottleneckBlocking(T.stage(a.blocking_bottleneck_stage)) : '', a.bottleneck_stage],
    ['phase_transition', T.sum_phase, a.phase_transition ? T.phaseYes : T.phaseNo, '', a.phase_transition, a.phase_transition ? 'wide flag' : 'wide']
  ];
  $('summary').innerHTML = items.map(function (i) { return item(i[0], i[1], i[2], i[3], String(i[4]), i[5]); }).join('');
  return items.map(function (i) { return i[1] + T.colon + i[2] + (i[3] ? ' ' + i[3] : ''); }).join(T.sentenceSeparator);
}

export { show };
