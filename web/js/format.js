// Locale-aware number formatting. Only finite numbers ever reach the page; anything else shows a dash.
(function () {
  'use strict';
  var HP = window.HP = window.HP || {};
  var L = window.HP_I18N;
  var general = new Intl.NumberFormat(L.locale, { maximumSignificantDigits: 6 });
  var integer = new Intl.NumberFormat(L.locale, { maximumFractionDigits: 0 });
  var percent = new Intl.NumberFormat(L.locale, { style: 'percent', maximumFractionDigits: 1 });
  var short = new Intl.NumberFormat(L.locale, { maximumSignificantDigits: 3 });
  var DASH = '—';

  var compact = new Intl.NumberFormat(L.locale, { notation: 'compact', maximumSignificantDigits: 3 });
  var unit = '';  // the page's time unit as shown (s, ms, µs), or '' for none

  function ok(x) { return typeof x === 'number' && isFinite(x); }
  function withUnit(text) { return unit ? text + '\u00a0' + unit : text; }

  HP.fmt = {
    number: function (x) {
      if (!ok(x)) return DASH;
      // Very large or tiny magnitudes read better in scientific notation than as long digit runs.
      var a = Math.abs(x);
      if (a !== 0 && (a >= 1e12 || a < 1e-4)) return x.toExponential(4).replace('e+', 'e');
      return general.format(x);
    },
    integer: function (x) { return ok(x) ? (Math.abs(x) >= 1e15 ? x.toExponential(6).replace('e+', 'e') : integer.format(x)) : DASH; },
    percent: function (x) { return ok(x) ? percent.format(x) : DASH; },
    short: function (x) {
      if (!ok(x)) return DASH;
      var a = Math.abs(x);
      if (a !== 0 && (a >= 1e9 || a < 1e-3)) return x.toExponential(1).replace('e+', 'e');
      return short.format(x);
    },
    // Axis labels: short, and compact past ten thousand (5M, 500万) so they are never clipped.
    axis: function (x) {
      if (!ok(x)) return DASH;
      var a = Math.abs(x);
      if (a >= 1e4 && a < 1e15) return compact.format(x);
      return HP.fmt.short(x);
    },
    setUnit: function (u) { unit = u === 'us' ? 'µs' : u; },
    unit: function () { return unit; },
    unitName: function (u) { return u === '' ? L.text.unitNone : u === 'us' ? 'µs' : u; },
    time: function (x) { return withUnit(HP.fmt.number(x)); },
    // Micro-batches per time unit.
    rate: function (x) { return unit ? HP.fmt.number(x) + '\u00a0/' + unit : HP.fmt.number(x); },
    // An axis or legend name with the unit: "time (s)".
    withUnit: function (name) { return unit ? name + L.text.unitOpen + unit + L.text.unitClose : name; },
    // The raw value as a person would type it back (error messages quote the input).
    raw: function (x) { return ok(x) ? String(x) : DASH; },
    // A limit as the core's English writes it: 2^53, 1e15, 1e-15, or a grouped whole number.
    bound: function (x) {
      if (!ok(x)) return DASH;
      var k = Math.log2(x);
      if (k >= 32 && Number.isInteger(k)) return '2^' + k;
      if (Number.isInteger(x) && Math.abs(x) < 1e12) return integer.format(x);
      return x.toExponential().replace('e+', 'e');
    }
  };
})();
