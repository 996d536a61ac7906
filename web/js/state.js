// The page state (the text typed in each field, the time unit, the Gantt regime, embed mode, the
// planner's and the simulator's forms, the trace import's options) and its URL-hash form. The raw text is stored, not parsed numbers, so a link
// restores exactly what was typed, errors included.
var FIELDS = ['tau', 'd', 'M', 'rho', 'T_real'];
var UNITS = ['', 's', 'ms', 'us'];  // as the hash writes them; the page shows us as µs
// The default page is a plain measured pipeline (the legalone-measured preset: three hosts' dur_min
// in seconds); the edge cases, such as the phase transition, stay among the presets.
var DEFAULTS = { tau: '1.13, 2.901, 2.621', d: '', M: '8', rho: '1', T_real: '', unit: 's', regime: 'async', embed: false, plan: '', sim: '', trace: '', section: '' };
// The sections a link can open and scroll to (#section=plan); each is the id of its element.
var SECTIONS = ['plan', 'measured-run', 'simulate'];
// The longest link the page writes, in characters: Firefox's default limit on a URL
// (network.standard-url.max-length), half of Chromium's (kMaxURLChars). Longer inputs stay on the page
// and out of the link, so a paste of millions of stage times neither costs seconds of URL work per
// keystroke nor yields a link that a browser would drop.
var MAX_LINK_CHARS = 1048576;

function fromHash(hash) {
  var s = Object.assign({}, DEFAULTS);
  var params = new URLSearchParams((hash || '').replace(/^#/, ''));
  // A link that gives the stage times and no latencies means none, and no unit means none.
  if (params.has('tau')) { s.d = ''; s.unit = ''; }
  FIELDS.forEach(function (k) { if (params.has(k)) s[k] = params.get(k); });
  if (UNITS.indexOf(params.get('unit')) > 0) s.unit = params.get('unit');
  // regime=async or blocking; the former spellings asynchronous and block still read.
  var regime = params.get('regime');
  if (regime === 'blocking' || regime === 'block') s.regime = 'blocking';
  s.embed = params.get('embed') === '1';
  s.plan = params.get('plan') || '';
  s.sim = params.get('sim') || '';
  s.trace = params.get('trace') || '';
  if (SECTIONS.indexOf(params.get('section')) >= 0) s.section = params.get('section');
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
  if (s.trace) params.set('trace', s.trace);
  if (s.section) params.set('section', s.section);
  return '#' + params.toString();
}

// The hash of a state, or null when it would be longer than a link may be. The typed text is measured
// first: its encoding is never shorter, so an over-long field costs no encoding at all.
function linkHash(s, extra) {
  var typed = FIELDS.reduce(function (n, k) { return n + s[k].length; }, s.plan.length + s.sim.length + s.trace.length);
  if (typed > MAX_LINK_CHARS) return null;
  var hash = toHash(s, extra);
  return hash.length > MAX_LINK_CHARS ? null : hash;
}

// A hash that names a section and nothing else (a bare "#section=plan" link): the page keeps its
// state and only moves.
function sectionOnly(hash) {
  var params = new URLSearchParams((hash || '').replace(/^#/, ''));
  var keys = Array.from(params.keys());
  var name = params.get('section');
  return keys.length === 1 && keys[0] === 'section' && (name === 'calculator' || SECTIONS.indexOf(name) >= 0) ? name : null;
}

export { FIELDS, UNITS, DEFAULTS, SECTIONS, MAX_LINK_CHARS, fromHash, toHash, linkHash, sectionOnly };
