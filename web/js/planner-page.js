// The planner's page code, loaded only when the planner is opened (sections.js).
// scripts/build-site.sh bundles it into this one file.
import './planner-view.js';
import './planner.js';
