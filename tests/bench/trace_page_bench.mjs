// The page's trace import in headless Chromium (figures for docs/benchmarks.md; nothing is asserted):
// four Kineto-shaped rank files, about 100 MB of JSON in all, written from the exact timeline as
// tests/core/trace_support.hpp writes them (trace_bench.cpp's run: M = 7800, 20 kernels per
// micro-batch), chosen in the "Measured run" section as plain JSON and as .json.gz. Measured: from
// the file input's change to the result on the page (reading, inflating, the worker's import,
// drawing); the longest main-thread task meanwhile; and the browser's resident memory above its
// level before the import, as a multiple of the JSON's size.
// Usage: node tests/bench/trace_page_bench.mjs  (after scripts/build-site.sh)
import { chromium } from 'playwright-core';
import { mkdtemp, writeFile, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileBase, modulePath } from '../web/helpers.mjs';

const hp = await createRequire(import.meta.url)(modulePath)();

// Rank r's JSON text, in the shape of trace_support.hpp's synthetic_rank.
function rankText(t, r, kernels, clock) {
  const S = t.S, shift = 1682725898000000 + clock[r], out = [];
  const kernel = (name, stream, ts, dur, collective) => out.push(',\n{"ph":"X","cat":"kernel","name":"' + name + '","pid":' + r +
    ',"tid":' + stream + ',"ts":' + ts + ',"dur":' + dur + ',"args":{"device":' + r + ',"stream":' + stream +
    (collective ? ',"Collective name":"' + collective + '","Process Group Ranks":[0,1]' : '') + '}}');
  out.push('{"schemaVersion":1,"deviceProperties":[{"id":0,"name":"GPU","totalGlobalMem":1}],"distributedInfo":{"backend":"nccl","rank":' + r +
    ',"world_size":' + S + '},\n"traceEvents":[\n{"ph":"M","name":"process_name","pid":' + r + ',"tid":0,"args":{"name":"python"}}');
  for (let m = 0; m < t.M; m++) {
    const i = m * S + r, start = t.compute_start[i], length = t.compute_finish[i] - start;
    for (let k = 0; k < kernels; k++) kernel('void gemm_kernel<128>(float*)', 7, shift + start + length * k / kernels, length / kernels);
    if (r + 1 < S) {
      const j = m * (S - 1) + r;
      kernel('ncclDevKernel_SendRecv(ncclDevComm*)', 84, shift + t.transfer_start[j], t.transfer_finish[j] - t.transfer_start[j], 'send');
    }
    if (r > 0) {
      const j = m * (S - 1) + r - 1, begin = t.transfer_start[j] - 7;
      kernel('ncclDevKernel_SendRecv(ncclDevComm*)', 85, shift + begin, t.transfer_finish[j] - begin, 'recv');
    }
  }
  out.push('\n]}');
  return out.join('');
}

const dir = await mkdtemp(path.join(tmpdir(), 'hp-trace-bench-'));
const t = hp.timeline({ tau: [1000, 2500, 1500, 2000], d: [200, 300, 100], M: 7800, regime: 'async' });
const plain = [], packed = [];
let bytes = 0;
for (let r = 0; r < 4; r++) {
  const text = rankText(t, r, 20, [0, 12345, -777, 4242]);
  bytes += text.length;
  plain.push(path.join(dir, `rank-${r}.json`));
  packed.push(path.join(dir, `rank-${r}.json.gz`));
  await writeFile(plain[r], text);
  await writeFile(packed[r], gzipSync(text, { level: 6 }));
}
console.log(`generated ${(bytes / 1e6).toFixed(1)} MB of JSON in 4 files`);
// The same import in Node through the same module, for comparison: the module's own share.
{
  const files = await Promise.all(plain.map(async (p) => ({ name: path.basename(p), bytes: new Uint8Array(await readFile(p)) })));
  for (let round = 0; round < 2; round++) {
    const start = performance.now(), cpu = process.cpuUsage();
    const r = hp.importTrace(files, { unit: 'ms' });
    const used = process.cpuUsage(cpu);
    console.log(`hp.importTrace in Node: ${((performance.now() - start) / 1000).toFixed(2)} s (processor time ` +
      `${((used.user + used.system) / 1e6).toFixed(2)} s; M = ${r.M})`);
  }
}

