// Loads the page: its markup, then the scripts in order. Both pages load
// only their string table and this file, so they share every other line.
(function () {
  'use strict';
  var SCRIPTS = [
    'heteropipe-calc.js',
    'vendor/uPlot.iife.min.js',
    'js/page.js'  // every other script of the page, bundled by scripts/build-site.sh
  ];
  SCRIPTS.forEach(function (src) {
    var script = document.createElement('script');
    script.src = src;
    script.async = false;  // run in list order, as plain tags would
    // The factory is cached: calling it now starts compiling the wasm while
    // the other scripts load, and app.js gets the same promise.
    if (src === 'heteropipe-calc.js') script.onload = function () { heteropipe(); };
    document.body.appendChild(script);
  });
})();
