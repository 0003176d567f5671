import type * as PdfJsApi from 'pdfjs-dist';
import type { TextItem, TextMarkedContent } from 'pdfjs-dist/types/src/display/api';
import { throwIfCancelled, type CancelSignal } from '../cancel';
import { ToolError } from '../errors';
import { readPageCall } from './render';
import { continueLine, END_OF_FILE, quotedLine, span } from '../contract';
import { formatBytes, plural } from '../format';
import { MAX_PDF_BYTES, MAX_PDF_EXTRACT_MS, MAX_PDF_PAGE_CHARS, MAX_PDF_PAGES_PER_READ, MAX_READ_BYTES, MAX_TASK_MEMORY_BYTES } from '../limits';
import { TaskStopped, type ProcessHost, type TaskRequest } from '../process';
import { cutLine } from '../text/lines';

/**
 * Text of a PDF, page by page, with pdf.js (`pdfjs-dist`, legacy build: it carries the
 * polyfills Node 20 needs). The thread that runs it loads it (src/host/pdfjs.ts, where
 * the globals its load needs are set) and hands the module in: the core touches no
 * global.
 */

export interface PdfPage {
  /** 1-based page number. */
  n: number;
  text: string;
  /** Characters of the page's whole text, set only when it was cut to {@link MAX_PDF_PAGE_CHARS}. */
  fullLength?: number;
}

export interface PdfExtract {
  pageCount: number;
  pages: PdfPage[];
  /** Set when pages remain after the last one returned: the page to continue from. */
  nextPage?: number;
  /** Why pages stopped before the end: the page count asked for, the text budget, or the time or memory a page took. */
  stop?: 'limit' | 'bytes' | 'time';
}

export interface PdfPageRequest {
  /** 1-based first page. */
  firstPage: number;
  /** Pages wanted; capped at {@link MAX_PDF_PAGES_PER_READ}. */
  maxPages: number;
  /**
   * UTF-8 bytes of page text after which no further page is taken (the first page
   * always is).
   * @default MAX_READ_BYTES
   */
  maxBytes?: number;
  /**
   * How messages name the file.
   * @default "the PDF"
   */
  displayPath?: string;
}

/** The pdf.js module, loaded by the thread that runs it (src/host/pdfjs.ts). */
export type PdfJs = typeof PdfJsApi;

function isTextItem(item: TextItem | TextMarkedContent): item is TextItem {
  return typeof (item as TextItem).str === 'string';
}

/**
 * Lines from pdf.js text items: an item that ends a line (`hasEOL`) or a move to
 * another baseline starts a new line. Trailing blanks go, runs of empty lines
 * shrink to one.
 */
export function textFromItems(items: readonly (TextItem | TextMarkedContent)[]): string {
  let out = '';
  let lastY: number | undefined;
  let lastHeight = 0;
  for (const item of items) {
    if (!isTextItem(item)) {
      continue;
    }
    const y = item.transform[5];
    if (lastY !== undefined && !out.endsWith('\n') && Math.abs(y - lastY) > Math.max(lastHeight, item.height, 1) / 2) {
      out += '\n';
    }
    out += item.str;
    if (item.hasEOL) {
      out += '\n';
    }
    lastY = y;
    lastHeight = item.height;
  }
  return out
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '');
}

function pdfError(e: unknown, where: string): ToolError {
  const name = (e as { name?: string } | undefined)?.name;
  const detail = (e instanceof Error ? e.message : String(e)).replace(/\.$/, '');
  if (name === 'PasswordException') {
    return new ToolError(
      'binary',
      `Cannot read ${where}: it is encrypted and needs a password to open, so its text cannot be extracted. Ask the user for an unprotected copy or for the part you need.`,
    );
  }
  return new ToolError(
    'binary',
    `Cannot read ${where}: it is not a readable PDF (${detail}). The file may be damaged or not a PDF at all. ` +
      'Ask the user about it, or look for the document in another format.',
  );
}

/** An opened PDF: its page count and the text of one page at a time. */
export interface PdfPages {
  pageCount: number;
  /** The text of page `n` (1-based), lines from its text items (see {@link textFromItems}). */
  text(n: number): Promise<string>;
  close(): Promise<void>;
}

/**
 * Opens a PDF with pdf.js in this thread. Throws a ToolError for a PDF that is
 * encrypted or damaged. Where untrusted PDFs are read this runs in a task the host can
 * stop (see ProcessHost.startTask): pdf.js decodes a page whole, and a page's streams
 * can be made to expand without end.
 */
