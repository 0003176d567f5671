import { TextFits, type Fits } from './fits';

/** The lines a search runs over. `exactFits` finds a pattern's lines compared exactly. */
export interface LineSource {
  readonly count: number;
  line(i: number): string;
  /** Every line (materialised on first use). */
  all(): readonly string[];
  exactFits(pattern: readonly string[]): Fits;
  /** Whether some line ends in whitespace (what `trimEnd` removes; its terminator aside). */
  hasTrailingSpace(): boolean;
}

const SPACE_RE = /\s/;

/** Whether the character code is whitespace as `trimEnd` sees it. */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || (code >= 128 && SPACE_RE.test(String.fromCharCode(code)));
}

/** The lines joined with `\n` after each, and where each starts. */
function joinLines(lines: readonly string[]): { text: string; starts: Int32Array } {
  const starts = new Int32Array(lines.length + 1);
  for (let i = 0; i < lines.length; i++) {
    starts[i + 1] = starts[i] + lines[i].length + 1;
  }
  return { text: lines.length === 0 ? '' : `${lines.join('\n')}\n`, starts };
}

/** Lines given as an array (`seekSequence`'s input). */
export class ArrayLines implements LineSource {
  private joined?: { text: string; starts: Int32Array };

  constructor(private readonly lines: readonly string[]) {}

  get count(): number {
    return this.lines.length;
  }

  line(i: number): string {
    return this.lines[i];
  }

  all(): readonly string[] {
    return this.lines;
  }

  hasTrailingSpace(): boolean {
    return this.lines.some((l) => l.length > 0 && isSpace(l.charCodeAt(l.length - 1)));
  }

  exactFits(pattern: readonly string[]): Fits {
    this.joined ??= joinLines(this.lines);
    return new TextFits(this.joined.text, this.joined.starts, `${pattern.join('\n')}\n`);
  }
}

/**
 * A file's text seen as lines without copying it: line i is `text` from `start(i)` to its
 * terminator (`\n` or `\r\n`; a final `\n` ends the last line, it does not start an empty
 * one). Untouched lines are later copied out of `text` whole, so they keep their bytes.
 */
export class FileText implements LineSource {
  readonly count: number;
  /** Ending new lines take: CRLF when the file has at least as many CRLF as LF endings (and one), else LF. */
  readonly dominant: '\n' | '\r\n';
  private readonly starts: Int32Array;
  /** Per line: 0 (no terminator: the last line), 1 (`\n`) or 2 (`\r\n`). */
  private readonly eolLength: Uint8Array;
  private readonly crlf: number;
  private readonly lf: number;
  private lines?: string[];
  private search?: { text: string; starts: Int32Array; eol: string };
  private trailingSpace?: boolean;

  constructor(readonly text: string) {
    const newlines: number[] = [];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
      newlines.push(i);
    }
    const unterminated = text.length > 0 && !text.endsWith('\n');
    this.count = newlines.length + (unterminated ? 1 : 0);
    this.starts = new Int32Array(this.count + 1);
    this.eolLength = new Uint8Array(this.count);
    let crlf = 0;
    for (let line = 0; line < newlines.length; line++) {
      const i = newlines[line];
      const cr = i > this.starts[line] && text.charCodeAt(i - 1) === 13;
      this.eolLength[line] = cr ? 2 : 1;
      crlf += cr ? 1 : 0;
      this.starts[line + 1] = i + 1;
    }
    this.starts[this.count] = text.length;
    this.crlf = crlf;
    this.lf = newlines.length - crlf;
    this.dominant = crlf > 0 && crlf >= this.lf ? '\r\n' : '\n';
  }

  line(i: number): string {
    return this.text.slice(this.starts[i], this.starts[i + 1] - this.eolLength[i]);
  }

  /** The line's terminator: `\n`, `\r\n`, or `` for a last line without one. */
  eol(i: number): string {
    return this.eolLength[i] === 2 ? '\r\n' : this.eolLength[i] === 1 ? '\n' : '';
  }

  /** Lines [from, to) with their terminators, as the file has them. */
  slice(from: number, to: number): string {
    return this.text.slice(this.starts[from], this.starts[to]);
  }

  all(): readonly string[] {
    if (!this.lines) {
      this.lines = new Array<string>(this.count);
      for (let i = 0; i < this.count; i++) {
        this.lines[i] = this.line(i);
      }
    }
    return this.lines;
  }

  hasTrailingSpace(): boolean {
    if (this.trailingSpace === undefined) {
      this.trailingSpace = false;
      for (let i = 0; i < this.count; i++) {
        const end = this.starts[i + 1] - this.eolLength[i];
        if (end > this.starts[i] && isSpace(this.text.charCodeAt(end - 1))) {
          this.trailingSpace = true;
          break;
        }
      }
    }
    return this.trailingSpace;
  }

  exactFits(pattern: readonly string[]): Fits {
    if (!this.search) {
      if (this.crlf === 0 || this.lf === 0) {
        // One kind of ending: search the text itself (ending its last line if needed).
        const eol = this.crlf > 0 ? '\r\n' : '\n';
        const unterminated = this.count > 0 && this.eolLength[this.count - 1] === 0;
        const starts = unterminated ? Int32Array.from(this.starts, (s, i) => (i === this.count ? s + eol.length : s)) : this.starts;
        this.search = { text: unterminated ? this.text + eol : this.text, starts, eol };
      } else {
        this.search = { ...joinLines(this.all()), eol: '\n' };
      }
    }
    const { text, starts, eol } = this.search;
    return new TextFits(text, starts, pattern.join(eol) + eol);
  }
}
