// The "Measured run" section's page code, loaded only when a trace is dropped or chosen
// (sections.js). scripts/build-site.sh bundles it into this one file.
import './trace-view.js';
import './trace-gantt.js';
import './trace.js';
