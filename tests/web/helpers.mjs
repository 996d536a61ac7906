// Shared fixtures of the page tests: the built site, a loopback static server, headless Chromium
// (apt's chromium through playwright-core), and a page that records console errors and requests.
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { readFile, mkdtemp, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const site = path.join(root, 'build', 'web');
export const artifacts = path.join(root, 'build', 'test-artifacts');
export const modulePath = path.join(root, 'build', 'wasm', 'wasm', 'heteropipe.js');

if (!existsSync(path.join(site, 'calculator.html'))) {
  throw new Error('build/web is missing: run scripts/build-site.sh first');
}

// The module the page uses, loaded in Node: the reference every page value is compared with.
// The Chinese table with its tools' words (web/i18n/zh.js and tools-zh.js), read outside a page, its
// numbers written plainly: for tests of the Chinese words of errors.
export function chineseTable() {
  const require = createRequire(import.meta.url);
  globalThis.window = globalThis.window || {};
  require(path.join(root, 'web', 'i18n', 'zh.js'));
  require(path.join(root, 'web', 'i18n', 'tools-zh.js'));
  window.HP_I18N.fmt = { bound: String, integer: String, number: String, raw: String };
  return window.HP_I18N;
}

export async function loadModule() {
  const require = createRequire(import.meta.url);
  return require(path.join(site, 'heteropipe-calc.js'))();
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.txt': 'text/plain; charset=utf-8' };

// A static server for build/web on an ephemeral loopback port.
export async function serve() {
  const server = createServer(async (req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '') || 'calculator.html';
    const file = path.join(site, rel);
    if (!file.startsWith(site + path.sep)) { res.writeHead(403).end(); return; }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' }).end(body);
    } catch { res.writeHead(404).end('not found'); }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}/`;
  return { base, close: () => new Promise((resolve) => server.close(resolve)) };
}

export const fileBase = pathToFileURL(site + path.sep).href;

export async function launch() {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'hp-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1100, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return context;
}

// Opens a page and records every console error, page error and request that leaves the site.
export async function open(context, url) {
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url);
  await page.waitForSelector('html[data-ready]');
  return { page, problems, requests };
}

// Requests that are not the site's own files (data: and blob: URLs are the page's own exports).
export function foreignRequests(requests, base) {
  return requests.filter((u) => !u.startsWith(base) && !u.startsWith('data:') && !u.startsWith('blob:'));
}

// Waits for the page to finish the update that a change started.
export async function settled(page, before) {
  await page.waitForFunction((n) => Number(document.documentElement.getAttribute('data-ready')) > n, before);
}

export async function readyCount(page) {
  return Number(await page.evaluate(() => document.documentElement.getAttribute('data-ready')));
}

// Replaces a field's text as a person would (select all, type), and waits for the page.
export async function typeInto(page, id, text) {
  const before = await readyCount(page);
  await page.fill('#' + id, '');
  await page.type('#' + id, text, { delay: 0 });
  if (text === '') await page.dispatchEvent('#' + id, 'input');
  // The update of fill('') alone can raise data-ready before the typed text's does (a busy
  // machine paints between them): a frame and a task queued now run after the last keystroke's
  // job (after-paint.js), so the count read next is the typed text's.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0))));
  await page.waitForFunction((n) => Number(document.documentElement.getAttribute('data-ready')) > n, before);
}

// Every data-key result on the page as { key: data-value }.
export async function pageValues(page) {
  return page.evaluate(() => {
    const out = {};
    document.querySelectorAll('#result-groups [data-key]').forEach((el) => { out[el.dataset.key] = el.dataset.value; });
    return out;
  });
}

// The analysis as the page would write it into data-value.
export function expectedValues(a) {
  const out = {};
  for (const [k, v] of Object.entries(a)) out[k] = Array.isArray(v) ? v.map(String).join(',') : String(v);
  return out;
}

export async function artifactDir() { await mkdir(artifacts, { recursive: true }); return artifacts; }

export const PAGES = [
  { name: 'en', file: 'calculator.html', lang: 'en' },
  { name: 'zh', file: 'calculator_zh.html', lang: 'zh-CN' },
];

// axe-core's violations on the page (WCAG 2.x A and AA, and its best practices), as
// "rule: target (why)" lines; evaluated through the debugger, so the page's CSP (no inline
// scripts) does not apply. Every page test that runs axe runs it so.
let axeSource = null;
export async function axeViolations(page) {
  axeSource ??= await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.evaluate(axeSource);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'], preload: false }));
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} (${n.failureSummary.split('\n').slice(1, 2).join('')})`));
}
