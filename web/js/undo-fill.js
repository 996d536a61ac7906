// Values a button hands to the calculator's fields (a preset, the planner's "Use this pipeline",
// the measured run's "Fill"): set as text, then read at once by one change event, as the unit's
// select does; what the fields held before is kept, and "Undo" beside the button's message puts it
// back, so no click loses what was typed. The message and its Undo are beside the fields, where the
// page leaves the user, whichever section the button is in (#fill-status). Typing in a field
// withdraws the offer: an undo then would lose that typing instead.
import { FIELDS } from './state.js';
var T = window.HP_I18N.text;
var $ = function (id) { return document.getElementById(id); };
var KEPT = FIELDS.concat(['unit']);

function snapshot() {
  var s = {};
  KEPT.forEach(function (k) { s[k] = $(k).value; });
  return s;
}

function set(values) {
  Object.keys(values).forEach(function (k) { $(k).value = values[k]; });
  $('unit').dispatchEvent(new Event('change', { bubbles: true }));
}

// Fills the fields with `values` (text by field id, the unit's included) and says `said` beside
// them, with an Undo button unless nothing changed.
function fill(values, said) {
  var before = snapshot();
  set(values);
  offer(said, before);
}

// Says `said` beside the fields, with "Undo" back to `before` when they now hold something else.
function offer(said, before) {
  var status = $('fill-status');
  withdraw();
  status.textContent = said;
  var now = snapshot();
  if (KEPT.every(function (k) { return now[k] === before[k]; })) return;
  var undo = document.createElement('button');
  undo.type = 'button';
  undo.className = 'undo-fill';
  undo.textContent = T.undoFill;
  undo.addEventListener('click', function () {
    set(before);
    status.textContent = T.fillUndone;
    $('tau').focus();
  });
  status.appendChild(document.createTextNode(' '));
  status.appendChild(undo);
}

// Numbers as a person types them into a list field: at most `digits` significant digits each, which
// drops float noise (5.4815000000000005 is 5.4815), joined by ', '.
function typedList(xs, digits) {
  return Array.prototype.map.call(xs, function (x) { return String(Number(x.toPrecision(digits))); }).join(', ');
}

// Typing in a field: no earlier fill can be undone any more.
function withdraw() {
  document.querySelectorAll('.undo-fill').forEach(function (b) { b.remove(); });
}

export { fill, offer, snapshot, typedList, withdraw };
