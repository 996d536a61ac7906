// The page's own scripts, in the order they run. scripts/build-site.sh bundles
// them into this one file (one request instead of one per file, which the first
// result from file:// pays for); each stays a plain script on window.HP.
import './format.js';
import './state.js';
import './svg.js';
import './charts.js';
import './gantt.js';
import './slack.js';
import './fields.js';
import './summary.js';
import './results.js';
import './pictures.js';
import './sharing.js';
import './tools.js';
import './sections.js';
import './app.js';
