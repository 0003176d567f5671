import { type CancelSignal, throwIfCancelled } from '../cancel';
import { LINE_SCAN_CHUNK_BYTES, LINE_SCAN_READS_IN_FLIGHT } from '../limits';
import { afterNthNewline, NewlineScanner } from '../text/newlines';
import type { Checkpoint, LineIndex } from './lineIndex';
import type { PageRequest } from './page';
import { pageFromUtf8Stream } from './streamPage';
import { OffsetPastEnd, type Page } from './textPage';

/** The bytes of one UTF-8 file as the seek reads them: positioned reads into its buffers, and a stream for the page. */
export interface ByteSource {
  /** The size the file was opened with: the scan ends there, whatever the file does meanwhile. */
  readonly size: number;
  /** Reads up to `length` bytes at `position` into `target`; the count read (0 at the end). */
  readInto(target: Uint8Array, position: number, length: number): Promise<number>;
  /** The bytes from `start` on, in chunks. */
  stream(start: number): AsyncIterable<Uint8Array>;
}

export interface ScanOptions {
  signal?: CancelSignal;
  /** Bytes per read (tests use small ones to cross chunk edges often). */
  chunkBytes?: number;
  /** Count with `indexOf` rather than WebAssembly (tests compare the two). */
  noWasm?: boolean;
  /** Reads running at once (tests use 1 and more). */
  readsInFlight?: number;
}

/**
 * Scans from checkpoint `from` for the byte where line `target` starts, or, with no
 * target (or one past the end), to the end for the line total. Reads large chunks into
 * a scanner's buffers, several at once (the next reads run while one is counted), counts their
 * newlines without looking at lines, and records a checkpoint per chunk in `index`, so
 * the next scan of this version starts near where it wants to be.
 */
export async function scanLines(src: ByteSource, index: LineIndex, from: Checkpoint, target: number | undefined, opts: ScanOptions = {}): Promise<{ byte: number } | { total: number }> {
  const chunkBytes = opts.chunkBytes ?? LINE_SCAN_CHUNK_BYTES;
  const depth = opts.readsInFlight ?? LINE_SCAN_READS_IN_FLIGHT;
  const scanner = NewlineScanner.take(chunkBytes, depth, !opts.noWasm);
  const wanted = (at: number): number => Math.max(0, Math.min(chunkBytes, src.size - at));
  // buffer `which` gets the chunk at `at` whole (a short read is read on), or less at the end
  const fill = async (which: number, at: number): Promise<number> => {
    const buf = scanner.buffers[which];
    const want = wanted(at);
    let got = 0;
    while (got < want) {
      const n = await src.readInto(buf.subarray(got), at + got, want - got);
      if (n === 0) {
        break;
      }
      got += n;
    }
    return got;
  };
  let line = from.line;
  let lineStart = from.byte;
  let pos = from.byte;
  let issued = from.byte;
  const slots: { which: number; at: number; read: Promise<number> }[] = [];
  const issue = (which: number): void => {
    slots.push({ which, at: issued, read: fill(which, issued) });
    issued += chunkBytes;
  };
  for (let k = 0; k < depth; k++) {
    issue(k);
  }
  try {
    for (;;) {
      throwIfCancelled(opts.signal);
      const slot = slots.shift()!;
      const n = await slot.read;
      const buf = scanner.buffers[slot.which];
      const c = n === 0 ? 0 : scanner.count(slot.which, n);
      if (target !== undefined && line + c >= target) {
        return { byte: pos + afterNthNewline(buf, n, target - line) };
      }
      if (c > 0) {
        line += c;
        lineStart = pos + buf.lastIndexOf(10, n - 1) + 1;
        index.pass(line, lineStart);
      }
      pos += n;
      if (n < wanted(slot.at) || n === 0) {
        // the end (the size opened with, or less when the file shrank): the last line counts when it has bytes
        return { total: lineStart < pos ? line : line - 1 };
      }
      issue(slot.which);
    }
  } finally {
    // the reads in flight write into this scanner's buffers: let them land before they go
    await Promise.all(slots.map((s) => s.read.catch(() => 0)));
    NewlineScanner.give(scanner);
  }
}

/** Whether `cp` still starts a line: the byte before it is a newline (a cheap check that the file is what the index saw). */
async function startsLine(src: ByteSource, cp: Checkpoint): Promise<boolean> {
  const one = new Uint8Array(1);
  return (await src.readInto(one, cp.byte - 1, 1)) === 1 && one[0] === 10;
}

export interface IndexedPageOptions extends ScanOptions {
  /** Bytes of the BOM before line 1. */
  bomBytes: number;
  /** Files up to this size get their line total counted when the page does not reach the end. */
  totalMaxBytes: number;
  /** The stream from line 1 when the caller already holds its first bytes. */
  fromStart?: () => AsyncIterable<Uint8Array>;
}

/**
 * A page of a UTF-8 file through its line index: the scan to `req.offset` starts at the
 * nearest checkpoint (the page after a page starts exactly where it begins), the page is
 * streamed from there, and its end is recorded. A file up to `totalMaxBytes` gets its
 * total, counted once per version by the same scan. The page is the one a scan from
 * byte 0 gives.
 */
export async function pageWithIndex(src: ByteSource, index: LineIndex, req: PageRequest, opts: IndexedPageOptions): Promise<Page> {
  let start: Checkpoint = { line: 1, byte: opts.bomBytes };
  let cp = req.offset > 1 ? index.nearest(req.offset) : undefined;
  if (cp && cp.line > 1 && !(await startsLine(src, cp))) {
    // the file changed under the same version: nothing the index holds is trusted
    index.clear();
    cp = undefined;
  }
  if (index.total !== undefined && req.offset > Math.max(index.total, 1)) {
    throw new OffsetPastEnd(req.offset, index.total);
  }
  if (cp) {
    start = cp;
  }
  if (req.offset > start.line) {
    const found = await scanLines(src, index, start, req.offset, opts);
    if ('total' in found) {
      index.total = found.total;
      throw new OffsetPastEnd(req.offset, found.total);
    }
    start = { line: req.offset, byte: found.byte };
  }
  const chunks = start.line === 1 && opts.fromStart ? opts.fromStart() : src.stream(start.byte);
  const counts = src.size <= opts.totalMaxBytes && index.total === undefined;
  // A first page's total is counted from line 1 while the page is built: the file system reads while the page decodes.
  const counting = counts && start.line === 1 ? scanLines(src, index, start, undefined, opts) : undefined;
  let page: Page;
  try {
    page = await pageFromUtf8Stream(chunks, req, opts.signal, start.line);
  } catch (e) {
    await counting?.catch(() => undefined);
    throw e;
  }
  if (page.totalLines !== undefined) {
    await counting?.catch(() => undefined);
    index.total = page.totalLines;
    return page;
  }
  const next = { line: page.nextOffset!, byte: start.byte + page.nextByte! };
  index.add(next.line, next.byte);
  if (src.size > opts.totalMaxBytes) {
    return page;
  }
  if (index.total === undefined) {
    const counted = await (counting ?? scanLines(src, index, next, undefined, opts));
    index.total = 'total' in counted ? counted.total : undefined;
  }
  return { ...page, totalLines: index.total };
}
