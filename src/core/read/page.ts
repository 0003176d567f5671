import { MAX_READ_BYTES, MAX_READ_LINES } from '../limits';
import type { PageLine } from '../text/lines';
import { span } from '../contract';

export interface PageRequest {
  /** 1-based first line. */
  offset: number;
  /** Lines wanted; never more than {@link MAX_READ_LINES}. */
  limit: number;
  /** Rendered bytes allowed; never more than {@link MAX_READ_BYTES}. */
  maxBytes?: number;
  /**
   * 1-based column the first line (`offset`) starts at, to read a long line in pieces.
   * @default 1
   */
  column?: number;
  /** The exact call that shows a cut line from `column` on, for the cut marker. */
  pieceCall?: PieceCall;
}

/** The call that reads line `line` from `column` on. */
export type PieceCall = (line: number, column: number) => string;

/** Why a page stopped before the end of the file. */
export type StopReason = 'limit' | 'bytes' | 'tokens';

/**
 * One line as the model sees it. A line cut at the cap ends with a marker that says which
 * characters were shown and gives the exact call for the next piece, so even a minified
 * line can be read whole.
 */
export function renderLine(line: PageLine, pieceCall?: PieceCall): string {
  if (line.fullLength === undefined) {
    return `L${line.n}: ${line.text}`;
  }
  const from = line.column ?? 1;
  const to = from + line.text.length - 1;
  if (to >= line.fullLength) {
    return `L${line.n}: ${line.text}`;
  }
  const next = pieceCall ? pieceCall(line.n, to + 1) : `column ${to + 1}`;
  return `L${line.n}: ${line.text}… [line cut: characters ${span(from, to)} of ${line.fullLength} shown; next piece: ${next}]`;
}

/**
 * Collects lines into a page under the line and byte caps. A page always takes its
 * first line (a cut line is at most ~8 KiB, far below the byte cap), so a page is never
 * empty and following the continuation always advances.
 */
export class PageBuilder {
  readonly lines: PageLine[] = [];
  readonly rendered: string[] = [];
  private bytes = 0;
  private readonly limit: number;
  private readonly maxBytes: number;
  private readonly pieceCall: PieceCall | undefined;
  stop: StopReason | undefined;

  constructor(req: PageRequest) {
    this.limit = Math.min(req.limit, MAX_READ_LINES);
    this.maxBytes = Math.min(req.maxBytes ?? MAX_READ_BYTES, MAX_READ_BYTES);
    this.pieceCall = req.pieceCall;
  }

  get full(): boolean {
    return this.stop !== undefined;
  }

  /** Adds a line; returns false (and records why) when the page has no room for it. */
  add(line: PageLine): boolean {
    if (this.stop) {
      return false;
    }
    if (this.lines.length >= this.limit) {
      this.stop = 'limit';
      return false;
    }
    const text = renderLine(line, this.pieceCall);
    const size = Buffer.byteLength(text, 'utf8') + 1;
    if (this.lines.length > 0 && this.bytes + size > this.maxBytes) {
      this.stop = 'bytes';
      return false;
    }
    this.lines.push(line);
    this.rendered.push(text);
    this.bytes += size;
    if (this.lines.length >= this.limit) {
      // Full by count: whether more lines exist is for the caller to find out.
      this.stop = 'limit';
    }
    return true;
  }
}
