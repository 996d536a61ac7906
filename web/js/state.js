// The page state (the text typed in each field, the time unit, the Gantt regime, embed mode, the
// planner's and the simulator's forms) and its URL-hash form. The raw text is stored, not parsed numbers, so a link
// restores exactly what was typed, errors included.
var FIELDS = ['tau', 'd', 'M', 'rho', 'T_real'];
var UNITS = ['', 's', 'ms', 'us'];  // as the hash writes them; the page shows us as µs
// The default page is the phase-transition preset: the one whose sandwich T_async < T_block shows.
var DEFAULTS = { tau: '0.5, 1, 1, 5', d: '4.6, 0.1, 0.1', M: '8', rho: '1', T_real: '', unit: '', regime: 'async', embed: false, plan: '', sim: '' };

function fromHash(hash) {
  var s = Object.assign({}, DEFAULTS);
  var params = new URLSearchParams((hash || '').replace(/^#/, ''));
  // A link that gives the stage times and no latencies means none.
  if (params.has('tau')) s.d = '';
  FIELDS.forEach(function (k) { if (params.has(k)) s[k] = params.get(k); });
  if (UNITS.indexOf(params.get('unit')) > 0) s.unit = params.get('unit');
  // regime=async or blocking; the former spellings asynchronous and block still read.
  var regime = params.get('regime');
  if (regime === 'blocking' || regime === 'block') s.regime = 'blocking';
  s.embed = params.get('embed') === '1';
  s.plan = params.get('plan') || '';
  s.sim = params.get('sim') || '';
  return s;
}

function toHash(s, extra) {
  var params = new URLSearchParams();
  if (extra && extra.embed) params.set('embed', '1');
  FIELDS.forEach(function (k) { params.set(k, s[k]); });
  if (s.unit) params.set('unit', s.unit);
  params.set('regime', s.regime === 'blocking' ? 'blocking' : 'async');
  if (s.plan) params.set('plan', s.plan);
  if (s.sim) params.set('sim', s.sim);
  return '#' + params.toString();
}

export { FIELDS, UNITS, DEFAULTS, fromHash, toHash };