// The browser's processes, found by their profile directory: their resident memory summed, and
// their processor time (the machine is shared, and wall time counts the waits).
const profile = await mkdtemp(path.join(tmpdir(), 'hp-trace-bench-chromium-'));
async function browser() {
  let kb = 0, ticks = 0, faults = 0;
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!(await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes(profile)) continue;
      kb += Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] || 0);
      const stat = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
      ticks += Number(stat[11]) + Number(stat[12]);  // utime, stime
      faults += Number(stat[7]);  // minor faults: fresh pages touched
    } catch { /* the process ended */ }
  }
  return { bytes: kb * 1024, seconds: ticks / 100, faults };
}
const resident = async () => (await browser()).bytes;

const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, viewport: { width: 1100, height: 900 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

async function importOnce(files) {
  const page = await context.newPage();
  await page.goto(fileBase + 'calculator.html');
  await page.waitForSelector('html[data-ready]');
  // A small import first: the module, the page code and the worker are loaded before the clock starts.
  await page.setInputFiles('#trace-files', { name: 'warm.csv', mimeType: 'text/csv', buffer: Buffer.from('stage,microbatch,kind,start,end\n0,0,compute,0,1\n') });
  await page.waitForSelector('#trace-body[data-answered="1"]');
  await page.evaluate(() => {
    window.bench = { longest: 0 };
    document.addEventListener('change', () => { window.bench.t0 = performance.now(); }, true);
    new PerformanceObserver((l) => l.getEntries().forEach((e) => { window.bench.longest = Math.max(window.bench.longest, e.duration); }))
      .observe({ entryTypes: ['longtask'] });
    new MutationObserver(() => { window.bench.t1 = performance.now(); })
      .observe(document.getElementById('trace-body'), { attributes: true, attributeFilter: ['data-answered'] });
  });
  await new Promise((r) => setTimeout(r, 500));
  const before = await resident(), { seconds: cpu0, faults: faults0 } = await browser();
  let peak = before, sampling = true;
  const sampler = (async () => { while (sampling) { peak = Math.max(peak, await resident()); await new Promise((r) => setTimeout(r, 50)); } })();
  await page.setInputFiles('#trace-files', files);
  await page.waitForSelector('#trace-body[data-answered="2"]', { timeout: 120000 });
  sampling = false;
  await sampler;
  const after = await browser(), cpu = after.seconds - cpu0, faults = after.faults - faults0;
  const b = await page.evaluate(() => window.bench);
  const shown = await page.$eval('.trace-summary [data-key="tau"]', (e) => e.dataset.value).catch(() => 'none');
  await page.close();
  return { seconds: (b.t1 - b.t0) / 1000, cpu, faults, longest: b.longest, extra: (peak - before) / bytes, tau: shown };
}

// The cost of a first touch of one fresh 4 KiB page here (a VM whose host backs guest memory lazily
// pays tens of microseconds a page, which then dominates an import that touches gigabytes).
function firstTouchMicroseconds() {
  const t0 = performance.now();
  const bytes = new Uint8Array(256 << 20);
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = 1;
  return (performance.now() - t0) * 1000 / (bytes.length / 4096);
}
const touch = firstTouchMicroseconds();
console.log(`a fresh page's first touch here: ${touch.toFixed(2)} µs`);
for (const [label, files] of [['JSON', plain], ['.json.gz', packed]]) {
  for (let round = 0; round < 3; round++) {
    const r = await importOnce(files);
    console.log(`${label}: ${r.seconds.toFixed(2)} s to the result (browser processor time ${r.cpu.toFixed(2)} s); longest main-thread task ${r.longest.toFixed(0)} ms; ` +
      `memory above the page before: ${r.extra.toFixed(2)}x the JSON (tau ${r.tau}); ${r.faults} page faults, about ` +
      `${(r.faults * touch / 1e6).toFixed(2)} s of first touches on this machine`);
  }
}
await context.close();
await rm(dir, { recursive: true });
await rm(profile, { recursive: true });