export async function openPdfPages(lib: PdfJs, bytes: Uint8Array, where: string): Promise<PdfPages> {
  // pdf.js takes ownership of (detaches) the buffer it is given, and refuses a Node
  // Buffer: hand it a plain copy.
  let task: ReturnType<typeof lib.getDocument> | undefined;
  let doc: Awaited<ReturnType<typeof lib.getDocument>['promise']>;
  try {
    task = lib.getDocument({
      data: new Uint8Array(bytes),
      verbosity: lib.VerbosityLevel.ERRORS,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
    });
    doc = await task.promise;
  } catch (e) {
    await task?.destroy();
    throw pdfError(e, where);
  }
  return {
    pageCount: doc.numPages,
    async text(n) {
      try {
        const page = await doc.getPage(n);
        const text = textFromItems((await page.getTextContent()).items);
        page.cleanup();
        return text;
      } catch (e) {
        throw pdfError(e, `page ${n} of ${where}`);
      }
    },
    close: () => doc.destroy(),
  };
}

/**
 * Opens PDFs in a task of the host, off the calling thread, within MAX_PDF_EXTRACT_MS
 * and MAX_TASK_MEMORY_BYTES: pdf.js decodes a page's content whole, and a 1 MiB page
 * can inflate to gigabytes. A limit reached stops the task ({@link PdfStopped}).
 */
export function pdfInTask(proc: Pick<ProcessHost, 'startTask'>, signal?: CancelSignal): (bytes: Uint8Array, where: string) => Promise<PdfPages> {
  return async (bytes, where) => {
    const session = proc.startTask({ deadlineMs: MAX_PDF_EXTRACT_MS, maxMemoryBytes: MAX_TASK_MEMORY_BYTES, maxRssGrowthBytes: MAX_TASK_MEMORY_BYTES, signal });
    const call = async <O>(r: TaskRequest): Promise<O> => {
      try {
        return await session.call<O>(r);
      } catch (e) {
        if (e instanceof TaskStopped) {
          throw new PdfStopped(e.reason === 'memory' ? `it needed more than ${formatBytes(e.limit)} of memory` : `it took more than ${e.limit / 1000} seconds`);
        }
        throw e;
      }
    };
    try {
      const pageCount = await call<number>({ task: 'pdf-open', bytes, where });
      return { pageCount, text: (n) => call<string>({ task: 'pdf-page', n }), close: () => session.close() };
    } catch (e) {
      await session.close();
      throw e;
    }
  };
}

/** Stops a PDF's extraction from outside (a deadline, a memory cap): the pages done so far still count. */
export class PdfStopped extends Error {
  constructor(readonly why: string) {
    super(why);
  }
}

/**
 * Extracts the text of pages `firstPage` onwards: at most `maxPages` pages, and no
 * page after the text reaches `maxBytes`. Throws a ToolError for a PDF that is too
 * big, encrypted or damaged, and for a first page past the end. When `open`'s pages
 * throw {@link PdfStopped}, the pages extracted before are returned with the stop
 * ("time"), and a PDF stopped before its first page is refused with the reason.
 */
