import { MAX_LINE_CHARS } from '../limits';

/**
 * Line model shared by every reader: split on "\n" only, strip one trailing "\r" per
 * line, and treat a final "\n" as a terminator, not as the start of an empty last line
 * ("a\nb\n" has 2 lines, "" has 0). Editors number lines the same way, so `L42:` is
 * the line the user sees as 42.
 */
export function splitLines(text: string): string[] {
  if (text.length === 0) {
    return [];
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') {
    lines.pop();
  }
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.charCodeAt(l.length - 1) === 13) {
      lines[i] = l.slice(0, -1);
    }
  }
  return lines;
}

export type EolKind = 'LF' | 'CRLF' | 'mixed' | 'none';

export function detectEol(text: string): EolKind {
  let lf = 0;
  let crlf = 0;
  let i = text.indexOf('\n');
  while (i !== -1) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) {
      crlf++;
    } else {
      lf++;
    }
    if (lf > 0 && crlf > 0) {
      return 'mixed';
    }
    i = text.indexOf('\n', i + 1);
  }
  return crlf > 0 ? 'CRLF' : lf > 0 ? 'LF' : 'none';
}

/** A line ready to render: cut to {@link MAX_LINE_CHARS} when longer. */
export interface PageLine {
  /** 1-based line number in the file. */
  n: number;
  text: string;
  /** 1-based column (UTF-16 code unit) `text` starts at, set only when it is not 1. */
  column?: number;
  /** Length of the whole line in characters (UTF-16 code units), set only when the line is cut or starts past column 1. */
  fullLength?: number;
}

/**
 * The piece of a line that starts at `column` (1-based, default 1), cut to the cap. Never
 * splits a surrogate pair: a column on a pair's second half starts at its first half.
 */
export function cutLine(n: number, line: string, column = 1): PageLine {
  let start = Math.max(column - 1, 0);
  if (start > 0 && start < line.length) {
    const c = line.charCodeAt(start);
    if (c >= 0xdc00 && c <= 0xdfff) {
      start--;
    }
  }
  const rest = start > 0 ? line.slice(start) : line;
  const from: Pick<PageLine, 'column' | 'fullLength'> = start > 0 ? { column: start + 1, fullLength: line.length } : {};
  if (rest.length <= MAX_LINE_CHARS) {
    return { n, text: rest, ...from };
  }
  let end = MAX_LINE_CHARS;
  const c = rest.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) {
    end--;
  }
  return { n, text: rest.slice(0, end), ...from, fullLength: line.length };
}
