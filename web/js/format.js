// Locale-aware number formatting. Only finite numbers ever reach the page; anything else shows a dash.
var L = window.HP_I18N;
// A value that rounds to zero shows no sign ('0%', never '-0%'): signDisplay 'negative', where the
// browser knows it (a browser before it refuses the option, and keeps its own sign rule).
function formatter(options) {
  try {
    return new Intl.NumberFormat(L.locale, Object.assign({ signDisplay: 'negative' }, options));
  } catch (e) {
    return new Intl.NumberFormat(L.locale, options);
  }
}
var general = formatter({ maximumSignificantDigits: 6 });
var whole = formatter({ maximumFractionDigits: 0 });
var percents = formatter({ style: 'percent', maximumFractionDigits: 1 });
var shortFormat = formatter({ maximumSignificantDigits: 3 });
var fourFormat = formatter({ maximumSignificantDigits: 4 });
var DASH = '—';

var compact = formatter({ notation: 'compact', maximumSignificantDigits: 3 });
var shownUnit = '';  // the page's time unit as shown (s, ms, µs), or '' for none

function ok(x) { return typeof x === 'number' && isFinite(x); }
function withUnitText(text) { return shownUnit ? text + '\u00a0' + shownUnit : text; }

// Very large or tiny magnitudes read better in scientific notation than as long digit runs.
export function number(x) {
  if (!ok(x)) return DASH;
  var a = Math.abs(x);
  if (a !== 0 && (a >= 1e12 || a < 1e-4)) return x.toExponential(4).replace('e+', 'e');
  return general.format(x);
}
export function integer(x) { return ok(x) ? (Math.abs(x) >= 1e15 ? x.toExponential(6).replace('e+', 'e') : whole.format(x)) : DASH; }
export function percent(x) { return ok(x) ? percents.format(x) : DASH; }
export function short(x) {
  if (!ok(x)) return DASH;
  var a = Math.abs(x);
  if (a !== 0 && (a >= 1e9 || a < 1e-3)) return x.toExponential(1).replace('e+', 'e');
  return shortFormat.format(x);
}
// Four significant figures: the tools' answers (the planner's), where six digits are noise.
export function four(x) {
  if (!ok(x)) return DASH;
  var a = Math.abs(x);
  if (a !== 0 && (a >= 1e12 || a < 1e-4)) return x.toExponential(3).replace('e+', 'e');
  return fourFormat.format(x);
}
// Axis labels: short, and compact past ten thousand (5M, 500万) so they are never clipped.
export function axis(x) {
  if (!ok(x)) return DASH;
  var a = Math.abs(x);
  if (a >= 1e4 && a < 1e15) return compact.format(x);
  return short(x);
}
export function setUnit(u) { shownUnit = u === 'us' ? 'µs' : u; }
export function unit() { return shownUnit; }
export function unitName(u) { return u === '' ? L.text.unitNone : u === 'us' ? 'µs' : u; }
export function time(x) { return withUnitText(number(x)); }
// Micro-batches per time unit.
export function rate(x) { return shownUnit ? number(x) + '\u00a0/' + shownUnit : number(x); }
// An axis or legend name with the unit: "time (s)".
export function withUnit(name) { return shownUnit ? name + L.text.unitOpen + shownUnit + L.text.unitClose : name; }
// The raw value as a person would type it back (error messages quote the input).
export function raw(x) { return ok(x) ? String(x) : DASH; }
// A limit as the core's English writes it (text::bound): 2^53, a grouped whole number, 0.0001 or 0.95,
// else 1e15, 1e-9, 1e-15 (the shortest digits; no exponent padded or signed with a plus).
export function bound(x) {
  if (!ok(x)) return DASH;
  var k = Math.log2(x);
  if (k >= 32 && Number.isInteger(k)) return '2^' + k;
  if (Number.isInteger(x) && Math.abs(x) < 1e12) return whole.format(x);
  var exponent = Number(x.toExponential().split('e')[1]);
  // JavaScript writes these exponents plainly (String(0.0001) is '0.0001').
  return exponent >= -4 && exponent < 12 ? String(x) : x.toExponential().replace('e+', 'e');
}
