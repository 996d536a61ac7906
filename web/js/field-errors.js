// A section's form errors as the calculator shows its own (fields.js): each bad field's error under
// that field, every one at once, the control marked invalid and described by its error, and the last
// good result kept, dimmed. The planner and the simulator share it.
import * as svg from './svg.js';
var esc = svg.esc;
var $ = function (id) { return document.getElementById(id); };

// The error in the page's words, naming the field by `label`, the words the user sees on the form:
// in English the module's sentence without the field's key (its `detail`) after the label; a
// language table that words the codes itself (zh.js) puts the label first too. Without a label, or
// when the sentence names its own place (detail is the whole message), the sentence as it is.
function words(e, label, limits) {
  var L = window.HP_I18N;
  if (L.error) return L.error(e, limits, label);
  if (!label || !e.detail || e.detail === e.message) return e.message;
  return label + (e.index !== null && e.index !== undefined && e.index >= 0 ? ', ' : ': ') + e.detail;
}

// form: { id: the prefix of the errors' ids, controls: a selector of the controls that can be
// marked, result: the result's id, alert: the id of the visually hidden alert, before: the id of
// the element an error about no control goes above, control(e): the control or null,
// label(e, control): the field's words }.
function clear(form) {
  document.querySelectorAll('.' + form.id + '-field-error, #' + form.id + '-section-errors').forEach(function (p) { p.remove(); });
  document.querySelectorAll(form.controls).forEach(function (c) {
    if (!c.hasAttribute('aria-invalid')) return;
    c.removeAttribute('aria-invalid');
    var hint = c.getAttribute('data-hint');
    if (hint) c.setAttribute('aria-describedby', hint); else c.removeAttribute('aria-describedby');
    c.removeAttribute('data-hint');
  });
}

// Shows every error; the result stays, dimmed, until the next good one (shown()).
function show(form, errors, limits) {
  clear(form);
  var result = $(form.result);
  if (result.firstChild) result.classList.add('stale');
  var general = [], said = [];
  errors.forEach(function (e, k) {
    var c = form.control(e), text = words(e, c && form.label(e, c), limits);
    said.push(text);
    if (!c || c.hasAttribute('aria-invalid')) { general.push(text); return; }
    var id = form.id + '-error-' + k, p = '<p class="error ' + form.id + '-field-error" id="' + id + '">' + esc(text) + '</p>';
    var box = c.closest('.field');
    if (box) box.insertAdjacentHTML('beforeend', p);
    else (c.closest('label') || c).insertAdjacentHTML('afterend', p);
    c.setAttribute('aria-invalid', 'true');
    var hint = c.getAttribute('aria-describedby');
    if (hint) c.setAttribute('data-hint', hint);
    c.setAttribute('aria-describedby', hint ? id + ' ' + hint : id);
  });
  if (general.length) {
    $(form.before).insertAdjacentHTML('beforebegin', '<div id="' + form.id + '-section-errors" class="error">' +
      general.map(function (t) { return '<p>' + esc(t) + '</p>'; }).join('') + '</div>');
  }
  // One alert for the whole set, so that a screen reader hears each error once.
  $(form.alert).textContent = said.join(' ');
}

// A good result: the errors go, and the result is current again.
function shown(form) {
  clear(form);
  $(form.alert).textContent = '';
  $(form.result).classList.remove('stale');
}

export { words, show, shown, clear };
