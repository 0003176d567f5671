import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { InstructionMemory } from '../../src/core/read/instructions';
import { makePdf } from './pdfFixture';
import { call, context, tempTree } from './helpers';

const root = path.resolve(__dirname, '../../..');

function zipBytes(): Buffer {
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(5, 26);
  return Buffer.concat([h, Buffer.from('a.txt'), Buffer.alloc(64)]);
}

const PY = [
  'import os',
  '',
  '# Helpers for paths.',
  'def first(p):',
  '    if p:',
  '        return p[0]',
  '    return None',
  '',
  '',
  'def second(p):',
  '    return p[1]',
  '',
].join('\n');

describe('fs_read modes and file kinds', () => {
  let tree: ReturnType<typeof tempTree>;
  before(() => {
    tree = tempTree({
      'mod.py': PY,
      'logo.png': fs.readFileSync(path.join(root, 'media/icon.png')),
      'disguised.txt': fs.readFileSync(path.join(root, 'media/icon.png')),
      'archive.zip': zipBytes(),
      'archive.data': zipBytes(),
      'be.txt': Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('big\nendian\n', 'utf16le').swap16()]),
      'drawing.svg': '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>\n',
      'lines.txt': Array.from({ length: 300 }, (_, i) => `line number ${i + 1} with some words to count`).join('\n') + '\n',
    });
  });
  after(() => tree.cleanup());

  it('indentation mode returns the block around the anchor, with its header, and says its size', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'mod.py', mode: 'indentation', indentation: { anchor_line: 6, max_levels: 0 } });
    assert.equal(r.isError, false, r.text);
    const shown = r.text.split('\n').filter((l) => /^L\d+: /.test(l));
    assert.deepEqual(shown, ['L3: # Helpers for paths.', 'L4: def first(p):', 'L5:     if p:', 'L6:         return p[0]', 'L7:     return None']);
    assert.match(r.text, /<meta>lines 3-7 of 11, the block around line 6, utf-8, LF, version [0-9a-f]{8}<\/meta>/);
    assert.match(r.text, /\n<\/content>\nEnd of block\.$/);
  });

  it('indentation mode with only anchor_line: the smallest block that holds the anchor, and how to widen it', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'mod.py', mode: 'indentation', indentation: { anchor_line: 6 } });
    assert.deepEqual(
      r.text.split('\n').filter((l) => /^L\d+: /.test(l)),
      ['L5:     if p:', 'L6:         return p[0]'],
    );
    assert.match(r.text, /<meta>lines 5-6 of 11, the block around line 6; max_levels 2 widens it to lines 3-7, utf-8, LF, version [0-9a-f]{8}<\/meta>/);
    // a 13-line function nested in a method of a long class: that function, not the class
    const body = Array.from({ length: 300 }, (_, i) => `        step_${i}(self)`);
    const nested = ['        def helper(item):', ...Array.from({ length: 11 }, (_, i) => `            item = f_${i}(item)`), '            return item'];
    const cls = ['class Service:', '    def run(self):', ...body, ...nested, '        return helper', ''].join('\n');
    fs.writeFileSync(path.join(tree.root, 'svc.py'), cls);
    const n = await call(ctx, 'fs_read', { path: 'svc.py', mode: 'indentation', indentation: { anchor_line: 310 } });
    assert.deepEqual(
      n.text.split('\n').filter((l) => /^L\d+: /.test(l)).map((l) => Number(/^L(\d+)/.exec(l)![1])),
      Array.from({ length: 13 }, (_, i) => 303 + i),
    );
    assert.match(n.text, /the block around line 310; max_levels 2 widens it to lines 2-316/);
  });

  it('indentation mode takes anchor_line from offset and refuses an anchor past the end', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'mod.py', offset: 11, indentation: { include_header: false } });
    assert.match(r.text, /\nL10: def second\(p\):\nL11: {5}return p\[1\]\n/);
    const bad = await call(ctx, 'fs_read', { path: 'mod.py', mode: 'indentation', indentation: { anchor_line: 40 } });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /40/);
    assert.match(bad.text, /11 lines/);
  });

  it('refuses indentation options with mode "slice"', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'mod.py', mode: 'slice', indentation: { anchor_line: 2 } });
    assert.equal(r.isError, true);
    assert.match(r.text, /`indentation`: indentation options apply only with mode "indentation"/);
  });

  it('attaches an image found by its magic number, with its type, pixel size and bytes', async () => {
    const ctx = await context(tree.root);
    for (const name of ['logo.png', 'disguised.txt']) {
      const r = await call(ctx, 'fs_read', { path: name });
      assert.equal(r.isError, false);
      assert.equal(r.parts.length, 2);
      assert.equal(r.parts[0].kind, 'text');
      assert.equal(r.parts[0].kind === 'text' && r.parts[0].text, `<path>${name}</path>\n<type>image</type>\n<meta>PNG (image/png), 128x128 pixels, 575 bytes</meta>\nThe image is attached.`);
      const data = r.parts[1];
      assert.ok(data.kind === 'data' && data.mime === 'image/png' && data.data.byteLength === 575);
    }
  });

  it('refuses an image over the size limit, naming both sizes', async () => {
    const ctx = await context(tree.root, { maxImageBytes: 100 });
    const r = await call(ctx, 'fs_read', { path: 'logo.png' });
    assert.equal(r.isError, true);
    assert.match(r.text, /575 bytes/);
    assert.match(r.text, /100 bytes limit/);
    assert.match(r.text, /agentFileTools\.maxImageBytes/);
  });

  it('names the detected type of a binary file, whatever its extension', async () => {
    const ctx = await context(tree.root);
    for (const name of ['archive.zip', 'archive.data']) {
      const r = await call(ctx, 'fs_read', { path: name });
      assert.equal(r.isError, true);
      assert.match(r.text, new RegExp(`^Cannot read ${name.replace('.', '\\.')} as text: it is a ZIP file \\(application/zip\\)`));
    }
  });

  it('reads UTF-16 BE and SVG as text', async () => {
    const ctx = await context(tree.root);
    const be = await call(ctx, 'fs_read', { path: 'be.txt' });
    assert.match(be.text, /, utf-16be, LF,/);
    assert.match(be.text, /\nL2: endian\n/);
    const svg = await call(ctx, 'fs_read', { path: 'drawing.svg' });
    assert.match(svg.text, /\nL1: <svg xmlns=/);
  });

  it('sizes the page to a token budget and continues where it stopped', async () => {
    const ctx = await context(tree.root);
    const counted: number[] = [];
    ctx.budget = {
      tokenBudget: 400,
      countTokens: async (text) => {
        counted.push(text.length);
        return Math.ceil(text.length / 4);
      },
    };
    const r = await call(ctx, 'fs_read', { path: 'lines.txt' });
    assert.ok(Math.ceil(r.text.length / 4) <= 400, `${r.text.length} chars fit 400 tokens`);
    const m = /\nContinue with: fs_read \{"path":"lines\.txt","offset":(\d+)\}$/.exec(r.text);
    assert.ok(m, r.text);
    const shown = r.text.split('\n').filter((l) => /^L\d+: /.test(l)).length;
    assert.ok(shown > 10, `${shown} lines shown`);
    assert.equal(Number(m[1]), shown + 1);
    assert.ok(counted.length < 20, `binary search, not a scan: ${counted.length} counts`);
    // one more line would not have fitted
    const next = await call(ctx, 'fs_read', { path: 'lines.txt', offset: Number(m[1]) });
    assert.match(next.text, new RegExp(`\\nL${m[1]}: line number ${m[1]} `));
  });
});

