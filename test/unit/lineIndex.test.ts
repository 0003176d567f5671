import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { LINE_INDEX_MIN_STEP_LINES, LINE_SCAN_CHUNK_BYTES, LINE_SCAN_READS_IN_FLIGHT, LINE_TOTAL_MAX_BYTES, MAX_LINE_INDEX_CHECKPOINTS, MAX_LINE_INDEX_FILES } from '../../src/core/limits';
import { LineIndex, LineIndexCache } from '../../src/core/read/lineIndex';
import type { PageRequest } from '../../src/core/read/page';
import { pageWithIndex, scanLines, type ByteSource } from '../../src/core/read/seek';
import { pageFromUtf8Stream } from '../../src/core/read/streamPage';
import type { Page } from '../../src/core/read/textPage';
import { afterNthNewline, NewlineScanner } from '../../src/core/text/newlines';
import { call, context, tempTree } from './helpers';

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) {
    yield bytes.subarray(i, i + size);
  }
}

/** An in-memory file whose reads are counted, read in chunks of `streamChunk`. */
function memorySource(bytes: Uint8Array, streamChunk = 97): ByteSource & { bytesRead: number } {
  const src = {
    size: bytes.length,
    bytesRead: 0,
    async readInto(target: Uint8Array, position: number, length: number) {
      const part = bytes.subarray(position, Math.min(bytes.length, position + Math.min(length, target.length)));
      target.set(part);
      src.bytesRead += part.length;
      return part.length;
    },
    stream: (start: number) => chunked(bytes.subarray(start), streamChunk),
  };
  return src;
}

/** What a page shows and says about the rest, or the error it ends with. */
async function outcome(run: () => Promise<Page>): Promise<unknown> {
  try {
    const p = await run();
    return { rendered: p.builder.rendered, nextOffset: p.nextOffset, stop: p.stop, totalLines: p.totalLines };
  } catch (e) {
    return { error: (e as Error).constructor.name, message: (e as Error).message };
  }
}

/** Lines of the text as a streamed read counts them: split on \n, a last line without one counts. */
function trueTotal(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) {
    n += b === 10 ? 1 : 0;
  }
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? n + 1 : n;
}

const lineArb = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom('', '\r', 'é', '😀x', '\t  ') },
  // lines over the cut (2000 characters) and over what a streamed line keeps (8004 bytes)
  { weight: 1, arbitrary: fc.integer({ min: 1990, max: 9000 }).map((n) => 'ab'.repeat(n).slice(0, n)) },
);

const fileArb = fc.record({
  lines: fc.array(lineArb, { maxLength: 120 }),
  crlf: fc.boolean(),
  finalNewline: fc.boolean(),
  bom: fc.boolean(),
});

function fileBytes(f: { lines: string[]; crlf: boolean; finalNewline: boolean; bom: boolean }): { bytes: Buffer; bom: number } {
  const eol = f.crlf ? '\r\n' : '\n';
  const text = f.lines.join(eol) + (f.finalNewline && f.lines.length ? eol : '');
  const body = Buffer.from(text, 'utf8');
  return f.bom ? { bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]), bom: 3 } : { bytes: body, bom: 0 };
}

const requestArb = fc.record({
  offset: fc.integer({ min: 1, max: 140 }),
  limit: fc.integer({ min: 1, max: 40 }),
  maxBytes: fc.option(fc.integer({ min: 50, max: 4000 }), { nil: undefined }),
  column: fc.option(fc.integer({ min: 1, max: 3000 }), { freq: 5, nil: undefined }),
});

