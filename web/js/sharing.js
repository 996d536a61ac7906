// Sharing: the inputs live in the URL hash, so the address bar, the language switch, the
// "open the full calculator" link of an embed and the embed snippet all carry what was typed.
import { MAX_LINK_CHARS, fromHash, toHash, linkHash } from './state.js';
var L = window.HP_I18N;
var T = L.text;
var $ = function (id) { return document.getElementById(id); };

// Once, before the module is ready: the embed layout and the language switch's labels.
function prepare(state) {
  document.body.classList.toggle('embed', state.embed);
  $('open-full').hidden = !state.embed;
  $('lang-switch').textContent = L.otherLanguage;
  $('lang-switch').setAttribute('hreflang', L.otherLang);
  // The accessible name starts with the visible text (WCAG 2.5.3), then says what it is.
  $('lang-switch').setAttribute('aria-label', L.otherLanguage + T.unitOpen + T.languageSwitch + T.colon + L.otherLanguageName + T.unitClose);
}

// After each update: replaceState, not a new history entry per keystroke. Inputs too long for a
// link leave the address bar, the language switch and the embed code on the last inputs that fit,
// and the page says so.
function sync(state) {
  var plain = linkHash(state);
  $('copy-link').disabled = plain === null;
  $('link-reason').textContent = plain === null ? T.linkTooLong(L.fmt.bound(MAX_LINK_CHARS)) : '';
  if (plain === null) return;
  var embedded = toHash(state, { embed: true }), hash = state.embed ? embedded : plain;
  if (location.hash !== hash) history.replaceState(null, '', hash);
  $('lang-switch').href = L.otherPage + hash;
  var page = location.pathname.replace(/^.*\//, '') || 'calculator.html';
  $('open-full').href = page + plain;
  $('embed-snippet').textContent = '<iframe src="' + page + embedded.replace(/&/g, '&amp;') +
    '" title="' + T.heading.replace(/"/g, '&quot;') + '" width="100%" height="620" loading="lazy"></iframe>';
}

// Whether the hash names another state than the page shows (the page's own replaceState
// writes the same hash back, which is no change).
function changed(state, hash) {
  var next = fromHash(hash), shown = linkHash(state, { embed: state.embed });
  return shown !== null && toHash(next, { embed: next.embed }) === shown ? null : next;
}

// file:// pages may have no clipboard API; a selected textarea and execCommand still copy there.
function fallback(text) {
  var ta = document.createElement('textarea');
  ta.value = text; ta.setAttribute('readonly', ''); ta.className = 'offscreen';
  document.body.appendChild(ta); ta.select();
  var ok = false;
  try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
  ta.remove();
  return ok;
}

// Copies text to the clipboard; done(ok) says whether it worked.
function copyText(text, done) {
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(fallback(text)); });
  } else done(fallback(text));
}

function copyLink() {
  var status = $('copy-status');
  copyText(location.href, function (ok) { status.textContent = ok ? T.copied : T.copyFailed; });
}

export { prepare, sync, changed, copyText, copyLink };
