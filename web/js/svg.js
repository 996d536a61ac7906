// Small helpers for the hand-drawn SVG pictures: escaping, a rounded axis, tick values.

function esc(s) {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// About `count` round tick values from 0 (1, 2 or 5 times a power of ten apart): up to max,
// or, with cover, up to the first tick at or above max.
function ticks(max, count, cover) {
  if (!(max > 0)) return [0];
  var raw = max / count, p = Math.pow(10, Math.floor(Math.log10(raw)));
  var step = [1, 2, 5, 10].map(function (k) { return k * p; }).find(function (s) { return s >= raw; });
  var out = [];
  for (var i = 0; i * step <= max * (1 + 1e-9); i++) out.push(i * step);
  if (cover && out[out.length - 1] < max) out.push(out.length * step);
  return out;
}

// Round tick values (1, 2 or 5 times a power of ten apart) inside [lo, hi], about count of them
// and at least three, so a narrow picture still reads.
function ticksIn(lo, hi, count) {
  var range = hi - lo;
  if (!(range > 0)) return [lo];
  var raw = range / Math.max(3, count), p = Math.pow(10, Math.floor(Math.log10(raw)));
  // The round step nearest the ideal one: never more than about 1.4 times as many ticks as asked.
  var step = [1, 2, 5, 10].map(function (k) { return k * p; })
    .reduce(function (best, s) { return Math.abs(Math.log(s / raw)) < Math.abs(Math.log(best / raw)) ? s : best; });
  var out = [];
  for (var i = Math.ceil(lo / step - 1e-9); i * step <= hi * (1 + 1e-9); i++) out.push(i * step + 0);  // + 0: no -0
  return out;
}

// Roughly how wide a label is drawn at 11px: CJK characters take a full em.
function textWidth(s) { return String(s).replace(/[\u2e80-\uffff]/g, 'xx').length * 6.2; }

// A number with at most 4 decimals, for SVG coordinates.
function n(x) { return Math.round(x * 100) / 100; }

export { esc, ticks, ticksIn, textWidth, n };
