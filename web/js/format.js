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

  function ok(x) { return typeof x === 'number' && isFinite(x); }

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