describe('line-start index', () => {
  it('gives the page a cold scan from byte 0 gives, for any offsets read in any order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fileArb,
        fc.array(requestArb, { minLength: 1, maxLength: 6 }),
        fc.record({ chunkBytes: fc.integer({ min: 1, max: 700 }), readsInFlight: fc.integer({ min: 1, max: 4 }), noWasm: fc.boolean(), counted: fc.boolean() }),
        async (file, reqs, opts) => {
          const { bytes, bom } = fileBytes(file);
          // a tiny index, so thinning and the step between checkpoints happen in small files
          const index = new LineIndex('v1', 6, 3);
          const src = memorySource(bytes);
          const total = trueTotal(bytes.subarray(bom));
          for (const r of reqs) {
            const req: PageRequest = { offset: r.offset, limit: r.limit, maxBytes: r.maxBytes, column: r.column };
            const cold = (await outcome(() => pageFromUtf8Stream(chunked(bytes.subarray(bom), 89), req))) as { totalLines?: number; nextOffset?: number };
            const indexed = await outcome(() => pageWithIndex(src, index, req, { bomBytes: bom, totalMaxBytes: opts.counted ? Infinity : 0, chunkBytes: opts.chunkBytes, readsInFlight: opts.readsInFlight, noWasm: opts.noWasm }));
            // with totals counted, a page that stops early knows the total too; nothing else differs
            const expected = opts.counted && 'nextOffset' in cold && cold.nextOffset !== undefined ? { ...cold, totalLines: total } : cold;
            assert.deepEqual(indexed, expected, `offset ${r.offset} of ${total} lines`);
            assert.ok(index.size <= 6);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('starts the page after a page where that page ended, reading only the page', async () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `line ${i + 1}`);
    const bytes = Buffer.from(lines.join('\n') + '\n');
    const src = memorySource(bytes, 64 * 1024);
    const index = new LineIndex('v');
    const first = await pageWithIndex(src, index, { offset: 40_000, limit: 100 }, { bomBytes: 0, totalMaxBytes: 0 });
    assert.equal(first.builder.rendered[0], 'L40000: line 40000');
    const before = src.bytesRead;
    const next = await pageWithIndex(src, index, { offset: first.nextOffset!, limit: 100 }, { bomBytes: 0, totalMaxBytes: 0 });
    assert.equal(next.builder.rendered[0], 'L40100: line 40100');
    // the stream of the page is not counted here: no byte was scanned to find its start, one checked that a line starts there
    assert.equal(src.bytesRead - before, 1);
    // a line between checkpoints scans from the nearest one, not from byte 0
    const mid = src.bytesRead;
    await pageWithIndex(src, index, { offset: 39_000, limit: 10 }, { bomBytes: 0, totalMaxBytes: 0 });
    assert.ok(src.bytesRead - mid < LINE_SCAN_CHUNK_BYTES * (LINE_SCAN_READS_IN_FLIGHT + 1), `${src.bytesRead - mid} bytes scanned`);
  });

  it('counts the total once per version and refuses an offset past it without a scan', async () => {
    const bytes = Buffer.from('a\nb\nc\nd\ne');
    const src = memorySource(bytes);
    const index = new LineIndex('v');
    const p = await pageWithIndex(src, index, { offset: 1, limit: 2 }, { bomBytes: 0, totalMaxBytes: 100 });
    assert.equal(p.totalLines, 5);
    assert.equal(index.total, 5);
    const before = src.bytesRead;
    await assert.rejects(() => pageWithIndex(src, index, { offset: 9, limit: 2 }, { bomBytes: 0, totalMaxBytes: 100 }), /offset 9 is past the end \(5 lines\)/);
    // one byte: the check that the nearest checkpoint still starts a line
    assert.equal(src.bytesRead - before, 1);
  });

  it('drops what it knew when the file changed: another version is a new index, and a checkpoint off a line start clears it', async () => {
    const cache = new LineIndexCache(4, (v) => new LineIndex(v, 64, 2));
    const a = Buffer.from(Array.from({ length: 300 }, (_, i) => `a${i + 1}`).join('\n'));
    const ia = cache.get('/f', 'va');
    await pageWithIndex(memorySource(a), ia, { offset: 250, limit: 5 }, { bomBytes: 0, totalMaxBytes: Infinity, chunkBytes: 64 });
    assert.ok(ia.size > 0);
    assert.equal(ia.total, 300);
    // the file changed: longer lines, another version
    const b = Buffer.from(Array.from({ length: 200 }, (_, i) => `bbbb${i + 1}`).join('\r\n') + '\r\n');
    const ib = cache.get('/f', 'vb');
    assert.notEqual(ib, ia);
    assert.equal(ib.size, 0);
    assert.equal(ib.total, undefined);
    const req = { offset: 150, limit: 3 };
    assert.deepEqual(await outcome(() => pageWithIndex(memorySource(b), ib, req, { bomBytes: 0, totalMaxBytes: 0 })), await outcome(() => pageFromUtf8Stream(chunked(b, 50), req)));
    // the same version for other bytes (a clock that did not move): the checkpoint no longer follows a newline
    const stale = new LineIndex('same');
    let off = 700;
    while (b[off - 1] === 10) {
      off++;
    }
    stale.add(150, off);
    stale.total = 300;
    const page = await pageWithIndex(memorySource(b), stale, req, { bomBytes: 0, totalMaxBytes: 0 });
    assert.equal(page.builder.rendered[0], 'L150: bbbb150');
    assert.notEqual(stale.total, 300);
  });

  it('keeps its bounds: checkpoints per file, spacing, files', async () => {
    const index = new LineIndex('v', 8, 10);
    for (let line = 2; line <= 10_000; line++) {
      index.pass(line, line * 3);
    }
    assert.ok(index.size <= 8, `${index.size} checkpoints`);
    // thinning keeps them spread over the file, the first and a late one kept
    assert.equal(index.nearest(1), undefined);
    assert.equal(index.nearest(5)!.line, 2);
    assert.ok(index.nearest(10_000)!.line > 5_000);
    const spaced = new LineIndex('v', 100, 10);
    for (let line = 2; line < 100; line++) {
      spaced.pass(line, line);
    }
    assert.deepEqual([spaced.nearest(11)!.line, spaced.nearest(21)!.line, spaced.size], [2, 12, 10]);
    // a page's end is kept whatever the spacing
    spaced.add(13, 13);
    assert.equal(spaced.nearest(14)!.line, 13);

    const cache = new LineIndexCache(3);
    for (const p of ['/a', '/b', '/c', '/d']) {
      cache.get(p, 'v');
    }
    assert.equal(cache.size, 3);
    assert.equal(cache.peek('/a'), undefined, 'the least recently read is dropped');
    cache.get('/b', 'v');
    cache.get('/e', 'v');
    assert.ok(cache.peek('/b') && !cache.peek('/c'));

    // the process-wide bounds: at most 32 files of 4096 checkpoints (two numbers each), 2 MiB in all
    assert.ok(MAX_LINE_INDEX_FILES * MAX_LINE_INDEX_CHECKPOINTS * 16 <= 2 * 1024 * 1024);
    assert.ok(LINE_INDEX_MIN_STEP_LINES >= 1);
    const big = new LineIndex('v');
    // 1024 lines a chunk, so one checkpoint a chunk: 4883 of them, thinned
    const lines = Buffer.from('x\n'.repeat(5_000_000));
    await scanLines(memorySource(lines), big, { line: 1, byte: 0 }, undefined, { chunkBytes: 2048 });
    assert.ok(big.size <= MAX_LINE_INDEX_CHECKPOINTS && big.size > MAX_LINE_INDEX_CHECKPOINTS / 4, `${big.size} checkpoints`);
  });

  it('counts newlines in WebAssembly the same as indexOf, across folds and odd lengths', () => {
    const fast = new NewlineScanner(70_000, 2);
    const slow = new NewlineScanner(70_000, 2, false);
    assert.equal(fast.fast, true, 'WebAssembly SIMD counts here');
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const [len, density] of [[0, 0], [63, 1], [64, 1], [65, 0.5], [4031, 0.02], [4032, 1], [4033, 1], [16_384, 1], [69_999, 0.3], [70_000, 0.001]]) {
      for (const s of [fast, slow]) {
        for (let i = 0; i < len; i++) {
          s.buffers[1][i] = 0;
        }
      }
      seed = len + 1;
      for (let i = 0; i < len; i++) {
        const b = next() < density ? 10 : Math.floor(next() * 256);
        fast.buffers[1][i] = b;
        slow.buffers[1][i] = b;
      }
      assert.equal(fast.count(1, len), slow.count(1, len), `length ${len}`);
    }
    // every byte a newline: more than 255 in each lane between two folds
    fast.buffers[0].fill(10);
    assert.equal(fast.count(0, 70_000), 70_000);
    assert.equal(afterNthNewline(Buffer.from('a\nb\nc'), 5, 2), 4);
    assert.equal(afterNthNewline(Buffer.from('a\nb\nc\n'), 4, 3), -1);
  });
});

