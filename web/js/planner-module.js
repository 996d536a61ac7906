// The whole module (heteropipe-full.js: the calculator's operations and the planner's), loaded the
// first time a user opens the planner, so that the first load stays within the site's size budget.
// Both scripts define the global `heteropipe`; the calculator's is put back once the other has run.
(function () {
  'use strict';
  var HP = window.HP = window.HP || {};
  var loading = null;

  function loadFullModule() {
    if (loading) return loading;
    loading = new Promise(function (resolve, reject) {
      var calculator = window.heteropipe;
      var script = document.createElement('script');
      script.src = 'heteropipe-full.js';
      script.onload = function () {
        var full = window.heteropipe;
        window.heteropipe = calculator;
        full().then(resolve, reject);
      };
      script.onerror = function () { reject(new Error('heteropipe-full.js did not load')); };
      document.body.appendChild(script);
    }).catch(function (e) { loading = null; throw e; });
    return loading;
  }

  HP.loadFullModule = loadFullModule;
})();
