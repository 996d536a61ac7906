// The "Measured run" section's page code, loaded only when a trace is dropped or chosen
// (sections.js). scripts/bundle-pages.mjs bundles it, without the modules the calculator's bundle
// already has.
import { register } from './tools.js';
import { take } from './trace.js';

register('trace', { take });