export async function extractPdfPages(bytes: Uint8Array, opts: PdfPageRequest, signal: CancelSignal | undefined, open: (bytes: Uint8Array, where: string) => Promise<PdfPages>): Promise<PdfExtract> {
  const where = opts.displayPath ?? 'the PDF';
  if (!Number.isInteger(opts.firstPage) || opts.firstPage < 1 || !Number.isInteger(opts.maxPages) || opts.maxPages < 1) {
    throw new ToolError('invalid-input', `offset and limit count pages in a PDF and must be whole numbers, 1 or more; got offset=${opts.firstPage}, limit=${opts.maxPages}.`);
  }
  if (bytes.length > MAX_PDF_BYTES) {
    throw new ToolError(
      'binary',
      `Cannot read ${where}: it is ${formatBytes(bytes.length)}, over the ${formatBytes(MAX_PDF_BYTES)} limit for extracting PDF text. Ask the user for the pages you need as a smaller file.`,
    );
  }
  throwIfCancelled(signal);
  const stoppedError = (e: PdfStopped, page?: number) =>
    new ToolError('too-large', `Stopped extracting the text of ${page === undefined ? where : `page ${page} of ${where}`}: ${e.why}. The PDF may be built to expand without end, or simply be too heavy; ask the user for a text export of the pages you need.`);
  let doc: PdfPages;
  try {
    doc = await open(bytes, where);
  } catch (e) {
    throw e instanceof PdfStopped ? stoppedError(e) : e;
  }
  try {
    const pageCount = doc.pageCount;
    if (opts.firstPage > pageCount) {
      throw new ToolError('offset-past-end', `offset=${opts.firstPage} is past the end of ${where}: it has ${plural(pageCount, 'page')}. Use an offset from 1 to ${pageCount}.`);
    }
    const maxPages = Math.min(opts.maxPages, MAX_PDF_PAGES_PER_READ);
    const budget = Math.min(opts.maxBytes ?? MAX_READ_BYTES, MAX_READ_BYTES);
    const pages: PdfPage[] = [];
    let used = 0;
    let n = opts.firstPage;
    let stop: PdfExtract['stop'];
    for (; n <= pageCount; n++) {
      if (pages.length >= maxPages) {
        stop = 'limit';
        break;
      }
      if (pages.length > 0 && used >= budget) {
        stop = 'bytes';
        break;
      }
      throwIfCancelled(signal);
      let text: string;
      try {
        text = await doc.text(n);
      } catch (e) {
        if (e instanceof PdfStopped) {
          if (pages.length === 0) {
            throw stoppedError(e, n);
          }
          stop = 'time';
          break;
        }
        throw e;
      }
      const entry: PdfPage = { n, text };
      if (text.length > MAX_PDF_PAGE_CHARS) {
        entry.text = text.slice(0, MAX_PDF_PAGE_CHARS);
        entry.fullLength = text.length;
      }
      pages.push(entry);
      used += Buffer.byteLength(entry.text, 'utf8');
    }
    return n <= pageCount ? { pageCount, pages, nextPage: n, stop } : { pageCount, pages };
  } finally {
    await doc.close().catch(() => undefined);
  }
}

export interface PdfEnvelope {
  /** Workspace-relative path with "/" (absolute outside the workspace). */
  displayPath: string;
  fileBytes: number;
  extract: PdfExtract;
  /** Content hash of the text shown, when the caller keeps one. */
  version?: string;
  /** The fs_read call that shows the pages from `offset` on. @default the path shown, at that offset */
  nextCall?(offset: number): string;
}

/**
 * A page's text as lines, each cut at the line cap like any read, and quoted (`> `): a
 * page that holds `</content>` or `Continue with: ...` reads as the page's text, never as
 * the envelope's own line.
 */
function pageLines(page: PdfPage): string[] {
  if (page.text === '') {
    return ['(No text on this page: it may be a scanned image or a drawing.)'];
  }
  const lines = page.text.split('\n').map((l, i) => {
    const cut = cutLine(i + 1, l);
    return quotedLine(cut.fullLength === undefined ? cut.text : `${cut.text}… [line cut: characters 1-${cut.text.length} of ${cut.fullLength} shown]`);
  });
  if (page.fullLength !== undefined) {
    lines.push(`… [page cut: characters 1-${page.text.length} of ${page.fullLength} shown]`);
  }
  return lines;
}

/**
 * The fs_read envelope of a PDF, pages headed with their number:
 *
 * ```
 * <path>docs/guide.pdf</path>
 * <type>pdf</type>
 * <meta>pages 1-2 of 12, 245.1 KiB, version 5d41402a</meta>
 * <content>
 * === Page 1 ===
 * > Introduction
 * > ...
 * </content>
 * Continue with: fs_read {"path":"docs/guide.pdf","offset":3}
 * ```
 */
export function renderPdfEnvelope(e: PdfEnvelope): string {
  const { extract } = e;
  const first = extract.pages[0]?.n;
  const last = extract.pages[extract.pages.length - 1]?.n;
  const total = extract.pageCount;
  const meta = [first === undefined ? 'no pages' : `${first === last ? 'page' : 'pages'} ${span(first, last!)} of ${total}`, formatBytes(e.fileBytes)];
  if (e.version) {
    meta.push(`version ${e.version}`);
  }
  const out = [`<path>${e.displayPath}</path>`, '<type>pdf</type>', `<meta>${meta.join(', ')}</meta>`, '<content>'];
  extract.pages.forEach((p, i) => {
    if (i > 0) {
      out.push('');
    }
    out.push(`=== Page ${p.n} ===`, ...pageLines(p));
  });
  if (extract.stop === 'time') {
    out.push('', `(Page ${extract.nextPage} could not be extracted within the time and memory allowed.)`);
  }
  out.push('</content>', extract.nextPage !== undefined ? continueLine((e.nextCall ?? readPageCall(e.displayPath))(extract.nextPage)) : END_OF_FILE);
  return out.join('\n');
}
