import { leadingWhitespace } from './normalize';

/** Columns a tab advances to (the next multiple of this), to compare tab and space indentation. */
export const TAB_COLUMNS = 4;

/** Width in columns of leading whitespace, tabs to the next multiple of `tabColumns`. */
export function indentWidth(ws: string, tabColumns = TAB_COLUMNS): number {
  let w = 0;
  for (let i = 0; i < ws.length; i++) {
    w = ws.charCodeAt(i) === 9 ? (Math.floor(w / tabColumns) + 1) * tabColumns : w + 1;
  }
  return w;
}

/**
 * How old_string's indentation maps onto the file's within one matched block: the file's
 * width = fileBase + (old width - oldBase) * num / den, for every line with text. One map
 * for the whole block: a block whose lines moved relative to each other (Python's meaning)
 * has none.
 */
export interface IndentMap {
  oldBase: number;
  fileBase: number;
  num: number;
  den: number;
  /** Render new indentation with tabs (the file block's style). */
  tabs: boolean;
  /** Every line's indentation is the same string on both sides: nothing to re-indent. */
  identity: boolean;
}

/**
 * The map for pairs of (old line, file line) with text, or undefined when the relative
 * indentation of the lines is not the same shape on both sides.
 * @param fileUsesTabs the file's own style, asked only when the block has no indentation.
 */
export function indentMap(pairs: readonly (readonly [string, string])[], fileUsesTabs: () => boolean): IndentMap | undefined {
  if (pairs.length === 0) {
    return { oldBase: 0, fileBase: 0, num: 1, den: 1, tabs: false, identity: true };
  }
  const ow: number[] = [];
  const fw: number[] = [];
  let identity = true;
  let tabs = false;
  let spaces = false;
  for (const [o, f] of pairs) {
    const oi = leadingWhitespace(o);
    const fi = leadingWhitespace(f);
    identity &&= oi === fi;
    tabs ||= fi.includes('\t');
    spaces ||= fi.length > 0 && !fi.includes('\t');
    ow.push(indentWidth(oi));
    fw.push(indentWidth(fi));
  }
  const oldBase = Math.min(...ow);
  const fileBase = Math.min(...fw);
  let num = 1;
  let den = 1;
  const first = ow.findIndex((w) => w > oldBase);
  if (first >= 0) {
    num = fw[first] - fileBase;
    den = ow[first] - oldBase;
    if (num <= 0) {
      return undefined;
    }
  }
  for (let i = 0; i < ow.length; i++) {
    if ((fw[i] - fileBase) * den !== (ow[i] - oldBase) * num) {
      return undefined;
    }
  }
  return { oldBase, fileBase, num, den, tabs: tabs || (!spaces && fileUsesTabs()), identity };
}

/** A line of new_string re-indented by the map (its text after the indentation untouched). */
export function reindent(line: string, map: IndentMap): string {
  if (map.identity || line.trim().length === 0) {
    return map.identity ? line : '';
  }
  const lead = leadingWhitespace(line);
  const rel = indentWidth(lead) - map.oldBase;
  const width = Math.max(0, Math.round(map.fileBase + (rel * map.num) / map.den));
  return renderIndent(width, map.tabs) + line.slice(lead.length);
}

/** A short description of the map for the model, e.g. "base indentation 0 -> 8 columns, the file indents with tabs". */
export function describeIndentMap(map: IndentMap): string {
  const parts: string[] = [];
  if (map.oldBase !== map.fileBase) {
    parts.push(`base indentation ${map.oldBase} -> ${map.fileBase} columns`);
  }
  if (map.num !== map.den) {
    parts.push(`indent step x${+(map.num / map.den).toFixed(2)}`);
  }
  parts.push(map.tabs ? 'the file indents with tabs' : 'the file indents with spaces');
  return parts.join(', ');
}

/**
 * old_string indented differently from the file by different amounts on different lines (a
 * nested block copied without its indentation, a line that lost four spaces and the next
 * two): the file's own indentation is kept line by line. Only where old_string's lines are
 * in the file once, so the place is certain (see {@link perLineIndent}).
 */
export interface PerLineIndent {
  /** Columns a tab of old_string and new_string stands for: one indentation step of the file when the block has no tabs (a model's tab means one level). */
  tabColumns: number;
  /** Render new indentation with tabs (the file block's style). */
  tabs: boolean;
  /** Lines of old_string whose indentation is not the file's. */
  differing: number;
}

/** Greatest common divisor of two non-negative integers. */
function gcd(a: number, b: number): number {
  while (b > 0) {
    [a, b] = [b, a % b];
  }
  return a;
}

/**
 * How to keep the file's indentation line by line for (old line, file line) pairs with text
 * whose indentation has no single map. The lines say the same as the file's, in order and
 * once in the file: the place is certain whatever their indentation, and unchanged lines
 * keep the file's text; only new_string's added lines need a frame, which `project.ts`
 * finds from the lines around each (and refuses where they disagree).
 */
export function perLineIndent(pairs: readonly (readonly [string, string])[], fileStep: () => number, fileUsesTabs: () => boolean): PerLineIndent | undefined {
  if (pairs.length < 2) {
    return undefined;
  }
  const fileWs = pairs.map(([, f]) => leadingWhitespace(f));
  const fw = fileWs.map((ws) => indentWidth(ws));
  const blockTabs = fileWs.some((ws) => ws.includes('\t'));
  const blockSpaces = fileWs.some((ws) => ws.length > 0 && !ws.includes('\t'));
  let step = 0;
  for (let i = 1; i < fw.length; i++) {
    step = gcd(step, Math.abs(fw[i] - fw[i - 1]));
  }
  step ||= fileStep();
  return { tabColumns: blockTabs ? TAB_COLUMNS : step, tabs: blockTabs || (!blockSpaces && fileUsesTabs()), differing: pairs.filter(([o, f]) => leadingWhitespace(o) !== leadingWhitespace(f)).length };
}

/**
 * A line that ends the block above it or continues its statement (`}`, `end`, `else:`,
 * `except`, a closing tag; not a call or name that starts alike, `done()`, `end_time`): a
 * line added right before it belongs to the block above.
 */
export const CLOSES_BLOCK = /^(?:[}\])]|<\/|(?:end|else|elif|elsif|elseif|except|finally|catch|rescue|ensure|fi|done|esac)(?![\w$(=.]))/;

/** Leading whitespace `width` columns wide, in tabs (of {@link TAB_COLUMNS}) and spaces or in spaces only. */
export function renderIndent(width: number, tabs: boolean): string {
  const w = Math.max(0, width);
  return tabs ? '\t'.repeat(Math.floor(w / TAB_COLUMNS)) + ' '.repeat(w % TAB_COLUMNS) : ' '.repeat(w);
}
