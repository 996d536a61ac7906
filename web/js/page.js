// The calculator's entry: app.js and every module it imports. scripts/bundle-pages.mjs bundles
// them into this one classic script (one request, which the first result from file:// pays for).
import './app.js';
