// The simulator section's page code, loaded only when it is opened (tools.js, sections.js).
// scripts/build-site.sh bundles it into this one file.
import './sim-view.js';
import './sim.js';
