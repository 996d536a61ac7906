// Loads the page: its markup, then the scripts in order. Both pages load
// only their string table and this file, so they share every other line.
(function () {
  'use strict';
  var SCRIPTS = [
    'vendor/uPlot.iife.min.js',
    'heteropipe.js',
    'js/format.js',
    'js/state.js',
    'js/svg.js',
    'js/charts.js',
    'js/gantt.js',
    'js/slack.js',
    'js/exports.js',
    'js/app.js'
  ];
  SCRIPTS.forEach(function (src) {
    var script = document.createElement('script');
    script.src = src;
    script.async = false;  // run in list order, as plain tags would
    document.body.appendChild(script);
  });
})();
