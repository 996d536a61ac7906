// Page speed in headless Chromium (figures for docs/benchmarks.md; nothing here is asserted):
// 1. first result in view after navigation from file://, and the first complete page;
// 2. one keystroke to an updated view, and to every picture and the link, at S = 64, M = 1000;
// 3. the size of the whole site and of what one page loads.
// Usage: node tests/bench/page_bench.mjs  (after scripts/build-site.sh)
import { readdir, stat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { launch, open, fileBase, site } from '../web/helpers.mjs';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const context = await launch();

// Minor page faults of Chromium's renderer processes (Linux /proc; null elsewhere). A first load
// touches thousands of fresh pages, and on a VM whose host backs guest memory lazily each first touch
// costs tens of microseconds, which then dominates the first result: printed so a reader can tell
// the machine's share from the page's.
async function rendererFaults() {
  let total = 0;
  try {
    for (const pid of (await readdir('/proc')).filter((p) => /^\d+$/.test(p))) {
      try {
        if (!(await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('--type=renderer')) continue;
        total += Number((await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ')[7]);
      } catch { /* the process ended */ }
    }
  } catch { return null; }
  return total;
}
// The cost of a first touch of one fresh 4 KiB page here, from a new 256 MiB buffer.
function firstTouchMicroseconds() {
  const t0 = performance.now();
  const bytes = new Uint8Array(256 << 20);
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = 1;
  return (performance.now() - t0) * 1000 / (bytes.length / 4096);
}

// 1. First result: the page marks 'hp-first-result' when its first update has drawn what is in view,
//    and 'hp-first-complete' once the pictures out of view and the link follow, after that paint.
const first = [], complete = [], faults = [];
for (let i = 0; i < 15; i++) {
  const page = await context.newPage();
  const before = await rendererFaults();
  await page.goto(fileBase + 'calculator.html');
  await page.waitForSelector('html[data-ready]');
  first.push(await page.evaluate(() => performance.getEntriesByName('hp-first-result')[0].startTime));
  complete.push(await page.evaluate(() => performance.getEntriesByName('hp-first-complete')[0].startTime));
  const after = await rendererFaults();
  if (before !== null && after !== null) faults.push(after - before);
  await page.close();
}

// 2. Keystrokes: edit the last stage time, let the page update (including uPlot's microtask redraw),
//    and force style and layout, as the next frame would: the view updated. Then wait for the page's
//    data-ready, which follows the next paint: every picture (those out of view too) and the link.
const tau = Array.from({ length: 64 }, (_, i) => (0.5 + ((i * 37) % 23) / 10).toFixed(2)).join(', ');
const { page } = await open(context, fileBase + `calculator.html#tau=${encodeURIComponent(tau)}&d=&M=1000&rho=1&T_real=`);
const faultsBeforeKeys = await rendererFaults();
const { keystrokes, completes } = await page.evaluate(async () => {
  const el = document.getElementById('tau'), html = document.documentElement, base = el.value, keystrokes = [], completes = [];
  const ready = () => Number(html.getAttribute('data-ready'));
  for (let i = 0; i < 200; i++) {
    const want = ready() + 1;
    const done = new Promise((resolve) => {
      const seen = new MutationObserver(() => { if (ready() >= want) { seen.disconnect(); resolve(); } });
      seen.observe(html, { attributes: true, attributeFilter: ['data-ready'] });
    });
    const t0 = performance.now();
    el.value = base + (i % 9 + 1);
    el.dispatchEvent(new Event('input'));
    await Promise.resolve(); await Promise.resolve();
    void document.body.offsetHeight;
    keystrokes.push(performance.now() - t0);
    await done;
    completes.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 0));
  }
  return { keystrokes, completes };
});
const faultsPerKey = faultsBeforeKeys === null ? null : ((await rendererFaults()) - faultsBeforeKeys) / keystrokes.length;
const cells = await page.$$eval('#chart-gantt path.mb', (ps) => ps.reduce((n, e) => n + Number(e.dataset.bars), 0));
await page.close();

// 3. Sizes: what each page requests as it loads (the on-demand files load only when used), and the
//    site's first load as scripts/build-site.sh counts it: every file but the on-demand ones.
const requested = {};
for (const file of ['calculator.html', 'calculator_zh.html']) {
  const { page: p, requests } = await open(context, fileBase + file);
  await p.waitForSelector('html[data-ready]');
  requested[file] = [...new Set(requests.map((u) => decodeURIComponent(new URL(u).pathname)))]
    .filter((f) => f.startsWith(site));
  await p.close();
}
await context.close();
async function files(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...await files(p)); else out.push({ p, size: (await stat(p)).size });
  }
  return out;
}
const all = await files(site);
const sizeOf = (f) => all.find((x) => x.p === f).size;
const onDemand = /[/\\]heteropipe\.js|js[/\\](exports|[\w]+-page)\.js|i18n[/\\]\w+-\w+\.js|css[/\\](?!calculator|embed-example)\w+\.css/;
const firstLoad = all.filter((f) => !onDemand.test(f.p)).reduce((s, f) => s + f.size, 0);
const moduleSize = sizeOf(path.join(site, 'heteropipe-calc.js'));
const pageLoad = (file) => requested[file].reduce((s, f) => s + sizeOf(f), 0);

const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
console.log(`first result in view from file://: median ${median(first).toFixed(1)} ms (min ${Math.min(...first).toFixed(1)}, n=${first.length}); complete page ${median(complete).toFixed(1)} ms`);
console.log(`keystroke -> updated view at S=64, M=1000 (Gantt ${cells} bars): median ${median(keystrokes).toFixed(2)} ms, p90 ${p90(keystrokes).toFixed(2)} ms (n=${keystrokes.length}); to every picture and the link, after the next paint: median ${median(completes).toFixed(2)} ms, p90 ${p90(completes).toFixed(2)} ms`);
if (faults.length) {
  const touch = firstTouchMicroseconds(), pages = median(faults);
  console.log(`renderer page faults per first load: median ${pages}; a fresh page's first touch here: ${touch.toFixed(2)} µs, so about ${(pages * touch / 1000).toFixed(0)} ms of each first result is this machine's page faults; ${faultsPerKey.toFixed(0)} faults per keystroke, about ${(faultsPerKey * touch / 1000).toFixed(1)} ms`);
}
console.log(`site's first load: ${firstLoad} bytes; calculator.html loads ${pageLoad('calculator.html')} bytes, calculator_zh.html ${pageLoad('calculator_zh.html')}; module ${moduleSize} bytes`);
