import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { CancelledError, ToolError } from '../../src/core/errors';
import { MAX_PDF_PAGE_CHARS } from '../../src/core/limits';
import { extractPdfPages, renderPdfEnvelope, textFromItems } from '../../src/core/read/pdf';

/** RC4, for the standard security handler of the encrypted sample. */
function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 0xff;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = new Uint8Array(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]) & 0xff;
    [s[i], s[j]] = [s[j], s[i]];
    out[k] = data[k] ^ s[(s[i] + s[j]) & 0xff];
  }
  return out;
}

const PASSWORD_PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

function padPassword(p: string): Buffer {
  return Buffer.concat([Buffer.from(p, 'latin1'), PASSWORD_PAD]).subarray(0, 32);
}

/** /Encrypt of revision 2 (40-bit RC4): opening needs `user`; the empty password fails. */
function encryption(user: string, owner: string, id: Buffer): string {
  const md5 = (...parts: Uint8Array[]) => createHash('md5').update(Buffer.concat(parts)).digest();
  const o = rc4(md5(padPassword(owner)).subarray(0, 5), padPassword(user));
  const p = Buffer.alloc(4);
  p.writeInt32LE(-4);
  const key = md5(padPassword(user), o, p, id).subarray(0, 5);
  const u = rc4(key, PASSWORD_PAD);
  return `<< /Filter /Standard /V 1 /R 2 /O <${Buffer.from(o).toString('hex')}> /U <${Buffer.from(u).toString('hex')}> /P -4 >>`;
}

function escapePdfString(s: string): string {
  return s.replace(/[\\()]/g, (c) => `\\${c}`);
}

/**
 * A valid PDF with one page per entry of `pages`, each line of text shown with
 * Helvetica on its own baseline, and a correct cross-reference table.
 */
function makePdf(pages: string[][], opts: { encryptWith?: string; fontSize?: number } = {}): Uint8Array {
  const size = opts.fontSize ?? 12;
  const objs: string[] = [];
  objs[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objs[2] = `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objs[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  pages.forEach((lines, i) => {
    const content = `BT /F1 ${size} Tf 10 760 Td ${size} TL ${lines.map((l) => `(${escapePdfString(l)}) Tj T*`).join(' ')} ET`;
    objs[4 + i * 2] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`;
    objs[5 + i * 2] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  });
  const id = Buffer.from('0123456789abcdef0123456789abcdef', 'hex');
  let encryptRef = '';
  if (opts.encryptWith !== undefined) {
    objs.push(encryption(opts.encryptWith, 'owner', id));
    encryptRef = ` /Encrypt ${objs.length - 1} 0 R`;
  }
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let k = 1; k < objs.length; k++) {
    offsets[k] = out.length;
    out += `${k} 0 obj\n${objs[k]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objs.length}\n0000000000 65535 f \n`;
  out += offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objs.length} /Root 1 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>]${encryptRef} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

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
    assert.match(text, /… \[page cut: 60,599 characters of text in all, the first 51,200 shown\]/);
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
      '<meta>pages 3-4 of 12 · 244.1 KiB · version abcd1234</meta>',
      '<content>',
      '=== Page 3 of 12 ===',
      'Intro',
      `${'z'.repeat(2000)}… [line cut: 2,500 characters in all]`,
      '',
      '=== Page 4 of 12 ===',
      '(No text on this page: it may be a scanned image or a drawing.)',
      '',
      '(Showing pages 3–4 of 12; the limit of 2 pages per read was reached. Use offset=5 to continue.)',
      '</content>',
      '<summary>Total: 12 pages | Showing: 3–4 | Truncated: true</summary>',
    ]);
  });

  it('renders a whole short PDF as not truncated', async () => {
    const r = await extractPdfPages(twoPages, { firstPage: 1, maxPages: 10 });
    const text = renderPdfEnvelope({ displayPath: 'a.pdf', fileBytes: twoPages.length, extract: r });
    assert.match(text, /\n=== Page 1 of 2 ===\nHello page one\nsecond line \(with parens\)\n\n=== Page 2 of 2 ===\nPage two text\n<\/content>\n/);
    assert.match(text, /<summary>Total: 2 pages \| Showing: 1–2 \| Truncated: false<\/summary>$/);
  });
});
