// The Chinese words of the GGUF codes (web/i18n/tools-zh.js): each error the module's modelInfo
// throws for a bad file is worded, with its byte offset, not left to the English fallback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { root, modulePath } from './helpers.mjs';

const require = createRequire(import.meta.url);
globalThis.window = { HP_I18N: { fmt: { bound: String, integer: String, number: String } } };
require(path.join(root, 'web', 'i18n', 'tools-zh.js'));
const zh = window.HP_I18N.tools;

const u32 = (n) => { const b = Buffer.alloc(4); b.writeUInt32LE(n); return b; };
const u64 = (n) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(n)); return b; };

test('each GGUF error is worded in Chinese, with its byte offset', async () => {
  const hp = await require(modulePath)();
  const cases = {
    not_gguf: Buffer.from('NOTAGGUFFILE_____________'),
    unsupported_version: Buffer.concat([Buffer.from('GGUF'), u32(9), u64(0), u64(0)]),
    truncated: Buffer.concat([Buffer.from('GGUF'), u32(3), u64(1), u64(0)]),
  };
  for (const [code, bytes] of Object.entries(cases)) {
    let error;
    try { await hp.modelInfo(new Uint8Array(bytes)); } catch (e) { error = e; }
    assert.ok(error, code);
    assert.equal(error.code, code);
    const said = zh.error(error, hp.limits, String(error.value));
    assert.equal(typeof said, 'string', code);
    assert.ok(/[\u4e00-\u9fff]/.test(said), said);
    if (code === 'unsupported_version') assert.ok(said.includes('第 ' + error.index + ' 字节'), said);
  }
});
