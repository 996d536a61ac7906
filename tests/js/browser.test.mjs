// The one artifact in headless Chromium as a classic <script>: opened from
// file:// and served over http://127.0.0.1, both under the CSP
// `script-src 'self' 'wasm-unsafe-eval'` (no eval, no inline script).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { hp, modulePath } from './support.mjs';

let dir;
let server;
let browser;

const CSP = "script-src 'self' 'wasm-unsafe-eval'";
// A stricter page, which allows no fetch at all: the module must still load
// (it unpacks its inlined wasm without trying fetch) with no violation.
const STRICT = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'";

const pageWith = (csp) => `<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>heteropipe</title></head>
<body><output id="out">pending</output>
<script src="heteropipe.js"></script>
<script src="app.js"></script>
</body></html>`;

const app = `heteropipe().then(function (hp) {
  var a = hp.analyze({ tau: [0.5, 1, 1, 5], d: [0.2, 0.1, 0.3], M: 16, rho: 0.8 });
  var code = '';
  try { hp.analyze({ tau: [1, 'x'] }); } catch (e) { code = e.code + '/' + e.index + '/' + (e instanceof Error); }
  return heteropipe().then(function (again) {
    document.getElementById('out').textContent = JSON.stringify({ a: a, code: code, cached: again === hp,
      globals: Object.keys(window).filter(function (k) { return /heteropipe|Module/i.test(k); }) });
  });
}, function (e) { document.getElementById('out').textContent = 'failed: ' + e; });`;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'heteropipe-page-'));
  copyFileSync(modulePath, join(dir, 'heteropipe.js'));
  writeFileSync(join(dir, 'index.html'), pageWith(CSP));
  writeFileSync(join(dir, 'strict.html'), pageWith(STRICT));
  writeFileSync(join(dir, 'app.js'), app);
  server = createServer((req, res) => {
    const name = req.url === '/' ? 'index.html' : req.url.slice(1);
    if (!['index.html', 'strict.html', 'app.js', 'heteropipe.js'].includes(name)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': name.endsWith('.js') ? 'text/javascript' : 'text/html' });
    res.end(readFileSync(join(dir, name)));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function resultAt(url) {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const violations = [];
  tab.on('console', (m) => { if (/Content Security Policy|Refused/.test(m.text())) violations.push(m.text()); });
  await tab.goto(url);
  await tab.waitForFunction(() => document.getElementById('out').textContent !== 'pending', null, { timeout: 20000 });
  const text = await tab.textContent('#out');
  await context.close();
  assert.deepEqual(violations, []);
  assert.ok(!text.startsWith('failed'), text);
  return JSON.parse(text);
}

function checkResult(r) {
  const expected = hp.analyze({ tau: [0.5, 1, 1, 5], d: [0.2, 0.1, 0.3], M: 16, rho: 0.8 });
  assert.deepEqual(r.a, expected);
  assert.equal(r.code, 'not_a_number/1/true');
  assert.equal(r.cached, true);
  assert.deepEqual(r.globals, ['heteropipe']);
}

test('classic script from file:// under CSP', async () => {
  checkResult(await resultAt(pathToFileURL(join(dir, 'index.html')).href));
});

test('classic script over http://127.0.0.1 under CSP', async () => {
  checkResult(await resultAt(`http://127.0.0.1:${server.address().port}/`));
});

test('a stricter CSP (default-src none) loads with no violation', async () => {
  checkResult(await resultAt(pathToFileURL(join(dir, 'strict.html')).href));
  checkResult(await resultAt(`http://127.0.0.1:${server.address().port}/strict.html`));
});
