// The planner's page code, loaded only when the planner is opened (sections.js).
// scripts/bundle-pages.mjs bundles it, without the modules the calculator's bundle already has.
import { register } from './tools.js';
import { start } from './planner.js';

register('planner', { start });
