#!/usr/bin/env node
// A tiny static server for build/web on the loopback interface only.
// Usage: node scripts/serve.mjs [port] (default 8080; 0 picks a free port).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const site = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'build', 'web');
const port = Number(process.argv[2] ?? process.env.PORT ?? 8080);
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.txt': 'text/plain; charset=utf-8', '.svg': 'image/svg+xml' };

const server = createServer(async (req, res) => {
  let rel;
  try { rel = decodeURIComponent(new URL(req.url, 'http://localhost').pathname); } catch { res.writeHead(400).end(); return; }
  const file = path.join(site, rel.endsWith('/') ? rel + 'calculator.html' : rel);
  if (!file.startsWith(site + path.sep)) { res.writeHead(403).end(); return; }
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  }
});
server.listen(port, '127.0.0.1', () => {
  const base = `http://127.0.0.1:${server.address().port}/`;
  console.log(`Serving ${site}`);
  console.log(`  English: ${base}calculator.html`);
  console.log(`  Chinese: ${base}calculator_zh.html`);
  console.log('Press Ctrl+C to stop.');
});
