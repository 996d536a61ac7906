// The measured schedule (the import's `schedule` rows, clocks aligned) above the exact schedule of
// the recovered tau, d and M (hp.timeline), both drawn by the calculator's Gantt renderer on one
// time axis, in the result's unit, so the fill, the drain and blocked sends show where time went.
import * as fmt from './format.js';
import * as gantt from './gantt.js';
var R = window.HP_I18N.trace;
var $ = function (id) { return document.getElementById(id); };
var MAX_CELLS = 4096;  // micro-batches x stages drawn; a longer run shows its first micro-batches

// The schedule rows as a timeline of the first `M` micro-batches: a stage's compute spans its rows.
// Its rows' utilization is the engine's for an exact schedule only; here each shows a dash.
function measured(rows, S, M) {
  var n = M * S, k = M * (S - 1);
  var tl = { S: S, M: M, makespan: 0, utilization: [], compute_start: new Float64Array(n), compute_finish: new Float64Array(n),
    transfer_start: new Float64Array(k), transfer_finish: new Float64Array(k) };
  var seen = new Uint8Array(n);
  rows.forEach(function (r) {
    if (r.microbatch >= M) return;
    if (r.kind === 'transfer') {
      if (r.stage < S - 1) { tl.transfer_start[r.microbatch * (S - 1) + r.stage] = r.start; tl.transfer_finish[r.microbatch * (S - 1) + r.stage] = r.end; }
    } else {
      var i = r.microbatch * S + r.stage;
      tl.compute_start[i] = seen[i] ? Math.min(tl.compute_start[i], r.start) : r.start;
      tl.compute_finish[i] = seen[i] ? Math.max(tl.compute_finish[i], r.end) : r.end;
      seen[i] = 1;
    }
    tl.makespan = Math.max(tl.makespan, r.end);
  });
  return tl;
}

function draw(hp, r, regime) {
  var a = r.analysis, S = a.S, note = $('trace-gantt-note');
  if (S > gantt.MAX_STAGES) {
    $('trace-m').innerHTML = $('trace-x').innerHTML = '';
    note.textContent = window.HP_I18N.text.ganttTooMany(S, gantt.MAX_STAGES);
    return;
  }
  var M = Math.min(r.M, Math.max(1, Math.floor(MAX_CELLS / S)));
  note.textContent = M < r.M ? R.firstShown(M, r.M) : '';
  var seen = measured(r.schedule, S, M);
  var exact = hp.timeline({ tau: r.tau, d: r.d, M: M, regime: regime });
  var span = Math.max(seen.makespan, exact.makespan) || 1;
  var width = Math.max(300, $('trace-m').clientWidth || 640);
  var unit = fmt.unit();
  fmt.setUnit(r.unit);  // the axis in the result's unit, whatever the calculator's
  $('trace-m').innerHTML = gantt.render(seen, a, 'async', width, { id: 'trace-m', head: R.measuredHead, span: span });
  $('trace-x').innerHTML = gantt.render(exact, a, regime, width,
    { id: 'trace-x', head: R.exactHead(window.HP_I18N.text['regime_' + regime]), span: span });
  fmt.setUnit(unit);
}

export { draw };
