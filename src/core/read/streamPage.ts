import { type CancelSignal, throwIfCancelled } from '../cancel';
import { MAX_LINE_CHARS } from '../limits';
import { cutLine, type PageLine } from '../text/lines';
import { PageBuilder, type PageRequest } from './page';
import { checkColumn, OffsetPastEnd, type Page } from './textPage';

/** Bytes of a line kept for decoding: enough for MAX_LINE_CHARS characters of any width. */
const KEEP_LINE_BYTES = MAX_LINE_CHARS * 4 + 4;

/** UTF-16 code units the UTF-8 bytes decode to (a 4-byte sequence is a surrogate pair). */
function utf16Units(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let units = 0;
  for (let i = from; i < to; i++) {
    const b = bytes[i];
    if ((b & 0xc0) !== 0x80) {
      units += b >= 0xf0 ? 2 : 1;
    }
  }
  return units;
}

const decoder = new TextDecoder('utf-8');

/**
 * Moves past `units` UTF-16 code units of UTF-8 text in `bytes[from..to)`. Stops only on the
 * first byte of a character: never inside one, and never between a surrogate pair's halves
 * (a pair that would overshoot is kept). Continuation bytes at `from` belong to the last
 * character skipped, so a character split across chunks is skipped whole.
 */
function skipUnits(bytes: Uint8Array, from: number, to: number, units: number): { pos: number; left: number; skipped: number; stopped: boolean } {
  let skipped = 0;
  for (let i = from; i < to; i++) {
    const b = bytes[i];
    if ((b & 0xc0) === 0x80) {
      continue;
    }
    const u = b >= 0xf0 ? 2 : 1;
    if (units === 0 || u > units) {
      return { pos: i, left: 0, skipped, stopped: true };
    }
    units -= u;
    skipped += u;
  }
  return { pos: to, left: units, skipped, stopped: false };
}

/**
 * Pages a UTF-8 byte stream without holding more than one chunk and one page.
 *
 * Lines before `offset` are skipped by searching for 0x0A in the raw bytes, never
 * decoded. A line longer than {@link KEEP_LINE_BYTES} keeps only its head; the rest is
 * counted, not stored, so a gigabyte-long line costs one pass and no memory. The total
 * is known only when the page reaches the end of the stream. With `req.column`, the first
 * line's characters before that column are skipped the same way, never decoded.
 *
 * @param chunks the file's bytes after any BOM, or from the start of line `firstLine`
 * @param firstLine the number of the line the stream starts with (a seek found where it starts)
 */
export async function pageFromUtf8Stream(chunks: AsyncIterable<Uint8Array>, req: PageRequest, signal?: CancelSignal, firstLine = 1): Promise<Page> {
  const builder = new PageBuilder(req);
  const line = new StreamLine(req);
  let lineNo = firstLine;
  // bytes of the stream before the current chunk, and where the current line starts
  let consumed = 0;
  let lineStart = 0;
  let lineHasBytes = false;
  let moreAfterPage = false;
  let refused: number | undefined;
  const finishLine = (): void => {
    if (!builder.add(line.finish(lineNo))) {
      refused = lineNo;
    }
  };

  const iterator = chunks[Symbol.asyncIterator]();
  let previousChunkBytes = 0;
  try {
    outer: for (;;) {
      throwIfCancelled(signal);
      const { value: chunk, done } = await iterator.next();
      if (done) {
        break;
      }
      consumed += previousChunkBytes;
      previousChunkBytes = chunk.length;
      let pos = 0;
      while (pos < chunk.length) {
        if (builder.full) {
          moreAfterPage = true;
          break outer;
        }
        const nl = chunk.indexOf(10, pos);
        const end = nl === -1 ? chunk.length : nl;
        if (lineNo < req.offset) {
          if (nl === -1) {
            lineHasBytes = true;
            break;
          }
          lineNo++;
          lineHasBytes = false;
          pos = nl + 1;
          lineStart = consumed + pos;
          continue;
        }
        lineHasBytes ||= end > pos;
        line.append(chunk, pos, end, lineNo === req.offset);
        if (nl === -1) {
          line.detach();
          break;
        }
        finishLine();
        if (refused !== undefined) {
          moreAfterPage = true;
          break outer;
        }
        lineNo++;
        lineHasBytes = false;
        pos = nl + 1;
        lineStart = consumed + pos;
      }
    }
  } finally {
    await iterator.return?.();
  }

  if (!moreAfterPage && lineHasBytes && lineNo >= req.offset) {
    // the last line has no final newline
    finishLine();
    if (refused !== undefined) {
      moreAfterPage = true;
    } else {
      lineNo++;
      lineHasBytes = false;
    }
  }
  if (!moreAfterPage) {
    const total = lineHasBytes ? lineNo : lineNo - 1;
    if (builder.lines.length === 0 && req.offset > Math.max(total, 1)) {
      throw new OffsetPastEnd(req.offset, total);
    }
    return { builder, totalLines: total, nextOffset: undefined, stop: undefined };
  }
  const last = builder.lines[builder.lines.length - 1];
  // the line that continues is the one being read when the page stopped: `lineStart` is where it starts
  return { builder, totalLines: undefined, nextOffset: refused ?? last.n + 1, nextByte: lineStart, stop: builder.stop };
}