describe('fs_read on folders and notebooks', () => {
  let tree: ReturnType<typeof tempTree>;
  const notebook = JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { language_info: { name: 'python' } },
    cells: [
      { cell_type: 'markdown', metadata: {}, source: ['# Title\n', 'Some text'] },
      { cell_type: 'code', metadata: {}, execution_count: 2, source: 'print(1)\nprint(2)', outputs: [{ output_type: 'stream', name: 'stdout', text: ['1\n', '2\n'] }] },
      { cell_type: 'code', metadata: {}, execution_count: 3, source: 'plot()', outputs: [{ output_type: 'display_data', metadata: {}, data: { 'image/png': 'iVBORw0KGgo=', 'text/plain': '<Figure>' } }] },
    ],
  });
  before(() => {
    tree = tempTree({ 'dir/b.txt': 'b', 'dir/a.txt': 'a', 'dir/sub/x.txt': 'x', 'nb.ipynb': notebook, 'broken.ipynb': '{"cells": [' });
    fs.symlinkSync(path.join(tree.root, 'dir/a.txt'), path.join(tree.root, 'dir/link'));
  });
  after(() => tree.cleanup());

  it('lists a folder in the directory envelope, sorted, folders with / and links with @', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'dir' });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.text, '<path>dir</path>\n<type>directory</type>\n<meta>entries 1-4 of 4</meta>\n<entries>\na.txt\nb.txt\nlink@\nsub/\n</entries>\nEnd of folder.');
    const paged = await call(ctx, 'fs_read', { path: 'dir', offset: 2, limit: 2 });
    assert.match(paged.text, /<entries>\nb\.txt\nlink@\n<\/entries>\nContinue with: fs_read \{"path":"dir","offset":4,"limit":2\}$/);
  });

  it('renders a notebook as numbered cells with summarised outputs, never raw JSON', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'nb.ipynb' });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /<type>notebook<\/type>/);
    assert.match(r.text, /<cell index="1" kind="markdown"[^>]*>\nL1: # Title\nL2: Some text\n<\/cell>/);
    assert.match(r.text, /<cell index="2" kind="code" language="python"[^>]*>\nL1: print\(1\)\nL2: print\(2\)\n<outputs>/);
    assert.match(r.text, /\[image\/png output, \d+ bytes\]/);
    assert.ok(!r.text.includes('"cell_type"'), 'no raw JSON');
    assert.match(r.text, /<meta>cells 1-3 of 3, /);
    const second = await call(ctx, 'fs_read', { path: 'nb.ipynb', offset: 2, limit: 1 });
    assert.match(second.text, /<cell index="2"/);
    assert.ok(!second.text.includes('<cell index="3"'));
    assert.match(second.text, /\nContinue with: fs_read \{"path":"nb\.ipynb","offset":3,"limit":1\}$/);
  });

  it('says a notebook that is not valid JSON cannot be parsed', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'broken.ipynb' });
    assert.equal(r.isError, true);
    assert.match(r.text, /broken\.ipynb/);
    assert.match(r.text, /fs_grep/);
  });

  it('uses the open notebook document when there is one', async () => {
    const ctx = await context(tree.root);
    ctx.ws.notebooks.set(path.join(tree.root, 'nb.ipynb'), { cells: [{ kind: 'code', language: 'python', source: 'edited = True', outputs: [] }], isDirty: true });
    const r = await call(ctx, 'fs_read', { path: 'nb.ipynb' });
    assert.match(r.text, /L1: edited = True/);
    assert.match(r.text, /<meta>cell 1 of 1, /);
    assert.match(r.text, /unsaved changes/);
  });
});

