import * as assert from 'node:assert/strict';
import { CancelledError, ToolError } from '../../src/core/errors';
import { MAX_PDF_PAGE_CHARS } from '../../src/core/limits';
import { extractPdfPages as extractWith, renderPdfEnvelope, textFromItems, type PdfPageRequest } from '../../src/core/read/pdf';
import type { CancelSignal } from '../../src/core/cancel';
import { openPdfPagesHere } from '../../src/host/pdfjs';
import { makePdf } from './pdfFixture';

/** Pages extracted on this thread, with pdf.js loaded as the task thread loads it. */
const extractPdfPages = (bytes: Uint8Array, opts: PdfPageRequest, signal?: CancelSignal) => extractWith(bytes, opts, signal, openPdfPagesHere);

async function rejects(p: Promise<unknown>, code: string, message: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => e instanceof ToolError && e.code === code && message.test(e.message));
}

describe('PDF text', () => {
  const twoPages = makePdf([['Hello page one', 'second line (with parens)'], ['Page two text']]);
  const printed: string[] = [];

  before(async () => {
    // The first extraction loads pdf.js: it must not talk on the console.
    const saved = { log: console.log, warn: console.warn, error: console.error, info: console.info };
    for (const k of ['log', 'warn', 'error', 'info'] as const) {
      console[k] = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
    }
    try {
      await extractPdfPages(twoPages, { firstPage: 1, maxPages: 2 });
    } finally {
      Object.assign(console, saved);
    }
  });

  it('extracts the text of each page, lines kept', async () => {
    const r = await extractPdfPages(twoPages, { firstPage: 1, maxPages: 10 });
    assert.equal(r.pageCount, 2);
    assert.deepEqual(r.pages, [
      { n: 1, text: 'Hello page one\nsecond line (with parens)' },
      { n: 2, text: 'Page two text' },
    ]);
    assert.equal(r.nextPage, undefined);
    assert.equal(r.stop, undefined);
  });

  it('does not change the bytes it is given (pdf.js detaches its input)', async () => {
    const copy = Buffer.from(twoPages);
    await extractPdfPages(twoPages, { firstPage: 1, maxPages: 1 });
    assert.equal(twoPages.byteLength, copy.length);
    assert.ok(Buffer.from(twoPages).equals(copy));
  });

  it('pages by page number, with the page to continue from', async () => {
    const pdf = makePdf([['one'], ['two'], ['three'], ['four']]);
    const r = await extractPdfPages(pdf, { firstPage: 2, maxPages: 2 });
    assert.deepEqual(
      r.pages.map((p) => p.n),
      [2, 3],
    );
    assert.equal(r.nextPage, 4);
    assert.equal(r.stop, 'limit');
    const rest = await extractPdfPages(pdf, { firstPage: 4, maxPages: 2 });
    assert.deepEqual(rest.pages, [{ n: 4, text: 'four' }]);
    assert.equal(rest.nextPage, undefined);
  });

  it('stops taking pages once the text budget is spent, but always takes one', async () => {
    const line = 'x'.repeat(80);
    const pdf = makePdf([Array(20).fill(line), Array(20).fill(line), Array(20).fill(line)]);
    const r = await extractPdfPages(pdf, { firstPage: 1, maxPages: 10, maxBytes: 1000 });
    assert.deepEqual(
      r.pages.map((p) => p.n),
      [1],
    );
    assert.equal(r.nextPage, 2);
    assert.equal(r.stop, 'bytes');
  });

  it('cuts a page with an enormous amount of text and says how much there was', async () => {
    // 600 lines of 100 characters in 1-point type: all on the page, 60,599 characters.
    const pdf = makePdf([Array(600).fill('y'.repeat(100))], { fontSize: 1 });
    const r = await extractPdfPages(pdf, { firstPage: 1, maxPages: 1 });
    assert.equal(r.pages[0].text.length, MAX_PDF_PAGE_CHARS);
    assert.equal(r.pages[0].fullLength, 600 * 100 + 599);
    const text = renderPdfEnvelope({ displayPath: 'big.pdf', fileBytes: pdf.length, extract: r });
    assert.match(text, /… \[page cut: characters 1-51200 of 60599 shown\]/);
  });

  it('refuses a first page past the end with the page count', async () => {
    await rejects(extractPdfPages(twoPages, { firstPage: 3, maxPages: 1, displayPath: 'docs/a.pdf' }), 'offset-past-end', /^offset=3 is past the end of docs\/a\.pdf: it has 2 pages\. Use an offset from 1 to 2\.$/);
    await rejects(extractPdfPages(twoPages, { firstPage: 0, maxPages: 1 }), 'invalid-input', /offset and limit count pages/);
    await rejects(extractPdfPages(twoPages, { firstPage: 1, maxPages: 0 }), 'invalid-input', /limit=0/);
  });

  it('says a password-protected PDF cannot be read', async () => {
    const locked = makePdf([['secret']], { encryptWith: 'pw' });
    await rejects(extractPdfPages(locked, { firstPage: 1, maxPages: 1, displayPath: 'locked.pdf' }), 'binary', /^Cannot read locked\.pdf: it is encrypted and needs a password/);
  });

  it('opens a PDF encrypted with an empty user password (owner restrictions only)', async () => {
    const restricted = makePdf([['visible']], { encryptWith: '' });
    const r = await extractPdfPages(restricted, { firstPage: 1, maxPages: 1 });
    assert.equal(r.pageCount, 1);
  });

  it('says a damaged or non-PDF file is not a readable PDF', async () => {
    await rejects(extractPdfPages(Buffer.from('%PDF-1.4\ngarbage'), { firstPage: 1, maxPages: 1, displayPath: 'bad.pdf' }), 'binary', /^Cannot read bad\.pdf: it is not a readable PDF \(.+\)\. The file may be damaged/);
    await rejects(extractPdfPages(Buffer.from('just text'), { firstPage: 1, maxPages: 1 }), 'binary', /^Cannot read the PDF: it is not a readable PDF/);
    await rejects(extractPdfPages(new Uint8Array(0), { firstPage: 1, maxPages: 1 }), 'binary', /not a readable PDF/);
  });

  it('honours cancellation', async () => {
    await assert.rejects(extractPdfPages(twoPages, { firstPage: 1, maxPages: 2 }, { isCancellationRequested: true }), CancelledError);
  });

  it('loads without printing and leaves no DOMMatrix stand-in behind', () => {
    assert.deepEqual(printed, []);
    assert.equal((globalThis as { DOMMatrix?: unknown }).DOMMatrix, undefined);
  });

  it('joins text items into lines by end-of-line marks and baselines', () => {
    const item = (str: string, y: number, hasEOL = false) => ({ str, dir: 'ltr', width: 10, height: 10, transform: [10, 0, 0, 10, 0, y], fontName: 'F1', hasEOL });
    assert.equal(textFromItems([item('a', 700), item(' ', 700), item('b', 700, true), item('c', 690), item('d', 680)]), 'a b\nc\nd');
    assert.equal(textFromItems([{ type: 'beginMarkedContent', id: 'm1' }, item('x  ', 5, true), item('', 5, true), item('', 5, true), item('', 5, true), item('y', 5)]), 'x\n\ny');
    assert.equal(textFromItems([]), '');
  });

  it('renders pages headed with their number, a continuation and the page count', () => {
    const text = renderPdfEnvelope({
      displayPath: 'docs/guide.pdf',
      fileBytes: 250_000,
      version: 'abcd1234',
      extract: { pageCount: 12, pages: [{ n: 3, text: 'Intro\n' + 'z'.repeat(2500) }, { n: 4, text: '' }], nextPage: 5, stop: 'limit' },
    });
    assert.deepEqual(text.split('\n'), [
      '<path>docs/guide.pdf</path>',
      '<type>pdf</type>',
      '<meta>pages 3-4 of 12, 244.1 KiB, version abcd1234</meta>',
      '<content>',
      '=== Page 3 ===',
      '> Intro',
      `> ${'z'.repeat(2000)}… [line cut: characters 1-2000 of 2500 shown]`,
      '',
      '=== Page 4 ===',
      '(No text on this page: it may be a scanned image or a drawing.)',
      '</content>',
      'Continue with: fs_read {"path":"docs/guide.pdf","offset":5}',
    ]);
  });

  it('renders a whole short PDF as not truncated', async () => {
    const r = await extractPdfPages(twoPages, { firstPage: 1, maxPages: 10 });
    const text = renderPdfEnvelope({ displayPath: 'a.pdf', fileBytes: twoPages.length, extract: r });
    assert.match(text, /<meta>pages 1-2 of 2, /);
    assert.match(text, /\n=== Page 1 ===\n> Hello page one\n> second line \(with parens\)\n\n=== Page 2 ===\n> Page two text\n<\/content>\nEnd of file\.$/);
  });
});