/**
 * The page line being read from the stream: its kept head (at most {@link KEEP_LINE_BYTES}),
 * its byte count, the UTF-16 units past the head, and on the first line the characters
 * before `req.column`, skipped undecoded.
 */
class StreamLine {
  private parts: Uint8Array[] = [];
  private kept = 0;
  private bytes = 0;
  private restUnits = 0;
  private lastByte = -1;
  private readonly offset: number;
  private readonly column: number;
  private skipping: boolean;
  private skipLeft: number;
  private skippedUnits = 0;

  constructor(req: PageRequest) {
    this.offset = req.offset;
    this.column = req.column ?? 1;
    this.skipping = this.column > 1;
    this.skipLeft = this.column - 1;
  }

  /** Takes the line's bytes chunk[pos, end); `first`: this is the page's first line, where the column applies. */
  append(chunk: Uint8Array, pos: number, end: number, first: boolean): void {
    if (end > pos) {
      this.lastByte = chunk[end - 1];
    }
    if (this.skipping && first) {
      const r = skipUnits(chunk, pos, end, this.skipLeft);
      this.skippedUnits += r.skipped;
      this.skipLeft = r.left;
      pos = r.pos;
      this.skipping = !r.stopped;
    }
    if (end > pos) {
      const take = Math.min(end - pos, KEEP_LINE_BYTES - this.kept);
      if (take > 0) {
        this.parts.push(chunk.subarray(pos, pos + take));
        this.kept += take;
      }
      if (end - pos > take) {
        this.restUnits += utf16Units(chunk, pos + take, end);
      }
      this.bytes += end - pos;
    }
  }

  /** Keeps the head beyond its chunk's lifetime: the reader may reuse its buffers. */
  detach(): void {
    this.parts = this.parts.map((p) => Uint8Array.from(p));
  }

  /** The line as the page shows it; the state is reset for the next line. */
  finish(lineNo: number): PageLine {
    const head = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.kept);
    const from = lineNo === this.offset ? this.skippedUnits : 0;
    const long = this.bytes > KEEP_LINE_BYTES;
    let text = decoder.decode(head);
    let units: number;
    if (!long) {
      let cr = this.lastByte === 13 ? 1 : 0;
      if (text.charCodeAt(text.length - 1) === 13) {
        text = text.slice(0, -1);
        cr = 0;
      }
      // a final "\r" the column skipped is no more part of the line than a kept one
      units = from + text.length - cr;
    } else {
      units = from + utf16Units(head) + this.restUnits - (this.lastByte === 13 ? 1 : 0);
    }
    if (lineNo === this.offset) {
      checkColumn(lineNo, this.column, units);
    }
    this.parts = [];
    this.kept = 0;
    this.bytes = 0;
    this.restUnits = 0;
    this.lastByte = -1;
    const cut = cutLine(lineNo, text);
    return from > 0 ? { ...cut, column: from + 1, fullLength: units } : long ? { ...cut, fullLength: units } : cut;
  }
}