describe('fs_read instruction files', () => {
  let tree: ReturnType<typeof tempTree>;
  before(() => {
    tree = tempTree({
      'AGENTS.md': 'root rules: loaded by the chat already\n',
      'pkg/AGENTS.md': 'pkg rules\n',
      'pkg/lib/CLAUDE.md': 'lib rules\n',
      'pkg/lib/code.ts': 'export {};\n',
      'pkg/lib/other.ts': 'export {};\n',
    });
  });
  after(() => tree.cleanup());

  it('gives AGENTS.md and CLAUDE.md of the folders below the root in a system-reminder before the page, outermost first', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'pkg/lib/code.ts' });
    assert.equal(r.parts.length, 2);
    const reminder = (r.parts[0] as { text: string }).text;
    assert.match(r.text, /\n<\/system-reminder>\n<path>pkg\/lib\/code\.ts<\/path>\n[\s\S]*\nEnd of file\.$/, 'the page keeps its closing line last');
    assert.match(reminder, /^<system-reminder>\n/);
    assert.match(reminder, /<instructions path="pkg\/AGENTS\.md">\npkg rules\n<\/instructions>\n<instructions path="pkg\/lib\/CLAUDE\.md">\nlib rules\n<\/instructions>\n<\/system-reminder>$/);
    assert.ok(!reminder.includes('root rules'), "the root's own file is not repeated");
  });

  it('gives them once per chat request, and again in a new request', async () => {
    const ctx = await context(tree.root);
    ctx.instructions = new InstructionMemory();
    ctx.requestKey = 'request-1';
    const missing = await call(ctx, 'fs_read', { path: 'pkg/lib/nope.ts' });
    assert.equal(missing.isError, true);
    assert.equal((await call(ctx, 'fs_read', { path: 'pkg/lib/code.ts' })).parts.length, 2, 'a failed read does not use them up');
    assert.equal((await call(ctx, 'fs_read', { path: 'pkg/lib/other.ts' })).parts.length, 1, 'same request: not again');
    ctx.requestKey = 'request-2';
    assert.equal((await call(ctx, 'fs_read', { path: 'pkg/lib/other.ts' })).parts.length, 2);
  });

  it('can be turned off, and a file does not remind of itself', async () => {
    const off = await context(tree.root, { instructionFiles: false });
    assert.equal((await call(off, 'fs_read', { path: 'pkg/lib/code.ts' })).parts.length, 1);
    const ctx = await context(tree.root);
    const self = await call(ctx, 'fs_read', { path: 'pkg/AGENTS.md' });
    assert.equal(self.parts.length, 1);
  });
});