describe('fs_read through the line index', () => {
  let tree: ReturnType<typeof tempTree>;
  before(() => {
    tree = tempTree();
    // ~12 MiB, streamed (over the 8 MiB read whole), under the 64 MiB that get a total
    const fd = fs.openSync(path.join(tree.root, 'big.log'), 'w');
    for (let i = 0; i < 120; i++) {
      fs.writeSync(fd, Array.from({ length: 1000 }, (_, j) => `entry ${i * 1000 + j + 1} ${'x'.repeat(90)}`).join('\n') + '\n');
    }
    fs.closeSync(fd);
  });
  after(() => tree.cleanup());

  it('follows continuations to the end with one total, and sees a change to the file', async () => {
    assert.ok(LINE_TOTAL_MAX_BYTES > fs.statSync(path.join(tree.root, 'big.log')).size);
    const ctx = await context(tree.root);
    const deep = await call(ctx, 'fs_read', { path: 'big.log', offset: 119_000, limit: 400 });
    assert.match(deep.text, /<meta>lines 119000-119399 of 120000, /);
    assert.match(deep.text, /\nL119000: entry 119000 x+\n/);
    const next = await call(ctx, 'fs_read', { path: 'big.log', offset: 119_400, limit: 400 });
    assert.match(next.text, /<meta>lines 119400-119799 of 120000, /);
    // the file changes: one line more at the start, so every line moves down by one
    const file = path.join(tree.root, 'big.log');
    const old = fs.readFileSync(file);
    fs.writeFileSync(file, Buffer.concat([Buffer.from('inserted\n'), old]));
    const after = await call(ctx, 'fs_read', { path: 'big.log', offset: 119_400, limit: 3 });
    assert.match(after.text, /<meta>lines 119400-119402 of 120001, /);
    assert.match(after.text, /\nL119400: entry 119399 x+\n/);
  });
});

