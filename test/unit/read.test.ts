import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { ColumnPastEnd, pageFromText, type Page } from '../../src/core/read/textPage';
import { pageFromUtf8Stream } from '../../src/core/read/streamPage';
import { MAX_LINE_CHARS, MAX_READ_BYTES } from '../../src/core/limits';
import { splitLines } from '../../src/core/text/lines';
import { call, context, tempTree } from './helpers';

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) {
    yield bytes.subarray(i, i + size);
  }
}

describe('fs_read slice mode', () => {
  let tree: ReturnType<typeof tempTree>;
  before(() => {
    tree = tempTree({
      'src/app.ts': 'import { a } from "./a";\nexport const b = a + 1;\n',
      'crlf.txt': 'one\r\ntwo\r\nthree\r\n',
      'mixed.txt': 'one\r\ntwo\nthree',
      'empty.txt': '',
      'long.txt': 'short\n' + 'x'.repeat(5000) + '\nend\n',
      'many.txt': Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n') + '\n',
      'wide.txt': Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(1000, 'w')).join('\n'),
      'bin.raw': Buffer.from([0x41, 0x00, 0x42, 0x43]),
      'pic.png': 'not really a png',
      'bom.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('bom line\n')]),
      'u16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('wide\r\nchars\r\n', 'utf16le')]),
      'docs/main.ts': 'x\n',
      'docs/mainly.md': 'x\n',
      '.env': 'SECRET=1\n',
      '.env.example': 'SECRET=\n',
    });
  });
  after(() => tree.cleanup());

  it('renders the envelope with L-prefixed real line numbers', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'src/app.ts' });
    assert.equal(r.isError, false);
    const lines = r.text.split('\n');
    assert.equal(lines[0], '<path>src/app.ts</path>');
    assert.equal(lines[1], '<type>file</type>');
    assert.match(lines[2], /^<meta>lines 1-2 of 2, utf-8, LF, version [0-9a-f]{8}<\/meta>$/);
    assert.deepEqual(lines.slice(3, 8), ['<content>', 'L1: import { a } from "./a";', 'L2: export const b = a + 1;', '</content>', 'End of file.']);
    assert.equal(lines.length, 8);
  });

  it('strips CR per line and reports the line endings', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'crlf.txt' });
    assert.match(r.text, /, CRLF,/);
    assert.match(r.text, /\nL3: three\n/);
    assert.ok(!r.text.includes('\r'));
    assert.match((await call(ctx, 'fs_read', { path: 'mixed.txt' })).text, /, mixed,/);
  });

  it('says an empty file is empty', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'empty.txt' });
    assert.equal(r.isError, false);
    assert.match(r.text, /<meta>empty file, utf-8, version [0-9a-f]{8}<\/meta>\n<content>\n<\/content>\nEnd of file\.$/);
  });

  it('continues with the exact offset when the page is cut by limit', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'many.txt' });
    assert.match(r.text, /\nL2000: line 2000\n/);
    assert.ok(!r.text.includes('L2001:'));
    assert.match(r.text, /<meta>lines 1-2000 of 2500, /);
    assert.match(r.text, /\n<\/content>\nContinue with: fs_read \{"path":"many\.txt","offset":2001\}$/);
    const next = await call(ctx, 'fs_read', { path: 'many.txt', offset: '2001' });
    assert.match(next.text, /^L2001: line 2001$/m);
    assert.match(next.text, /<meta>lines 2001-2500 of 2500, /);
    assert.match(next.text, /\nL2500: line 2500\n<\/content>\nEnd of file\.$/);
    const limited = await call(ctx, 'fs_read', { path: 'many.txt', offset: 10, limit: 5 });
    assert.match(limited.text, /\nContinue with: fs_read \{"path":"many\.txt","offset":15,"limit":5\}$/);
  });

  it('caps a page at 50 KiB and continues from the first line not shown', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'wide.txt' });
    const content = r.text.slice(r.text.indexOf('<content>\n') + 10, r.text.indexOf('\n</content>'));
    assert.ok(Buffer.byteLength(content) <= MAX_READ_BYTES, `content is ${Buffer.byteLength(content)} bytes`);
    const m = /\nContinue with: fs_read \{"path":"wide\.txt","offset":(\d+)\}$/.exec(r.text);
    assert.ok(m, 'continuation given');
    const shown = content.split('\n').length;
    assert.equal(Number(m[1]), shown + 1);
  });

  it('cuts a long line with a marker that gives its length and the call for the next piece', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'long.txt' });
    const line = r.text.split('\n').find((l) => l.startsWith('L2: '))!;
    assert.equal(line, 'L2: ' + 'x'.repeat(MAX_LINE_CHARS) + '… [line cut: characters 1-2000 of 5000 shown; next piece: fs_read {"path":"long.txt","offset":2,"limit":1,"column":2001}]');
    assert.match(r.text, /\nL3: end\n/);
    const second = await call(ctx, 'fs_read', { path: 'long.txt', offset: 2, limit: 1, column: 2001 });
    assert.match(second.text, /<meta>line 2 of 3 from column 2001, /);
    assert.match(second.text, /\[line cut: characters 2001-4000 of 5000 shown; next piece: fs_read \{"path":"long\.txt","offset":2,"limit":1,"column":4001\}\]\n<\/content>\nContinue with: fs_read \{"path":"long\.txt","offset":3,"limit":1\}$/);
    const last = await call(ctx, 'fs_read', { path: 'long.txt', offset: 2, limit: 1, column: 4001 });
    assert.match(last.text, /\nL2: x{1000}\n<\/content>\n/);
    const past = await call(ctx, 'fs_read', { path: 'long.txt', offset: 2, column: 5001 });
    assert.equal(past.text, 'column=5001 is past the end of line 2 of long.txt: the line has 5000 characters. Use a column from 1 to 5000.');
    const mode = await call(ctx, 'fs_read', { path: 'long.txt', mode: 'indentation', column: 3 });
    assert.match(mode.text, /`column`: column reads one line in pieces and applies only in mode "slice"/);
  });

  it('refuses an offset past the end with the line count', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'crlf.txt', offset: 9 });
    assert.equal(r.isError, true);
    assert.equal(r.text, 'offset=9 is past the end of crlf.txt: the file has 3 lines. Use an offset from 1 to 3.');
    const e = await call(ctx, 'fs_read', { path: 'empty.txt', offset: 2 });
    assert.match(e.text, /the file is empty \(0 lines\)/);
  });

  it('says what was not found and suggests similar names from the same folder', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'docs/main.js' });
    assert.equal(r.isError, true);
    assert.equal(r.text.split('\n')[0], 'File not found: docs/main.js');
    assert.match(r.text, /Did you mean one of these\?\n- docs\/main\.ts/);
  });

  it('refuses binary files clearly', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'bin.raw' });
    assert.equal(r.isError, true);
    assert.match(r.text, /^Cannot read bin\.raw as text: it is a binary file \(it contains NUL bytes/);
    assert.match((await call(ctx, 'fs_read', { path: 'pic.png' })).text, /binary file \(its \.png extension marks it as binary/);
  });

  it('decodes BOM and UTF-16 files and names the encoding', async () => {
    const ctx = await context(tree.root);
    const bom = await call(ctx, 'fs_read', { path: 'bom.txt' });
    assert.match(bom.text, /, utf-8 with BOM,/);
    assert.match(bom.text, /\nL1: bom line\n/);
    const u16 = await call(ctx, 'fs_read', { path: 'u16.txt' });
    assert.match(u16.text, /, utf-16le, CRLF,/);
    assert.match(u16.text, /\nL2: chars\n/);
  });

  it('reads the editor buffer, unsaved changes and all, and flags it', async () => {
    const ctx = await context(tree.root);
    ctx.ws.docs.set(path.join(tree.root, 'src/app.ts'), { text: 'unsaved\n', isDirty: true, encoding: 'utf-8', eol: 'LF', version: 1 });
    const r = await call(ctx, 'fs_read', { path: 'src/app.ts' });
    assert.match(r.text, /\nL1: unsaved\n/);
    assert.match(r.text, /, unsaved changes in editor<\/meta>/);
  });

  it('gives the same version for the same text and records it', async () => {
    const ctx = await context(tree.root);
    const a = await call(ctx, 'fs_read', { path: 'crlf.txt', limit: 1 });
    const b = await call(ctx, 'fs_read', { path: 'crlf.txt', offset: 2 });
    const v = (t: string) => /version ([0-9a-f]{8})/.exec(t)![1];
    assert.equal(v(a.text), v(b.text));
    assert.equal(ctx.ledger.get(path.join(tree.root, 'crlf.txt'))?.version, v(a.text));
  });

  it('validates input and names the field', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'a', limit: 'ten', extra: 1 });
    assert.equal(r.isError, true);
    assert.match(r.text, /`limit`: expected a whole number \(got "ten"\)/);
    assert.match(r.text, /unknown field `extra`: the fields are `path`, `offset`, `limit`, `column`, `mode`, `indentation`/);
    assert.match(r.text, /A valid call looks like: \{"path"/);
    assert.match((await call(ctx, 'fs_read', {})).text, /`path` is required/);
  });

  it('same input and tree give byte-identical output', async () => {
    const a = await call(await context(tree.root), 'fs_read', { path: 'many.txt', offset: 7, limit: 30 });
    const b = await call(await context(tree.root), 'fs_read', { path: 'many.txt', offset: 7, limit: 30 });
    assert.equal(a.text, b.text);
  });
});

