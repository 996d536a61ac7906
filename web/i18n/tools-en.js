// English words that the planner, the simulator and trace import share, loaded with them
// (web/js/tools.js). Their errors are the module's own English sentences.
(function () {
  'use strict';
  window.HP_I18N.tools = {};
})();
