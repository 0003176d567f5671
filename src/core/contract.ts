/**
 * The words every tool uses for the same facts, so a model learns them once (the README's
 * "Contract for the model" section is the reference):
 *
 * - more remains: the output's last line is `Continue with: <tool> {json}`, a complete valid
 *   call, the only way to continue; nothing remains: no such line;
 * - a page says whether it holds everything: `End of file.` (fs_read), `all shown` or
 *   `(end)` (fs_list, fs_glob, fs_grep);
 * - numbers are plain integers (133818), ranges use an ASCII hyphen (1-837);
 * - another call worth making is written `Try: <tool> {json}`;
 * - a name (a path, a symbol) is printed through {@link printable}, and text that is not the
 *   file's own numbered lines (a notebook's outputs, a PDF's text) after `> ` (see
 *   {@link quotedLine}): nothing in a file or a name reads as a line the tool wrote.
 */

/** A call as a model writes it: the tool's name, then its input as compact JSON, on one line whatever the input holds. */
export function callText(tool: string, input: Record<string, unknown>): string {
  // JSON leaves C1 controls (NEL) and the Unicode line and paragraph separators as they are; some readers break lines at them
  return `${tool} ${JSON.stringify(input).replace(/[\u0080-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}`;
}

/** Characters that end a line for some reader, or steer a terminal: C0 and C1 controls, DEL, and the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** How the tools' own lines begin: a name that begins so has its first character escaped. */
const OWN_LINE = /^(?:Continue with:|Try:|End of|Did you mean|<)/;

function escapeChar(c: string): string {
  const n = c.charCodeAt(0);
  return n <= 0xff ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
}

/**
 * A name (a file's path, a symbol's name, a notebook's language) as every tool prints it:
 * control characters and line separators written as escapes (`\x0a`, `\u2028`), so a line
 * break in a name cannot start a line of its own, and a name that begins the way the
 * tools' own lines do (`Continue with:`, `Try:`, `End of`, `<`) with its first character
 * escaped, so a name printed alone on a line cannot pass for one of them. Other names are
 * printed as they are.
 */
export function printable(name: string): string {
  const s = name.replace(CONTROL, escapeChar);
  return OWN_LINE.test(s) ? escapeChar(s[0]) + s.slice(1) : s;
}

/** Text shown inside a line of the tool's own (an input repeated): its control characters and line separators escaped as {@link printable} escapes them. */
export function oneLine(text: string): string {
  return text.replace(CONTROL, escapeChar);
}

/** A line of text that is not the file's own numbered lines (a notebook output, a PDF page), framed so that it reads as quoted. */
export function quotedLine(line: string): string {
  return `> ${line}`;
}

/** The one line that continues a paged answer; print it only when more remains. */
export function continueLine(call: string): string {
  return `Continue with: ${call}`;
}

/** A suggested call that is not a continuation (a broader search, a different mode). */
export function tryLine(call: string): string {
  return `Try: ${call}`;
}

/**
 * The input of the call that continues: the caller's own options, in the given key order
 * (so the same input gives the same text), with the new position last.
 */
export function nextInput<T extends object>(input: T, keys: readonly (keyof T & string)[], position: Record<string, unknown>): Record<string, unknown> {
  const next: Record<string, unknown> = {};
  for (const key of keys) {
    if (input[key] !== undefined && !(key in position)) {
      next[key] = input[key];
    }
  }
  return { ...next, ...position };
}

/** "7" or "7-12": an ASCII range a model can copy into an argument. */
export function span(first: number, last: number): string {
  return first === last ? `${first}` : `${first}-${last}`;
}

/** The closing line of an fs_read page that reached the end of the file. */
export const END_OF_FILE = 'End of file.';

/**
 * How much of a list a page shows, in the same words in every tool: "all shown" (the first
 * page holds everything), "1-100 shown" (more follow: the Continue line comes last),
 * "101-157 of 157 shown (end)" (a later page reached the end).
 */
export function shownPhrase(first: number, last: number, more: boolean, of?: number): string {
  if (!more && first === 1) {
    return 'all shown';
  }
  return `${span(first, last)}${of !== undefined ? ` of ${of}` : ''} shown${more ? '' : ' (end)'}`;
}

/** Characters of a long input (a pattern) a result's first line repeats: the call that continues holds it whole. */
export const SHOWN_INPUT_CHARS = 120;

/**
 * Quoted as the model wrote it: a pattern's backslashes stay single (`"\$Zod\b"`, not the
 * JSON form with each doubled, which reads as another pattern). Only control characters
 * are escaped, so a line feed in a multiline pattern cannot break the line it stands on.
 */
function quoted(text: string): string {
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  return `"${text.replace(CONTROL, (c) => named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** An input as a result repeats it: whole when short, else its start and its length. */
export function shownInput(text: string, quote = false): string {
  const show = (t: string) => (quote ? quoted(t) : oneLine(t));
  return text.length <= SHOWN_INPUT_CHARS ? show(text) : `${show(text.slice(0, SHOWN_INPUT_CHARS))}... (${text.length} characters)`;
}
