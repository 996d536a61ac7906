// Work a keystroke can leave until the browser has painted what is in view: the pictures below the
// fold and the address bar. One job waits at a time; a newer one replaces it, and flush runs it at
// once for whatever reads its result (an export, a copied link, a print).
var job = null;
// requestAnimationFrame waits while the page is hidden; the job then runs after this many ms.
var HIDDEN_MS = 200;

function clear(j) {
  cancelAnimationFrame(j.frame);
  clearTimeout(j.timer);
  clearTimeout(j.hidden);
}

function later(fn) {
  if (job) clear(job);
  var mine = job = { fn: fn };
  var run = function () {
    if (job !== mine) return;
    job = null;
    clear(mine);
    fn();
  };
  // A timeout set from the frame's callback runs once that frame is painted.
  mine.frame = requestAnimationFrame(function () { mine.timer = setTimeout(run, 0); });
  mine.hidden = setTimeout(run, HIDDEN_MS);
}

function flush() {
  if (!job) return;
  var j = job;
  job = null;
  clear(j);
  j.fn();
}

export { later, flush };
