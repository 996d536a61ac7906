// The "Plan a split" section's first-load part: its heading and the button that opens it. Opening
// loads, side by side, the whole module (heteropipe-full.js: the calculator's operations and the
// planner's), the planner's page code (js/planner-page.js, bundled from planner-page.js) and its
// words (i18n/planner-<lang>.js), so the first load stays within the site's size budget. Both
// module scripts define the global `heteropipe`; the calculator's is put back once the other ran.
(function () {
  'use strict';
  var HP = window.HP = window.HP || {};
  var L = window.HP_I18N;
  var P = L.plan;
  var $ = function (id) { return document.getElementById(id); };
  var esc = HP.svg.esc;
  var loading = null;

  function script(src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement('script');
      s.src = src;
      s.onload = resolve;
      s.onerror = function () { reject(new Error(src + ' did not load')); };
      document.body.appendChild(s);
    });
  }

  function loadPlanner() {
    if (loading) return loading;
    var calculator = window.heteropipe;
    var module = script('heteropipe-full.js').then(function () {
      var full = window.heteropipe;
      window.heteropipe = calculator;
      return full();
    });
    loading = Promise.all([module, script('i18n/planner-' + L.lang.slice(0, 2) + '.js'), script('js/planner-page.js')])
      .then(function (loaded) { return loaded[0]; })
      .catch(function (e) { loading = null; throw e; });
    return loading;
  }

  // The section, after the pictures; opened at once when the link carries a plan. `changed`
  // receives the planner's form as text for the permalink.
  function create(savedText, changed) {
    $('figures').insertAdjacentHTML('afterend',
      '<section class="card planner" id="planner" aria-labelledby="planner-h"><h2 id="planner-h">' + esc(P.heading) + '</h2>' +
      '<p class="sub">' + esc(P.intro) + '</p>' +
      '<button type="button" id="plan-open">' + esc(P.open) + '</button> <span id="plan-status" role="status"></span>' +
      '<div id="plan-body" hidden></div></section>');
    function open() {
      $('plan-open').disabled = true;
      $('plan-status').textContent = P.loading;
      loadPlanner().then(function (hp) {
        $('plan-open').hidden = true;
        $('plan-status').textContent = '';
        HP.planner.start(hp, $('plan-body'), savedText, changed);
      }, function (e) {
        $('plan-open').disabled = false;
        $('plan-status').textContent = P.loadFailed;
        if (window.console) console.error(e);
      });
    }
    $('plan-open').addEventListener('click', open);
    if (savedText) open();
  }

  HP.plannerSection = { create: create };
})();
