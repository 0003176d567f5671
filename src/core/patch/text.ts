/**
 * The line model of a file being patched: each line's text and its own terminator, so
 * that lines the patch does not touch are written back byte for byte.
 */
export interface FileLines {
  /** Line texts without terminators; a final `\n` ends the last line, it does not start an empty one. */
  lines: string[];
  /** Each line's terminator: `\n`, `\r\n`, or `` for a last line without one. */
  eols: string[];
  /** The ending new lines take: CRLF when the file has at least as many CRLF as LF endings (and one), else LF. */
  dominant: '\n' | '\r\n';
}

export function splitFile(text: string): FileLines {
  const lines: string[] = [];
  const eols: string[] = [];
  let lf = 0;
  let crlf = 0;
  let from = 0;
  while (from < text.length) {
    const nl = text.indexOf('\n', from);
    if (nl === -1) {
      lines.push(text.slice(from));
      eols.push('');
      break;
    }
    if (nl > from && text.charCodeAt(nl - 1) === 13) {
      lines.push(text.slice(from, nl - 1));
      eols.push('\r\n');
      crlf++;
    } else {
      lines.push(text.slice(from, nl));
      eols.push('\n');
      lf++;
    }
    from = nl + 1;
  }
  return { lines, eols, dominant: crlf > 0 && crlf >= lf ? '\r\n' : '\n' };
}

/**
 * Joins lines back. A line without a terminator gets the dominant one: a line that is
 * no longer last needs one, and an updated file always ends with a line ending (an
 * empty file stays empty).
 */
export function joinFile(lines: readonly string[], eols: readonly string[], dominant: string): string {
  const parts = new Array<string>(lines.length * 2);
  for (let i = 0; i < lines.length; i++) {
    parts[2 * i] = lines[i];
    parts[2 * i + 1] = eols[i] || dominant;
  }
  return parts.join('');
}
