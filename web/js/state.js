// The page state (the text typed in each field, the Gantt regime, embed mode, the planner's input)
// and its URL-hash form.
// The raw text is stored, not parsed numbers, so a link restores exactly what was typed, errors included.
(function () {
  'use strict';
  var HP = window.HP = window.HP || {};
  var FIELDS = ['tau', 'd', 'M', 'rho', 'T_real'];
  var DEFAULTS = { tau: '0.5, 1, 1, 5', d: '', M: '8', rho: '1', T_real: '', regime: 'asynchronous', embed: false, plan: '' };

  function fromHash(hash) {
    var s = Object.assign({}, DEFAULTS);
    var params = new URLSearchParams((hash || '').replace(/^#/, ''));
    FIELDS.forEach(function (k) { if (params.has(k)) s[k] = params.get(k); });
    if (params.get('regime') === 'blocking') s.regime = 'blocking';
    s.embed = params.get('embed') === '1';
    s.plan = params.get('plan') || '';
    return s;
  }

  function toHash(s, extra) {
    var params = new URLSearchParams();
    if (extra && extra.embed) params.set('embed', '1');
    FIELDS.forEach(function (k) { params.set(k, s[k]); });
    if (s.regime === 'blocking') params.set('regime', 'blocking');
    if (s.plan) params.set('plan', s.plan);
    return '#' + params.toString();
  }

  HP.state = { FIELDS: FIELDS, DEFAULTS: DEFAULTS, fromHash: fromHash, toHash: toHash };
})();
