// The sections beyond the calculator (the planner, the simulator, trace import), in their
// first-load form: a heading, a line on what the section does, and what opens it: a button, or a
// file chooser that also takes dropped files. Opening loads the section's code, words and styles
// (tools.load). A section opened by its button is started with its start(hp, body, saved, changed):
// `changed` receives the section's form as text for the permalink, and `saved`, that text from the
// link, opens the section at once. Files go to the section's take(hp, files, saved, changed), where
// `saved` is the form's text from the link, applied when the files come. Each section element
// has its page-wide id (`anchor`: plan, measured-run, simulate), which reveal(anchor) opens and
// scrolls to; `id` prefixes its inner elements.
import * as svg from './svg.js';
import * as tools from './tools.js';
var L = window.HP_I18N;
var $ = function (id) { return document.getElementById(id); };
var esc = svg.esc;
var last = null; // the sections follow the pictures in the order they are created
var opening = {}; // anchor -> its open(), for reveal
var target = null; // the anchor last revealed: scrolled to again once its section has loaded

// The section's markup after the last one: #<anchor>, and inside it #<id>-h, #<id>-status (in
// `control`), #<id>-body.
function insert(id, anchor, words, control) {
  (last || $('figures')).insertAdjacentHTML('afterend',
    '<section class="card section" id="' + anchor + '" aria-labelledby="' + id + '-h" tabindex="-1"><h2 id="' + id + '-h">' +
    esc(words.heading) + '</h2><p class="sub">' + esc(words.intro) + '</p>' + control + '<div id="' + id +
    '-body" hidden></div></section>');
  last = $(anchor);
}

function scrollTo(anchor) {
  var el = $(anchor);
  if (!el) return;
  el.scrollIntoView({ block: 'start' });
  el.focus({ preventScroll: true });
}

// Opens the section `anchor` (loading it if needed) and moves to it; again once it has loaded, as
// what loads above it may have moved it.
function reveal(anchor) {
  target = anchor;
  if (opening[anchor]) opening[anchor]();
  scrollTo(anchor);
}

function loaded(anchor) {
  if (target === anchor) scrollTo(anchor);
}

// Loads section `name`, saying so on its status line, then `use(hp, section)`; `failed()` if it cannot.
function load(name, id, use, failed) {
  var status = $(id + '-status');
  status.textContent = L.sectionLoading;
  tools.load(name).then(function (loaded) {
    status.textContent = '';
    use(loaded.hp, loaded.section);
  }, function (e) {
    status.textContent = L.sectionFailed;
    if (failed) failed();
    if (window.console) console.error(e);
  });
}

var statusLine = function (id) { return '<span id="' + id + '-status" role="status"></span>'; };

function create(name, id, anchor, words, saved, changed) {
  insert(id, anchor, words, '<button type="button" id="' + id + '-open">' + esc(words.open) + '</button> ' + statusLine(id));
  var button = $(id + '-open');
  function open() {
    if (button.disabled) return;  // opening or open already
    button.disabled = true;
    load(name, id, function (hp, section) {
      button.hidden = true;
      section.start(hp, $(id + '-body'), saved, changed);
      loaded(anchor);
    }, function () { button.disabled = false; });
  }
  opening[anchor] = open;
  button.addEventListener('click', open);
  if (saved) open();
}

// A section opened by files: chosen with #<id>-files, or dropped on #<id>-drop.
function createDrop(name, id, anchor, words, saved, changed) {
  insert(id, anchor, words, '<div id="' + id + '-drop" class="' + id + '-drop"><label for="' + id + '-files">' + esc(words.choose) +
    '</label> <input type="file" id="' + id + '-files" multiple> ' + statusLine(id) + '</div>');
  function take(files) {
    if (files.length) load(name, id, function (hp, section) { section.take(hp, files, saved, changed); });
  }
  var zone = $(id + '-drop');
  $(id + '-files').onchange = function (ev) { take(ev.target.files); };
  zone.ondragover = function (ev) { ev.preventDefault(); };  // else the browser opens the file itself
  zone.ondrop = function (ev) { ev.preventDefault(); take(ev.dataTransfer.files); };
}

export { create, createDrop, reveal };
