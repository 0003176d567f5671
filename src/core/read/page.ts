import { MAX_READ_BYTES, MAX_READ_LINES } from '../limits';
import { formatCount } from '../format';
import type { PageLine } from '../text/lines';

export interface PageRequest {
  /** 1-based first line. */
  offset: number;
  /** Lines wanted; never more than {@link MAX_READ_LINES}. */
  limit: number;
  /** Rendered bytes allowed; never more than {@link MAX_READ_BYTES}. */
  maxBytes?: number;
}

/** Why a page stopped before the end of the file. */
export type StopReason = 'limit' | 'bytes' | 'tokens';

/** One line as the model sees it, marker included when the line was cut. */
export function renderLine(line: PageLine): string {
  if (line.fullLength === undefined) {
    return `L${line.n}: ${line.text}`;
  }
  return (
    `L${line.n}: ${line.text}… [line cut: ${formatCount(line.fullLength)} characters in all, ` +
    `the first ${formatCount(line.text.length)} shown; search it with fs_grep and a narrower pattern to see the rest]`
  );
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
  stop: StopReason | undefined;

  constructor(req: PageRequest) {
    this.limit = Math.min(req.limit, MAX_READ_LINES);
    this.maxBytes = Math.min(req.maxBytes ?? MAX_READ_BYTES, MAX_READ_BYTES);
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
    const text = renderLine(line);
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
