import * as assert from 'node:assert/strict';
import { MAX_READ_BYTES, MAX_READ_LINES, READ_SETTING_MIN_BYTES, READ_SETTING_MIN_LINES } from '../../src/core/limits';
import { DEFAULT_SETTINGS, readPageCap } from '../../src/services/settings';
import { call, context, settingsOf, tempTree } from './helpers';
import * as fs from 'node:fs';
import * as path from 'node:path';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));

function continuation(text: string): unknown {
  const line = text.split('\n').find((l) => l.startsWith('Continue with: fs_read '));
  return line === undefined ? undefined : JSON.parse(line.slice('Continue with: fs_read '.length));
}

describe('read page settings (agentFileTools.read.maxLines / maxBytes)', () => {
  let tree: ReturnType<typeof tempTree>;
  before(() => {
    tree = tempTree({
      'many.txt': Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n') + '\n',
      'wide.txt': Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(1000, 'w')).join('\n') + '\n',
      'block.py': 'def f():\n' + Array.from({ length: 30 }, (_, i) => `    x${i} = ${i}`).join('\n') + '\n\ny = 1\n',
    });
  });
  after(() => tree.cleanup());

  it('defaults to the hard caps, and a value over a cap cannot raise it', () => {
    assert.deepEqual(readPageCap(DEFAULT_SETTINGS), { lines: MAX_READ_LINES, bytes: MAX_READ_BYTES });
    assert.deepEqual(readPageCap({ readMaxLines: 1e9, readMaxBytes: 1e9 }), { lines: MAX_READ_LINES, bytes: MAX_READ_BYTES });
    assert.deepEqual(readPageCap({ readMaxLines: Number.NaN, readMaxBytes: -5 }), { lines: MAX_READ_LINES, bytes: MAX_READ_BYTES });
    assert.deepEqual(readPageCap({ readMaxLines: 120.7, readMaxBytes: 4096 }), { lines: 120, bytes: 4096 });
  });

  it('declares the settings within the hard caps, defaulting to them', () => {
    const props = settingsOf(manifest) as unknown as Record<string, { default: number; minimum: number; maximum: number; markdownDescription: string }>;
    const lines = props['agentFileTools.read.maxLines'];
    const bytes = props['agentFileTools.read.maxBytes'];
    assert.deepEqual([lines.default, lines.minimum, lines.maximum], [MAX_READ_LINES, READ_SETTING_MIN_LINES, MAX_READ_LINES]);
    assert.deepEqual([bytes.default, bytes.minimum, bytes.maximum], [MAX_READ_BYTES, READ_SETTING_MIN_BYTES, MAX_READ_BYTES]);
    assert.equal(DEFAULT_SETTINGS.readMaxLines, MAX_READ_LINES);
    assert.equal(DEFAULT_SETTINGS.readMaxBytes, MAX_READ_BYTES);
    assert.match(lines.markdownDescription, /^%config\.read\.maxLines\./);
  });

  it('a lower line setting shortens the page, says so, and continues with a limit that reads what it says', async () => {
    const ctx = await context(tree.root, { readMaxLines: 300 });
    const r = await call(ctx, 'fs_read', { path: 'many.txt' });
    assert.match(r.text, /<meta>lines 1-300 of 2500, /);
    assert.match(r.text, /\nL300: line 300\n<\/content>\n/);
    assert.match(r.text, /Pages here hold at most 300 lines \(the agentFileTools\.read\.maxLines setting\)\./);
    assert.deepEqual(continuation(r.text), { path: 'many.txt', offset: 301 });
    const asked = await call(ctx, 'fs_read', { path: 'many.txt', offset: 2001, limit: 2000 });
    assert.match(asked.text, /<meta>lines 2001-2300 of 2500, /);
    assert.deepEqual(continuation(asked.text), { path: 'many.txt', offset: 2301, limit: 300 });
    const last = await call(ctx, 'fs_read', { path: 'many.txt', offset: 2301 });
    assert.match(last.text, /<meta>lines 2301-2500 of 2500, /);
    assert.match(last.text, /End of file\.$/);
    assert.doesNotMatch(last.text, /maxLines/, 'a page that reaches the end says nothing about the cap');
  });

  it('a smaller limit asked by the model is not blamed on the setting', async () => {
    const ctx = await context(tree.root, { readMaxLines: 300 });
    const r = await call(ctx, 'fs_read', { path: 'many.txt', limit: 50 });
    assert.match(r.text, /<meta>lines 1-50 of 2500, /);
    assert.doesNotMatch(r.text, /maxLines/);
    assert.deepEqual(continuation(r.text), { path: 'many.txt', offset: 51, limit: 50 });
  });

  it('a lower byte setting stops the page at that many bytes and names the setting', async () => {
    const ctx = await context(tree.root, { readMaxBytes: 4096 });
    const r = await call(ctx, 'fs_read', { path: 'wide.txt' });
    const content = r.text.slice(r.text.indexOf('<content>\n') + 10, r.text.indexOf('</content>'));
    assert.ok(Buffer.byteLength(content) <= 4096, `content is ${Buffer.byteLength(content)} bytes`);
    assert.match(r.text, /<meta>lines 1-4 of 100, /);
    assert.match(r.text, /The page stopped at the 4.0 KiB cap set by the agentFileTools\.read\.maxBytes setting\./);
    assert.deepEqual(continuation(r.text), { path: 'wide.txt', offset: 5 });
    const dflt = await call(await context(tree.root), 'fs_read', { path: 'wide.txt' });
    assert.match(dflt.text, /The page stopped at the 50.0 KiB cap\. /);
  });

  it('an indentation block longer than the page is paged by the setting too', async () => {
    const ctx = await context(tree.root, { readMaxLines: 10 });
    const r = await call(ctx, 'fs_read', { path: 'block.py', mode: 'indentation', offset: 5 });
    assert.match(r.text, /\nL10: {5}x8 = 8\n<\/content>\n/);
    assert.equal(r.text.match(/^L\d+: /gm)?.length, 10);
    assert.match(r.text, /Pages here hold at most 10 lines/);
    assert.match(r.text, /\nContinue with: fs_read \{"path":"block.py","offset":11,"limit":21\}$/);
  });
});
