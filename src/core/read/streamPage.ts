import { type CancelSignal, throwIfCancelled } from '../cancel';
import { MAX_LINE_CHARS } from '../limits';
import { cutLine, type PageLine } from '../text/lines';
import { PageBuilder, type PageRequest } from './page';
import { OffsetPastEnd, type Page } from './textPage';

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
 * Pages a UTF-8 byte stream without holding more than one chunk and one page.
 *
 * Lines before `offset` are skipped by searching for 0x0A in the raw bytes, never
 * decoded. A line longer than {@link KEEP_LINE_BYTES} keeps only its head; the rest is
 * counted, not stored, so a gigabyte-long line costs one pass and no memory. The total
 * is known only when the page reaches the end of the stream.
 *
 * @param chunks the file's bytes after any BOM
 */
export async function pageFromUtf8Stream(chunks: AsyncIterable<Uint8Array>, req: PageRequest, signal?: CancelSignal): Promise<Page> {
  const builder = new PageBuilder(req);
  let lineNo = 1;
  let lineHasBytes = false;
  // the current page line: its kept head, its byte count and the units past the head
  let parts: Uint8Array[] = [];
  let kept = 0;
  let lineBytes = 0;
  let restUnits = 0;
  let lastByte = -1;
  let moreAfterPage = false;
  let refused: number | undefined;

  const finishLine = (): void => {
    const head = parts.length === 1 ? parts[0] : Buffer.concat(parts, kept);
    parts = [];
    let line: PageLine;
    if (lineBytes <= KEEP_LINE_BYTES) {
      let text = decoder.decode(head);
      if (text.charCodeAt(text.length - 1) === 13) {
        text = text.slice(0, -1);
      }
      line = cutLine(lineNo, text);
    } else {
      const units = utf16Units(head) + restUnits - (lastByte === 13 ? 1 : 0);
      const cut = cutLine(lineNo, decoder.decode(head));
      line = { n: lineNo, text: cut.text, fullLength: units };
    }
    kept = 0;
    lineBytes = 0;
    restUnits = 0;
    if (!builder.add(line)) {
      refused = lineNo;
    }
  };

  const iterator = chunks[Symbol.asyncIterator]();
  try {
    outer: for (;;) {
      throwIfCancelled(signal);
      const { value: chunk, done } = await iterator.next();
      if (done) {
        break;
      }
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
          continue;
        }
        if (end > pos) {
          lineHasBytes = true;
          const take = Math.min(end - pos, KEEP_LINE_BYTES - kept);
          if (take > 0) {
            parts.push(chunk.subarray(pos, pos + take));
            kept += take;
          }
          if (end - pos > take) {
            restUnits += utf16Units(chunk, pos + take, end);
          }
          lineBytes += end - pos;
          lastByte = chunk[end - 1];
        }
        if (nl === -1) {
          // Keep the head beyond this chunk's lifetime: the reader may reuse its buffers.
          parts = parts.map((p) => Uint8Array.from(p));
          break;
        }
        finishLine();
        if (refused !== undefined) {
          moreAfterPage = true;
          break outer;
        }
        lineNo++;
        lineHasBytes = false;
        lastByte = -1;
        pos = nl + 1;
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
  return { builder, totalLines: undefined, nextOffset: refused ?? last.n + 1, stop: builder.stop };
}
