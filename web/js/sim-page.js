// The simulator section's page code, loaded only when it is opened (tools.js, sections.js).
// scripts/bundle-pages.mjs bundles it, without the modules the calculator's bundle already has.
import { register } from './tools.js';
import { start } from './sim.js';

register('sim', { start });