describe('fs_read on PDFs and oversized lines', () => {
  let tree: ReturnType<typeof tempTree>;
  before(() => {
    tree = tempTree({
      'guide.pdf': makePdf([['Intro page'], ['Second page text'], ['Third page']]),
      'renamed.bin': makePdf([['Hidden PDF']]),
    });
    // one line longer than the whole-read threshold: streamed, cut, counted
    fs.writeFileSync(path.join(tree.root, 'one-line.min.js'), 'x'.repeat(9 * 1024 * 1024) + '\nend\n');
  });
  after(() => tree.cleanup());

  it('reads a PDF as text per page, pages counted by offset and limit', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'guide.pdf', offset: 2, limit: 1 });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /<type>pdf<\/type>/);
    assert.match(r.text, /=== Page 2 ===\n> Second page text/);
    assert.ok(!r.text.includes('Intro page') && !r.text.includes('Third page'));
    assert.match(r.text, /<meta>page 2 of 3, /);
    assert.match(r.text, /\nContinue with: fs_read \{"path":"guide\.pdf","offset":3,"limit":1\}$/);
    assert.ok(ctx.ledger.get(path.join(tree.root, 'guide.pdf')), 'the version is recorded');
  });

  it('knows a PDF by its header whatever its name', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'renamed.bin' });
    assert.match(r.text, /Hidden PDF/);
  });

  it('streams a line longer than the byte cap into a page of that one cut line, then continues', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'one-line.min.js' });
    assert.equal(r.isError, false);
    const shown = r.text.split('\n').filter((l) => /^L\d+: /.test(l));
    assert.equal(shown[0], 'L1: ' + 'x'.repeat(2000) + '… [line cut: characters 1-2000 of 9437184 shown; next piece: fs_read {"path":"one-line.min.js","offset":1,"limit":1,"column":2001}]');
    assert.equal(shown[1], 'L2: end');
    assert.match(r.text, /<meta>lines 1-2 of 2, /);
    assert.match(r.text, /\nEnd of file\.$/);
    const second = await call(ctx, 'fs_read', { path: 'one-line.min.js', limit: 1 });
    assert.match(second.text, /\nContinue with: fs_read \{"path":"one-line\.min\.js","offset":2,"limit":1\}$/);
    // under LINE_TOTAL_MAX_BYTES: the total is counted past the page
    assert.match(second.text, /<meta>line 1 of 2, /);
    // a piece deep inside the line is found by skipping, not by keeping the line
    const deep = await call(ctx, 'fs_read', { path: 'one-line.min.js', limit: 1, column: 9437184 - 99 });
    assert.match(deep.text, /<meta>line 1 of 2 from column 9437085, /);
    assert.match(deep.text, /\nL1: x{100}\n<\/content>\n/);
  });
});

describe('fs_read "did you mean"', () => {
  let tree: ReturnType<typeof tempTree>;
  before(() => {
    tree = tempTree({
      'src/main.ts': 'x\n',
      'src/util/parse.ts': 'x\n',
      'lib/parse.js': 'x\n',
      'build/parse.ts': 'x\n',
      '.gitignore': 'build/\n',
      'docs/readme.md': 'x\n',
    });
  });
  after(() => tree.cleanup());

  it('suggests the same name with another extension in the same folder first', async () => {
    const r = await call(await context(tree.root), 'fs_read', { path: 'src/main.js' });
    assert.match(r.text, /^File not found: src\/main\.js\nDid you mean one of these\?\n- src\/main\.ts/);
  });

  it('then finds the name elsewhere in the workspace, respecting ignore rules', async () => {
    const r = await call(await context(tree.root), 'fs_read', { path: 'parse.ts' });
    const lines = r.text.split('\n');
    assert.equal(lines[0], 'File not found: parse.ts');
    assert.deepEqual(lines.slice(2), ['- src/util/parse.ts', '- lib/parse.js']);
    assert.ok(!r.text.includes('build/parse.ts'), 'ignored folders are not searched');
  });

  it('counts no shared extension as likeness: a typo of a name, not every file of its type', async () => {
    const t = tempTree({ 'core/contract.ts': 'x\n', 'core/format.ts': 'x\n', 'core/cancel.ts': 'x\n', 'core/diff.ts': 'x\n' });
    try {
      const r = await call(await context(t.root), 'fs_read', { path: 'core/contrat.ts' });
      assert.equal(r.text, 'File not found: core/contrat.ts\nDid you mean one of these?\n- core/contract.ts');
    } finally {
      t.cleanup();
    }
  });

  it('says how to search when nothing is close', async () => {
    const r = await call(await context(tree.root), 'fs_read', { path: 'nothing/like/it.xyz' });
    assert.match(r.text, /^File not found: nothing\/like\/it\.xyz\nUse fs_glob with the file name/);
  });
});
