// The simulator section's page code, loaded only when it is opened (sim-section.js).
// scripts/build-site.sh bundles it into this one file.
import './sim-view.js';
import './sim.js';
