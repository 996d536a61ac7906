import { launch, open, fileBase } from './helpers.mjs';
const context = await launch();
const tau = Array.from({ length: 64 }, (_, i) => (0.5 + ((i * 37) % 23) / 10).toFixed(2)).join(', ');
const { page } = await open(context, fileBase + `calculator.html#tau=${encodeURIComponent(tau)}&d=&M=1000&rho=1&T_real=`);
await page.waitForSelector('html[data-ready]');
const r = await page.evaluate(() => {
  const hp = window.HP_MODULE || null;
  return Object.keys(window.HP);
});
console.log(r.join(' '));
const prof = await page.evaluate(async () => {
  const el = document.getElementById('tau'), base = el.value;
  const marks = {};
  const orig = {};
  for (const k of ['results', 'pictures', 'summary', 'slack']) {
    const o = HP[k]; if (!o) continue;
    for (const f of Object.keys(o)) if (typeof o[f] === 'function') {
      const g = o[f]; o[f] = function () { const t = performance.now(); try { return g.apply(this, arguments); } finally { const n = k + '.' + f; marks[n] = (marks[n] || 0) + performance.now() - t; } };
    }
  }
  for (const f of ['render', 'draw']) { const g = HP.gantt[f]; HP.gantt[f] = function () { const t = performance.now(); try { return g.apply(this, arguments); } finally { marks['gantt.' + f] = (marks['gantt.' + f] || 0) + performance.now() - t; } }; }
  const times = [];
  for (let i = 0; i < 100; i++) {
    const t0 = performance.now();
    el.value = base + (i % 9 + 1);
    el.dispatchEvent(new Event('input'));
    const t1 = performance.now();
    await Promise.resolve(); await Promise.resolve();
    const t2 = performance.now();
    void document.body.offsetHeight;
    const t3 = performance.now();
    marks.script = (marks.script || 0) + t1 - t0;
    marks.micro = (marks.micro || 0) + t2 - t1;
    marks.layout = (marks.layout || 0) + t3 - t2;
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 0));
  }
  times.sort((a, b) => a - b);
  for (const k of Object.keys(marks)) marks[k] = +(marks[k] / 100).toFixed(2);
  return { median: times[50], marks };
});
console.log(JSON.stringify(prof, null, 1));
await context.close();