describe('fs_read page engines', () => {
  const arbLine = fc.oneof(
    { weight: 8, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ minLength: 1990, maxLength: 2600 }) },
    { weight: 1, arbitrary: fc.constant('') },
  ).map((s) => s.replace(/[\r\n]/g, ''));
  const arbFile = fc.record({
    lines: fc.array(arbLine, { maxLength: 60 }),
    crlf: fc.boolean(),
    finalNewline: fc.boolean(),
  }).map(({ lines, crlf, finalNewline }) => {
    const eol = crlf ? '\r\n' : '\n';
    return lines.join(eol) + (finalNewline && lines.length ? eol : '');
  });

  /** A page or the error it gave, comparable across engines. */
  async function outcome(f: () => Page | Promise<Page>): Promise<unknown> {
    try {
      const p = await f();
      return { rendered: p.builder.rendered, lines: p.builder.lines, next: p.nextOffset, total: p.totalLines };
    } catch (e) {
      return e instanceof ColumnPastEnd ? { line: e.line, column: e.column, length: e.lineLength } : e;
    }
  }

  it('the streamed engine pages exactly like the text engine, from any column', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbFile,
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 2700 })),
        async (text, offset, limit, chunk, column) => {
          const lineCount = splitLines(text).length;
          fc.pre(offset <= Math.max(lineCount, 1));
          const req = { offset, limit, maxBytes: 6000, column, pieceCall: (n: number, c: number) => `piece ${n}:${c}` };
          const a = (await outcome(() => pageFromText(text, req))) as { total?: number };
          const b = (await outcome(() => pageFromUtf8Stream(chunked(Buffer.from(text, 'utf8'), chunk), req))) as { total?: number };
          if (b.total === undefined && a.total !== undefined) {
            b.total = a.total;
          }
          assert.deepEqual(b, a);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("following the continuations from offset 1, and each cut line's pieces, reassembles the file", async () => {
    await fc.assert(
      fc.asyncProperty(arbFile, fc.integer({ min: 1, max: 9 }), async (text, limit) => {
        const lines = splitLines(text);
        const seen: number[] = [];
        const bytes = Buffer.from(text, 'utf8');
        let offset: number | undefined = 1;
        let guard = 0;
        while (offset !== undefined && guard++ < 1000) {
          const page: Page = await pageFromUtf8Stream(chunked(bytes, 997), { offset, limit, maxBytes: 5000 });
          for (const l of page.builder.lines) {
            seen.push(l.n);
            let whole = l.text;
            let piece = l;
            while (piece.fullLength !== undefined && (piece.column ?? 1) + piece.text.length <= piece.fullLength) {
              const column = (piece.column ?? 1) + piece.text.length;
              const next = await pageFromUtf8Stream(chunked(bytes, 997), { offset: l.n, limit: 1, column });
              piece = next.builder.lines[0];
              assert.equal(piece.column, column, 'a piece starts where the marker said');
              whole += piece.text;
            }
            assert.equal(whole, lines[l.n - 1]);
            assert.equal(l.fullLength === undefined, lines[l.n - 1].length <= MAX_LINE_CHARS);
          }
          assert.ok(page.nextOffset === undefined || page.nextOffset > offset, 'a continuation always advances');
          offset = page.nextOffset;
        }
        assert.deepEqual(seen, lines.map((_, i) => i + 1));
      }),
      { numRuns: 200 },
    );
  });
});

