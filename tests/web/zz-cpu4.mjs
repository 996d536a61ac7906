import { launch } from './helpers.mjs';
const context = await launch();
const agg = {}, total = {};
const N = 6;
const firsts = [];
for (let i = 0; i < N; i++) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await page.goto('file:///tmp/site-prof/calculator.html');
  await page.waitForFunction(() => performance.getEntriesByName('hp-first-result').length);
  firsts.push(await page.evaluate(() => performance.getEntriesByName('hp-first-result')[0].startTime));
  const { profile } = await cdp.send('Profiler.stop');
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map(); for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  for (let k = 0; k < profile.samples.length; k++) {
    const w = (profile.timeDeltas[k + 1] || 0) / 1000 / N;
    // inclusive time per function (once per stack)
    const seen = new Set(); let cur = profile.samples[k];
    while (cur) { const cf = byId.get(cur).callFrame; const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').pop()}:${cf.lineNumber + 1}`; if (!seen.has(key)) { seen.add(key); total[key] = (total[key] || 0) + w; } cur = parent.get(cur); }
  }
  await page.close();
}
console.log('firsts', firsts.map((x) => x.toFixed(0)).join(' '));
for (const [k, v] of Object.entries(total).sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(v.toFixed(1).padStart(7), k);
await context.close();
