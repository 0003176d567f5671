import { boundedJson } from './input';

/**
 * How a call is written to the log a person reads: one line with the tool, its input as JSON,
 * how it ended and how long it took, then each text of several lines the input holds (a
 * patch, a file's content) as its own lines below, so that a patch reads as it was written
 * rather than as `\n` escapes. Time spent waiting for the person (a review, a question) is
 * said apart: it is theirs, not the tool's.
 */

/** Characters of the input's JSON on the call's line. */
export const LOGGED_INPUT_CHARS = 200;
/** Lines of the input's texts shown below the call's line, together; the rest are counted. */
export const LOGGED_TEXT_LINES = 40;
/** Characters of one such line. */
export const LOGGED_TEXT_LINE_CHARS = 200;
/** How each line of a text below the call's line starts: no line of a file can pass for a line of the log, which starts with its time. */
const TEXT_INDENT = '    ';

/** A text's lines: a line break at its end ends its last line, it does not start another. */
function linesOf(text: string): string[] {
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

/** A text of several lines, as the call's line shows it in place of the text. */
function placeholder(text: string): string {
  const n = linesOf(text).length;
  return `(${n} ${n === 1 ? 'line' : 'lines'}, below)`;
}

/** The input with each text of several lines replaced by a placeholder, and those texts by their field's path. */
function splitTexts(raw: unknown): { shown: unknown; texts: { field: string; text: string }[] } {
  const texts: { field: string; text: string }[] = [];
  const walk = (v: unknown, at: string, depth: number): unknown => {
    if (typeof v === 'string') {
      if (!v.includes('\n')) {
        return v;
      }
      texts.push({ field: at, text: v });
      return placeholder(v);
    }
    // deeper than any input a tool takes: boundedJson says so
    if (depth > 20 || v === null || typeof v !== 'object') {
      return v;
    }
    if (Array.isArray(v)) {
      return v.map((x, i) => walk(x, `${at}[${i}]`, depth + 1));
    }
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, at ? `${at}.${k}` : k, depth + 1)]));
  };
  return { shown: walk(raw ?? {}, '', 0), texts };
}

/** A line of a text as the log shows it: control characters escaped (a carriage return would rewrite the line on a terminal), cut. */
function shownLine(line: string): string {
  // eslint-disable-next-line no-control-regex
  const safe = line.replace(/\r$/, '').replace(/[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return safe.length > LOGGED_TEXT_LINE_CHARS ? `${safe.slice(0, LOGGED_TEXT_LINE_CHARS)}…` : safe;
}

/** The input as the call's line shows it (JSON, cut), and the lines below it. */
export function loggedInput(raw: unknown): { head: string; below: string[] } {
  const { shown, texts } = splitTexts(raw);
  const head = boundedJson(shown, LOGGED_INPUT_CHARS);
  const below: string[] = [];
  let left = LOGGED_TEXT_LINES;
  for (const { field, text } of texts) {
    const lines = linesOf(text);
    below.push(`${TEXT_INDENT}${field}:`);
    const shownLines = lines.slice(0, Math.max(0, left));
    below.push(...shownLines.map((l) => `${TEXT_INDENT}  ${shownLine(l)}`));
    left -= shownLines.length;
    if (shownLines.length < lines.length) {
      below.push(`${TEXT_INDENT}  … ${lines.length - shownLines.length} more lines`);
    }
  }
  return { head, below };
}

/** Milliseconds to a tenth: most calls take less than a few. */
function ms(n: number): string {
  return String(Math.round(n * 10) / 10);
}

/** How long a call took: its own time, and apart the time it waited for the person. */
export function loggedTime(totalMs: number, waitedMs: number): string {
  // standing answers (the CLI's --yes) take no time a person could have
  return Math.round(waitedMs) > 0 ? `(${ms(Math.max(0, totalMs - waitedMs))} ms + ${Math.round(waitedMs)} ms waiting for the user)` : `(${ms(totalMs)} ms)`;
}

/** The log's entry for a call: `tool {input} -> outcome (time)`, then the input's texts. */
export function callLogEntry(tool: string, raw: unknown, outcome: string, totalMs: number, waitedMs: number): string {
  const { head, below } = loggedInput(raw);
  return [`${tool} ${head} -> ${outcome} ${loggedTime(totalMs, waitedMs)}`, ...below].join('\n');
}
