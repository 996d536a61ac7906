// The "Variability and buffers" section's first-load part: its heading, one line and the button
// that opens it. Opening loads the whole module, the section's code (js/sim-page.js) and its words
// (i18n/sim-<lang>.js) through HP.tools.load, so the first load stays within the size budget.
(function () {
  'use strict';
  var HP = window.HP = window.HP || {};
  var V = window.HP_I18N.sim;
  var $ = function (id) { return document.getElementById(id); };
  var esc = HP.svg.esc;

  // After the planner (or the pictures); opened at once when the link carries the section's form.
  // `changed` receives the form as text for the permalink.
  function create(savedText, changed) {
    ($('planner') || $('figures')).insertAdjacentHTML('afterend',
      '<section class="card sim" id="sim" aria-labelledby="sim-h"><h2 id="sim-h">' + esc(V.heading) + '</h2>' +
      '<p class="sub">' + esc(V.intro) + '</p>' +
      '<button type="button" id="sim-open">' + esc(V.open) + '</button> <span id="sim-status" role="status"></span>' +
      '<div id="sim-body" hidden></div></section>');
    function open() {
      $('sim-open').disabled = true;
      $('sim-status').textContent = V.loading;
      HP.tools.load('sim').then(function (hp) {
        $('sim-open').hidden = true;
        $('sim-status').textContent = '';
        HP.sim.start(hp, $('sim-body'), savedText, changed);
      }, function (e) {
        $('sim-open').disabled = false;
        $('sim-status').textContent = V.loadFailed;
        if (window.console) console.error(e);
      });
    }
    $('sim-open').addEventListener('click', open);
    if (savedText) open();
  }

  HP.simSection = { create: create };
})();
