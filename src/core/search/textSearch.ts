import { MAX_RG_COLUMN_BYTES } from '../limits';
import { lineOfOffset } from '../sorted';
import type { CompiledQuery } from './regex';

/** A run of lines ripgrep reports as one match: one line, or in multiline mode the lines a match (or several touching ones) spans. */
export interface MatchRecord {
  first: number;
  last: number;
}

/** What a search of one file found, in the terms ripgrep's `--json` gives. */
export interface FileHits {
  records: MatchRecord[];
  /** Text of the lines the records and their context cover, by 1-based number. */
  lines: Map<number, string>;
  /** Lines too long for ripgrep to print whole: `lines` holds their start, their length is not known. */
  long?: Set<number>;
}

/** Lines of a text as ripgrep numbers them: split on "\n", no empty line after a final "\n". */
export function textLines(text: string): string[] {
  if (text === '') {
    return [];
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') {
    lines.pop();
  }
  return lines;
}

/** ripgrep's `--count`: matching lines, or in a search across lines the matches themselves. */
export interface Counted {
  records: MatchRecord[];
  count: number;
}

/**
 * The matches of one text: line by line, or across lines where ripgrep would (then
 * matches whose lines touch or overlap are one record, as ripgrep prints them).
 */
export function findRecords(text: string, q: CompiledQuery): Counted {
  const re = q.regex;
  if (!q.acrossLines) {
    const records: MatchRecord[] = [];
    const lines = textLines(text);
    for (let i = 0; i < lines.length; i++) {
      re.lastIndex = 0;
      if (re.test(lines[i])) {
        records.push({ first: i + 1, last: i + 1 });
      }
    }
    return { records, count: records.length };
  }
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    starts.push(i + 1);
  }
  if (text.endsWith('\n')) {
    starts.pop();
  }
  const lineOf = (offset: number) => lineOfOffset(starts, offset) + 1;
  const records: MatchRecord[] = [];
  let count = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (m[0].length === 0) {
      re.lastIndex = start + (text.codePointAt(start)! > 0xffff ? 2 : 1);
      if (start >= text.length && text.length > 0 && text.endsWith('\n')) {
        break;
      }
    }
    count++;
    const first = lineOf(start);
    const last = end > start ? lineOf(end - 1) : first;
    const prev = records[records.length - 1];
    if (prev && first <= prev.last + 1) {
      prev.last = Math.max(prev.last, last);
    } else {
      records.push({ first, last });
    }
    if (start >= text.length) {
      break;
    }
  }
  return { records, count };
}

/**
 * The lines to print for the chosen records: theirs and `context` lines on each side,
 * as ripgrep's `--json` with `-C` would give them.
 */
export function linesFor(text: string, records: readonly MatchRecord[], context: number): Pick<FileHits, 'lines' | 'long'> {
  const lines = textLines(text);
  const out = new Map<number, string>();
  let long: Set<number> | undefined;
  for (const r of records) {
    for (let n = Math.max(1, r.first - context); n <= Math.min(lines.length, r.last + context); n++) {
      const line = lines[n - 1];
      out.set(n, line);
      // as ripgrep's --max-columns sees it (a UTF-16 unit is at most 3 UTF-8 bytes)
      if (line.length * 3 > MAX_RG_COLUMN_BYTES && Buffer.byteLength(line, 'utf8') > MAX_RG_COLUMN_BYTES) {
        (long ??= new Set()).add(n);
      }
    }
  }
  return long ? { lines: out, long } : { lines: out };
}

/** ripgrep skips a file it finds a NUL byte in; this is the same test on decoded text. */
export function looksBinary(text: string): boolean {
  return text.includes('\u0000');
}