describe('the line scan', () => {
  it('keeps a scanner between scans, never gives one to two scans at once, and counts each file alone', async () => {
    const a = NewlineScanner.take(4096, 2);
    const b = NewlineScanner.take(4096, 2);
    assert.notEqual(a, b, 'a scanner taken is no one else’s');
    NewlineScanner.give(a);
    assert.equal(NewlineScanner.take(4096, 2), a, 'the one given back serves the next scan');
    NewlineScanner.give(b);
    // scans at once, over files whose newlines differ, each with reads in flight
    const files = [1, 2, 3, 4].map((k) => new TextEncoder().encode(`${'x'.repeat(k * 37)}\n`.repeat(3000 * k)));
    const totals = await Promise.all(files.map((f) => scanLines(memorySource(f), new LineIndex('v'), { line: 1, byte: 0 }, undefined, { chunkBytes: 4096, readsInFlight: 2 })));
    assert.deepEqual(totals, [{ total: 3000 }, { total: 6000 }, { total: 9000 }, { total: 12000 }]);
    // and again, from the scanners kept
    const again = await Promise.all(files.map((f) => scanLines(memorySource(f), new LineIndex('v'), { line: 1, byte: 0 }, undefined, { chunkBytes: 4096, readsInFlight: 2 })));
    assert.deepEqual(again, totals);
  });
});
