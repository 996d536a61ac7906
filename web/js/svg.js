// Small helpers for the hand-drawn SVG pictures: escaping, a rounded axis, tick values.
(function () {
  'use strict';
  var HP = window.HP = window.HP || {};

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

  // A number with at most 4 decimals, for SVG coordinates.
  function n(x) { return Math.round(x * 100) / 100; }

  HP.svg = { esc: esc, ticks: ticks, n: n };
})();
