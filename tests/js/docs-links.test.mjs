// The documentation's links: every relative link in the repository's Markdown
// files must name a file that exists, and every #anchor a heading of its target
// (as GitHub derives heading anchors). Every page under docs/ must be reachable
// from the README. Needs no build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SKIPPED_DIRS = new Set(['.git', 'node_modules', 'build']);

function markdownFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) found.push(...markdownFiles(join(dir, entry.name)));
    else if (entry.isFile() && entry.name.endsWith('.md')) found.push(join(dir, entry.name));
  }
  return found;
}

// The prose lines of a Markdown text: fenced code blocks dropped, and inline
// code spans blanked, so that examples are never read as links.
function proseLines(text) {
  const lines = [];
  let fence = null;
  for (const line of text.split('\n')) {
    const opener = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opener && opener[1][0] === fence[0] && opener[1].length >= fence.length) fence = null;
      continue;
    }
    if (opener) { fence = opener[1]; continue; }
    lines.push(line.replace(/(`+)[^`]*?\1/g, (code) => (/^#/.test(line) ? code : '')));
  }
  return lines;
}

// GitHub's heading anchors: the heading's text, lower-cased, without
// punctuation (letters, digits, blanks, '-' and '_' stay), blanks turned into
// '-'; a repeated anchor gets -1, -2, ...
function anchorsOf(file) {
  const anchors = new Set();
  const seen = new Map();
  for (const line of proseLines(readFileSync(file, 'utf8'))) {
    for (const m of line.matchAll(/\sid="([^"]+)"/g)) anchors.add(m[1]);
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\p{M} _-]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

// Every link target of a file: inline links [text](target "title") and
// reference definitions [label]: target.
function linkTargets(file) {
  const targets = [];
  for (const line of proseLines(readFileSync(file, 'utf8'))) {
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]);
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (definition) targets.push(definition[1]);
  }
  return targets;
}

const files = markdownFiles(root);
const isExternal = (target) => /^[a-z][a-z0-9+.-]*:/i.test(target);

test('the Markdown files to check are found', () => {
  const names = files.map((f) => relative(root, f));
  assert.ok(names.includes('README.md'), names.join(', '));
  assert.ok(names.some((n) => n.startsWith('docs/')), names.join(', '));
});

for (const file of files) {
  const name = relative(root, file);
  test(`${name}: every relative link and anchor resolves`, () => {
    const broken = [];
    for (const target of linkTargets(file)) {
      if (isExternal(target)) continue;
      const hash = target.indexOf('#');
      const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
      const destination = pathPart === '' ? file : resolve(dirname(file), pathPart);
      if (!existsSync(destination)) { broken.push(`${target}: no such file`); continue; }
      if (anchor === null) continue;
      if (!destination.endsWith('.md')) { broken.push(`${target}: an anchor into a file that is not Markdown`); continue; }
      if (!anchorsOf(destination).has(anchor)) broken.push(`${target}: no heading with anchor #${anchor}`);
    }
    assert.deepEqual(broken, []);
  });
}

test('every page under docs/ is linked from the README', () => {
  const docs = join(root, 'docs');
  const pages = existsSync(docs) ? readdirSync(docs).filter((n) => n.endsWith('.md')) : [];
  assert.ok(pages.length > 0, 'docs/ holds Markdown pages');
  const linked = new Set(linkTargets(join(root, 'README.md'))
    .filter((t) => !isExternal(t))
    .map((t) => resolve(root, t.split('#')[0])));
  assert.deepEqual(pages.filter((n) => !linked.has(join(docs, n))), []);
});
