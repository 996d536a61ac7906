// The sections beyond the calculator (the planner, the simulator, trace import), in their
// first-load form: a heading, a line on what the section does and the button that opens it.
// Opening loads the section's code, words and styles (HP.tools.load) and calls
// HP[name].start(hp, body, saved, changed): `changed` receives the section's form as text for
// the permalink, and `saved`, that text from the link, opens the section at once.
(function () {
  'use strict';
  var HP = window.HP = window.HP || {};
  var L = window.HP_I18N;
  var $ = function (id) { return document.getElementById(id); };
  var esc = HP.svg.esc;
  var last = null; // the sections follow the pictures in the order they are created

  // `id` names the section's elements: #<id>, #<id>-open, #<id>-status, #<id>-body.
  function create(name, id, words, saved, changed) {
    (last || $('figures')).insertAdjacentHTML('afterend',
      '<section class="card section" id="' + id + '" aria-labelledby="' + id + '-h"><h2 id="' + id + '-h">' +
      esc(words.heading) + '</h2><p class="sub">' + esc(words.intro) + '</p><button type="button" id="' + id +
      '-open">' + esc(words.open) + '</button> <span id="' + id + '-status" role="status"></span><div id="' + id +
      '-body" hidden></div></section>');
    last = $(id);
    function open() {
      $(id + '-open').disabled = true;
      $(id + '-status').textContent = L.sectionLoading;
      HP.tools.load(name).then(function (hp) {
        $(id + '-open').hidden = true;
        $(id + '-status').textContent = '';
        HP[name].start(hp, $(id + '-body'), saved, changed);
      }, function (e) {
        $(id + '-open').disabled = false;
        $(id + '-status').textContent = L.sectionFailed;
        if (window.console) console.error(e);
      });
    }
    $(id + '-open').addEventListener('click', open);
    if (saved) open();
  }

  HP.sections = { create: create };
})();
