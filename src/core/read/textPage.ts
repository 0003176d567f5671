import { cutLine, splitLines } from '../text/lines';
import { PageBuilder, type PageRequest, type StopReason } from './page';

/** A page and what is known about the rest of the file. */
export interface Page {
  builder: PageBuilder;
  /** Lines in the file, when known. */
  totalLines: number | undefined;
  /** Set when lines remain after the page: the offset that continues. */
  nextOffset: number | undefined;
  /** A streamed page: the byte (from the stream's start) where line `nextOffset` starts. */
  nextByte?: number;
  stop: StopReason | undefined;
}

export class OffsetPastEnd extends Error {
  constructor(
    readonly offset: number,
    readonly totalLines: number,
  ) {
    super(`offset ${offset} is past the end (${totalLines} lines)`);
  }
}

/** A column past the end of the line it names (`column` applies to the page's first line). */
export class ColumnPastEnd extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly lineLength: number,
  ) {
    super(`column ${column} is past the end of line ${line} (${lineLength} characters)`);
  }
}

/** Throws when `column` (1-based, > 1) lies past a line of `length` characters. */
export function checkColumn(line: number, column: number | undefined, length: number): void {
  if (column !== undefined && column > 1 && column > length) {
    throw new ColumnPastEnd(line, column, length);
  }
}

/** Pages a whole decoded text (a small file, or an editor buffer). */
export function pageFromText(text: string, req: PageRequest): Page {
  const lines = splitLines(text);
  return pageFromLines(lines, req);
}

export function pageFromLines(lines: readonly string[], req: PageRequest): Page {
  const total = lines.length;
  if (req.offset > Math.max(total, 1)) {
    throw new OffsetPastEnd(req.offset, total);
  }
  const builder = new PageBuilder(req);
  let i = req.offset - 1;
  if (i < total) {
    checkColumn(i + 1, req.column, lines[i].length);
  }
  for (; i < total; i++) {
    if (!builder.add(cutLine(i + 1, lines[i], i === req.offset - 1 ? req.column : 1))) {
      break;
    }
  }
  // A page full by count that happens to end on the last line has nothing to continue to.
  const next = builder.lines.length > 0 ? builder.lines[builder.lines.length - 1].n + 1 : req.offset;
  const more = next <= total;
  return { builder, totalLines: total, nextOffset: more ? next : undefined, stop: more ? builder.stop : undefined };
}
