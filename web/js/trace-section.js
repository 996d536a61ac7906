// The "Measured run" section's first-load part: its heading, and the drop box with a file chooser.
// Files dropped or chosen load the whole module, the section's page code and its words
// (HP.tools.load('trace'), tools.js); trace.js then reads and imports them. Nothing is uploaded.
(function () {
  'use strict';
  var HP = window.HP = window.HP || {};
  var L = window.HP_I18N, R = L.trace;
  var $ = function (id) { return document.getElementById(id); };
  var esc = HP.svg.esc;

  function create() {
    ($('plan') || $('figures')).insertAdjacentHTML('afterend',
      '<section class="card section" id="trace" aria-labelledby="trace-h"><h2 id="trace-h">' + esc(R.heading) + '</h2><p class="sub">' + esc(R.intro) +
      '</p><div id="trace-drop" class="trace-drop"><label for="trace-files">' + esc(R.choose) + '</label> <input type="file" id="trace-files" multiple> ' +
      '<span id="trace-status" role="status"></span></div><div id="trace-body" hidden></div></section>');
    var zone = $('trace-drop');
    function take(files) {
      if (!files.length) return;
      $('trace-status').textContent = L.sectionLoading;
      HP.tools.load('trace').then(function (hp) { HP.trace.take(hp, files); }, function (e) {
        $('trace-status').textContent = L.sectionFailed;
        console.error(e);
      });
    }
    $('trace-files').onchange = function (ev) { take(ev.target.files); };
    zone.ondragover = function (ev) { ev.preventDefault(); };  // else the browser opens the file itself
    zone.ondrop = function (ev) { ev.preventDefault(); take(ev.dataTransfer.files); };
  }

  HP.traceSection = { create: create };
})();