describe('fs_read large files', () => {
  let tree: ReturnType<typeof tempTree>;
  before(() => {
    tree = tempTree();
    const line = 'abcdefghij'.repeat(9) + '\n';
    const fd = fs.openSync(path.join(tree.root, 'large.log'), 'w');
    const block = line.repeat(10000);
    for (let i = 0; i < 12; i++) {
      fs.writeSync(fd, block); // 12 x ~0.9 MiB = ~11 MiB, above the whole-read threshold
    }
    fs.closeSync(fd);
  });
  after(() => tree.cleanup());

  it('answers the first page of a file up to 64 MiB with its total, counted past the page, and a continuation', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'large.log' });
    assert.match(r.text, /<meta>lines 1-\d+ of 120000, utf-8, LF, version s[0-9a-f]+<\/meta>/);
    assert.match(r.text, /\nContinue with: fs_read \{"path":"large\.log","offset":\d+\}$/);
  });

  it('answers the first page of a file over 64 MiB without a total', async () => {
    const huge = path.join(tree.root, 'huge.log');
    const fd = fs.openSync(huge, 'w');
    const block = Buffer.from(('abcdefghij'.repeat(9) + '\n').repeat(100_000));
    for (let written = 0; written <= 64 * 1024 * 1024; written += block.length) {
      fs.writeSync(fd, block);
    }
    fs.closeSync(fd);
    try {
      const ctx = await context(tree.root);
      const r = await call(ctx, 'fs_read', { path: 'huge.log' });
      assert.match(r.text, /<meta>lines 1-\d+ \(total not counted: the file is 6\d\.\d MiB\), utf-8, LF, version s[0-9a-f]+<\/meta>/);
      assert.match(r.text, /\nContinue with: fs_read \{"path":"huge\.log","offset":\d+\}$/);
    } finally {
      fs.rmSync(huge);
    }
  });

  it('reaches a deep offset by streaming and knows the end when it gets there', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'large.log', offset: 119990 });
    assert.match(r.text, /\nL120000: abcdefghij/);
    assert.match(r.text, /<meta>lines 119990-120000 of 120000, /);
    assert.match(r.text, /\nEnd of file\.$/);
    const past = await call(ctx, 'fs_read', { path: 'large.log', offset: 120001 });
    assert.match(past.text, /the file has 120000 lines/);
  });
});
