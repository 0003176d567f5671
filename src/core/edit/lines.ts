import { countBelow, lineOfOffset } from '../sorted';

/**
 * The file as lines with their offsets, so a line-level match maps back to exact UTF-16
 * ranges of the text as loaded. Lines split on "\n" only; a "\r" before it belongs to the
 * line ending (as fs_read numbers lines), a lone "\r" is an ordinary character.
 */
export class LineTable {
  /** Offset of each line's first character. */
  readonly starts: number[] = [];
  /** Offset just past each line's text (before its "\r\n" or "\n"). */
  readonly ends: number[] = [];
  /** Line breaks of each kind in the whole file. */
  readonly crlf: number = 0;
  readonly lf: number = 0;

  constructor(readonly content: string) {
    let crlf = 0;
    let lf = 0;
    let pos = 0;
    for (;;) {
      const nl = content.indexOf('\n', pos);
      if (nl === -1) {
        break;
      }
      const cr = nl > pos && content.charCodeAt(nl - 1) === 13;
      this.starts.push(pos);
      this.ends.push(cr ? nl - 1 : nl);
      if (cr) {
        crlf++;
      } else {
        lf++;
      }
      pos = nl + 1;
    }
    // A final "\n" ends the last line; it does not open an empty one.
    if (pos < content.length || this.starts.length === 0) {
      this.starts.push(pos);
      this.ends.push(content.length);
    }
    this.crlf = crlf;
    this.lf = lf;
  }

  /** Line `i`'s text without its line ending (cut from the content when asked: most lines never are). */
  text(i: number): string {
    return this.content.slice(this.starts[i], this.ends[i]);
  }

  get count(): number {
    return this.starts.length;
  }

  /** Whether line `i` (0-based) is followed by a line break. */
  hasBreak(i: number): boolean {
    return this.ends[i] < this.content.length;
  }

  /** Offset just past line `i`'s line break (its end when it has none). */
  nextStart(i: number): number {
    const end = this.ends[i];
    if (end >= this.content.length) {
      return end;
    }
    return this.content.charCodeAt(end) === 13 ? end + 2 : end + 1;
  }

  /** 0-based line holding offset `off` (the line after a break for an offset just past it). */
  lineOf(off: number): number {
    return lineOfOffset(this.starts, off);
  }

  /** The line ending of new text in content[start, end): see {@link eolFor}. */
  eolFor(start: number, end: number): string {
    return eolFor(this.content, start, end, () => (this.crlf > this.lf ? '\r\n' : '\n'));
  }
}

/** Line breaks of each kind in text[start, end). */
export function countBreaks(text: string, start: number, end: number): { crlf: number; lf: number } {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n', start); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) {
      crlf++;
    } else {
      lf++;
    }
  }
  return { crlf, lf };
}

/**
 * The line ending new text in text[start, end) is written with: the dominant ending of the
 * breaks inside the range, or the file's (`fileEol`, LF on a tie) when the range has none or a tie.
 */
export function eolFor(text: string, start: number, end: number, fileEol: () => string): string {
  const { crlf, lf } = countBreaks(text, start, end);
  if (crlf === lf) {
    return fileEol();
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** Text with every "\r\n" turned into "\n" (lone "\r" kept). */
export function toLf(text: string): string {
  return text.indexOf('\r') === -1 ? text : text.replace(/\r\n/g, '\n');
}

/**
 * The file with "\r\n" read as "\n", and the way back: a model's LF old_string is searched
 * in `text`, and the offsets found map to the file as loaded. An offset just before a "\n"
 * maps to just before its "\r", so a match never splits a CRLF pair.
 */
export class LfView {
  readonly text: string;
  /** Offsets in `text` of each "\n" that was a "\r\n", ascending. */
  private readonly folded: number[] = [];

  constructor(content: string) {
    if (content.indexOf('\r\n') === -1) {
      this.text = content;
      return;
    }
    this.text = content.replace(/\r\n/g, '\n');
    let removed = 0;
    let i = content.indexOf('\r\n');
    while (i !== -1) {
      this.folded.push(i - removed);
      removed++;
      i = content.indexOf('\r\n', i + 2);
    }
  }

  /** The file offset of offset `p` of {@link text}. */
  toFile(p: number): number {
    // Each "\r\n" folded before p moved it one character.
    return p + countBelow(this.folded, p);
  }
}
