import { leadingWhitespace } from './normalize';

/** Columns a tab advances to (the next multiple of this), to compare tab and space indentation. */
const TAB_COLUMNS = 4;

/** Width in columns of leading whitespace, tabs to the next multiple of {@link TAB_COLUMNS}. */
export function indentWidth(ws: string): number {
  let w = 0;
  for (let i = 0; i < ws.length; i++) {
    w = ws.charCodeAt(i) === 9 ? (Math.floor(w / TAB_COLUMNS) + 1) * TAB_COLUMNS : w + 1;
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
  const ws = map.tabs ? '\t'.repeat(Math.floor(width / TAB_COLUMNS)) + ' '.repeat(width % TAB_COLUMNS) : ' '.repeat(width);
  return ws + line.slice(lead.length);
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
