// Per-link slack against latency as hand-written SVG: a bar for tau_max - tau[s], a tick for d[s].
import * as fmt from './format.js';
import * as svg from './svg.js';
var L = window.HP_I18N;
var MAX_LINKS = 128;

function render(a, width) {
  var esc = svg.esc, n = svg.n;
  var slack = a.link_slack, d = a.d, margin = a.link_margin, count = slack.length;
  var rh = count <= 12 ? 26 : count <= 40 ? 14 : 7;
  var left = 64, right = 16, top = 26, axisH = 24;
  var W = Math.max(320, width), plotW = W - left - right, H = top + count * rh + axisH;
  var max = 0;
  for (var i = 0; i < count; i++) max = Math.max(max, slack[i], d[i] || 0);
  var ticks = svg.ticks(max > 0 ? max : 1, Math.max(2, Math.floor(plotW / 90)), true);
  var span = ticks[ticks.length - 1] || 1;
  var x = function (v) { return left + (v / span) * plotW; };
  var out = [];
  out.push('<svg xmlns="http://www.w3.org/2000/svg" class="slack" width="' + W + '" height="' + H + '" viewBox="0 0 ' + W + ' ' + H +
    '" role="img" aria-labelledby="slack-title"><title id="slack-title">' + esc(L.text.fig_slack) + '</title>');
  // Legend.
  out.push('<rect class="slack-bar" x="' + left + '" y="6" width="14" height="10"/><text class="tick" x="' + (left + 18) + '" y="15">' + esc(L.text.legendSlack) + '</text>');
  var lx = left + 30 + svg.textWidth(L.text.legendSlack);  // CJK text is twice as wide
  out.push('<line class="dmark" x1="' + lx + '" y1="4" x2="' + lx + '" y2="18"/><text class="tick" x="' + (lx + 6) + '" y="15">' + esc(L.text.legendD) + '</text>');
  ticks.forEach(function (t) {
    var tx = n(x(t));
    out.push('<line class="grid" x1="' + tx + '" y1="' + top + '" x2="' + tx + '" y2="' + (top + count * rh) + '"/>');
    out.push('<text class="tick" x="' + tx + '" y="' + (top + count * rh + 16) + '" text-anchor="middle">' + esc(fmt.short(t)) + '</text>');
  });
  for (i = 0; i < count; i++) {
    var y = top + i * rh, past = margin[i] < 0, h = Math.max(3, rh - 8);
    var cls = past ? ' past' : '';
    if (rh >= 10) {
      out.push('<text class="row-label' + cls + '" x="' + (left - 6) + '" y="' + n(y + rh / 2) + '" text-anchor="end" dominant-baseline="central">' + esc(L.text.linkRow(i)) + '</text>');
    }
    out.push('<rect class="slack-bar' + cls + '" x="' + left + '" y="' + n(y + (rh - h) / 2) + '" width="' + n(Math.max(0, x(slack[i]) - left)) + '" height="' + n(h) + '">' +
      '<title>' + esc(L.text.linkRow(i) + ': ' + L.text.legendSlack + ' = ' + fmt.number(slack[i]) + ', ' + L.text.legendD + ' = ' + fmt.number(d[i] || 0) + (past ? ', ' + L.text.pastTransition : '')) + '</title></rect>');
    var dx = n(x(d[i] || 0));
    out.push('<line class="dmark' + cls + '" x1="' + dx + '" y1="' + n(y + 2) + '" x2="' + dx + '" y2="' + n(y + rh - 2) + '"/>');
    if (past && rh >= 14) {
      // After the latency tick when there is room, else inside the bar in the bar's ink.
      var tx = Math.max(x(slack[i]), x(d[i])) + 6, inside = tx > W - 170;
      if (inside) tx = left + 4;
      out.push('<text class="past-label' + (inside ? ' inside' : '') + '" x="' + n(tx) + '" y="' + n(y + rh / 2) + '" dominant-baseline="central">' + esc(L.text.pastTransition) + '</text>');
    }
  }
  out.push('</svg>');
  return out.join('');
}

export { render, MAX_LINKS };
