import { ToolError } from '../errors';
import { span } from '../contract';
import { INDENT_COMMENT_SCAN_MAX_LINES } from '../limits';

/**
 * Indentation mode of fs_read: the block of code around an anchor line, found from
 * indentation alone, so it works the same for Python, brace languages, YAML and
 * anything else that indents its nesting.
 *
 * The semantics are Codex's `read_file` indentation mode:
 * - a line's depth is its leading whitespace in columns, a tab counting
 *   {@link TAB_COLUMNS}; a blank line takes the depth of the line before it;
 * - `maxLevels` parent levels above the anchor set the block's floor depth
 *   (0 = no limit: the top-level block that holds the anchor);
 * - the block is every line around the anchor at or below the floor, plus the
 *   enclosing lines at the floor (the opener above, a closer such as `}` below);
 * - without `includeSiblings`, other blocks at the floor are left out; with it, the
 *   whole run of lines at or below the floor is the block;
 * - with `includeHeader`, comments (and decorators) directly above the opener come too;
 * - `maxLines` caps the result around the anchor; blank lines at either end are trimmed.
 *
 * Where Codex's loop takes one extra line at the floor in each direction whatever it is,
 * this module looks at what the line is, so that Python and YAML blocks (no closer)
 * do not swallow the next sibling's first line, and `} else {`, `else:`, `catch`,
 * Allman braces and `end` keep an if/else or try/catch together. Parent levels are
 * counted from the enclosing lines actually found above the anchor rather than as
 * multiples of 4 columns, so a 2-space file climbs one level per `maxLevels`, as a
 * 4-space file does.
 */

/** Columns a tab counts for when measuring indentation. */
export const TAB_COLUMNS = 4;

export interface IndentationOptions {
  /** 1-based line the block is built around. */
  anchorLine: number;
  /**
   * Enclosing levels to climb from the anchor: 1 is the block that directly holds the
   * anchor line, 2 its parent, and so on. 0 means no limit: the top-level block.
   * @default 0
   */
  maxLevels?: number;
  /**
   * Also take the other blocks at the same depth (the whole body of the parent)
   * rather than only the one holding the anchor.
   * @default false
   */
  includeSiblings?: boolean;
  /**
   * Take the comment lines (and decorators such as `@Component`) directly above the
   * block's first line.
   * @default true
   */
  includeHeader?: boolean;
  /** Hard cap on the lines returned, kept around the anchor. No cap when absent. */
  maxLines?: number;
}

export interface IndentationBlock {
  /** First line to show, 1-based. */
  first: number;
  /** Last line to show, 1-based, inclusive. */
  last: number;
  /** The anchor line as asked for. */
  anchorLine: number;
  /** First line of the whole block, before `maxLines`. */
  blockFirst: number;
  /** Last line of the whole block, before `maxLines`. */
  blockLast: number;
  /** Lines in the whole block (`blockLast - blockFirst + 1`). */
  blockLines: number;
  /** Lines in the file. */
  totalLines: number;
  /** True when `maxLines` cut the block: lines of it are not in `first..last`. */
  capped: boolean;
  /** Enclosing levels found and climbed (at most `maxLevels` when it is set). */
  levels: number;
  /** Depth in columns of the block's outermost lines. */
  floorColumns: number;
}

/** Depth in columns of a line's leading whitespace, or -1 for a blank line. */
export function measureIndent(line: string): number {
  let cols = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32) {
      cols += 1;
    } else if (c === 9) {
      cols += TAB_COLUMNS;
    } else {
      return cols;
    }
  }
  return -1;
}

// Line kinds that decide what a line at the block's floor depth does to the block.

/** `}` / `)` / `]` first: the line closes something. */
const LEADING_CLOSER = /^[}\])]/;
/** Words that close a block in keyword languages (Ruby, Lua, shell, PHP alt syntax, VB, SQL). */
const CLOSER_WORD = /^(end|fi|done|esac|endif|endfor|endforeach|endwhile|endswitch|endfunction|wend|until)\b(?!\s*[:=])/i;
/** Words that continue the statement above at the same depth rather than start a new one. */
const CONTINUATION_WORD = /^(else|elif|elsif|elseif|except|finally|catch|rescue|ensure)\b/;
/** A line of nothing but opening brackets: an Allman-style brace whose header is above it. */
const BRACKETS_ONLY = /^[{[(]+$/;
/** Comment starts in the languages people read with this tool. */
const COMMENT_PREFIXES = ['//', '#', '--', '/*', '*', '"""', "'''", '<!--', ';', '%'];
/** Closing delimiters of block comments and docstrings, with the opening they pair with. */
const BLOCK_COMMENT_ENDS: readonly (readonly [string, string])[] = [
  ['*/', '/*'],
  ['"""', '"""'],
  ["'''", "'''"],
  ['-->', '<!--'],
];

type FloorKind = 'continuation' | 'closer' | 'bracket' | 'other';

/** What a line at the floor depth is, given its trimmed text. */
function floorKind(t: string): FloorKind {
  if (BRACKETS_ONLY.test(t)) {
    return 'bracket';
  }
  if (LEADING_CLOSER.test(t) || t.startsWith('</')) {
    // `} else {`, `} catch (e) {`, `}, {` reopen; `}`, `});`, `} while (x);` only close.
    const rest = t.replace(/^[}\])\s]+/, '').replace(/[;,\s]+$/, '');
    return /[{[(:]$/.test(rest) && rest.length > 0 ? 'continuation' : 'closer';
  }
  if (CONTINUATION_WORD.test(t)) {
    return 'continuation';
  }
  if (CLOSER_WORD.test(t)) {
    return 'closer';
  }
  return 'other';
}

function isCommentLine(t: string): boolean {
  return COMMENT_PREFIXES.some((p) => t.startsWith(p));
}

function isDecorator(t: string): boolean {
  return /^@[A-Za-z_$]/.test(t) || t.startsWith('#[');
}

function isHeaderLine(t: string): boolean {
  return isCommentLine(t) || isDecorator(t);
}

function checkPositiveInt(name: string, value: number | undefined, allowZero: boolean): void {
  if (value === undefined) {
    return;
  }
  const min = allowZero ? 0 : 1;
  if (!Number.isInteger(value) || value < min) {
    throw new ToolError(
      'invalid-input',
      `${name} must be ${allowZero ? 'a whole number, 0 or more' : 'a whole number, 1 or more'}; got ${String(value)}.` +
        (name === 'max_levels' ? ' Use 0 for no limit, 1 for the block that holds the anchor line, 2 for its parent.' : ''),
    );
  }
}

/**
 * The block around `opts.anchorLine` in `lines` (as {@link splitLines} gives them).
 * Throws a ToolError for an anchor past the end (`offset-past-end`) or a
 * non-positive value (`invalid-input`).
 */
export function indentationBlock(lines: readonly string[], opts: IndentationOptions): IndentationBlock {
  checkPositiveInt('anchor_line', opts.anchorLine, false);
  checkPositiveInt('max_levels', opts.maxLevels, true);
  checkPositiveInt('max_lines', opts.maxLines, false);
  const n = lines.length;
  if (opts.anchorLine > n) {
    throw new ToolError(
      'offset-past-end',
      n === 0
        ? `anchor_line=${opts.anchorLine} is past the end: the file is empty (0 lines), so there is no block to read.`
        : `anchor_line=${opts.anchorLine} is past the end: the file has ${n} lines. Use an anchor_line from 1 to ${n}.`,
    );
  }
  const maxLevels = opts.maxLevels ?? 0;
  const includeSiblings = opts.includeSiblings ?? false;
  const includeHeader = opts.includeHeader ?? true;

  const indent = lines.map(measureIndent);
  const blank = (i: number) => indent[i] < 0;
  // A blank line is as deep as the line above it, so it never splits a block.
  const depth: number[] = [];
  for (let i = 0, above = 0; i < n; i++) {
    above = blank(i) ? above : indent[i];
    depth.push(above);
  }
  const trimmed = (i: number) => lines[i].trim();

  // A blank anchor belongs to the block that follows it (or, at the end of the file,
  // to the one before): the block of a blank line alone would be empty.
  const asked = opts.anchorLine - 1;
  let a = asked;
  if (blank(a)) {
    let k = a + 1;
    while (k < n && blank(k)) {
      k++;
    }
    if (k === n) {
      k = a - 1;
      while (k >= 0 && blank(k)) {
        k--;
      }
    }
    a = k >= 0 ? k : a;
  }
  // A comment or decorator anchor belongs to the code it annotates, the line after it;
  // not when that line closes a block or sits shallower (a trailing comment in a body).
  if (!blank(a) && isHeaderLine(trimmed(a))) {
    const k = endOfHeaderRun(a);
    if (k < n && !blank(k) && indent[k] + 1 >= indent[a]) {
      const kind = floorKind(trimmed(k));
      if (kind === 'other' || kind === 'bracket') {
        a = k;
      }
    }
  }
  const anchorDepth = blank(a) ? 0 : indent[a];

  // Enclosing lines, innermost first: each is the nearest line above with less indent.
  const parents: number[] = [];
  for (let i = a - 1, cur = anchorDepth; i >= 0 && cur > 0; i--) {
    if (!blank(i) && indent[i] < cur) {
      parents.push(i);
      cur = indent[i];
    }
  }
  const climbed = maxLevels === 0 ? parents.length : Math.min(maxLevels, parents.length);
  const floor = maxLevels === 0 || maxLevels > parents.length ? 0 : indent[parents[maxLevels - 1]];

  let first = a;
  let last = a;
  if (includeSiblings) {
    while (first > 0 && depth[first - 1] >= floor) {
      first--;
    }
    while (last < n - 1 && depth[last + 1] >= floor) {
      last++;
    }
  } else {
    const kind = blank(a) ? 'other' : floorKind(trimmed(a));
    const atFloor = anchorDepth <= floor;
    if (!atFloor || kind === 'closer' || kind === 'continuation' || kind === 'bracket') {
      first = climbToOpener(a);
    }
    last = descend(a, atFloor && kind === 'closer');
    if (includeHeader) {
      first = headerAbove(first);
    }
  }

  /** The first line after the comments and decorators that start at `from`. */
  function endOfHeaderRun(from: number): number {
    let k = from;
    let closeWith: string | undefined;
    while (k < n && !blank(k)) {
      const t = trimmed(k);
      if (closeWith !== undefined) {
        if (t.includes(closeWith)) {
          closeWith = undefined;
        }
        k++;
        continue;
      }
      const opened = BLOCK_COMMENT_ENDS.find(([close, open]) => t.startsWith(open) && !t.includes(close, open.length));
      if (opened) {
        closeWith = opened[0];
      } else if (!isHeaderLine(t)) {
        break;
      }
      k++;
    }
    return k;
  }

  /** Walks up from `from` to the line at the floor that opens its block. */
  function climbToOpener(from: number): number {
    let top = from;
    for (let i = from - 1; i >= 0; i--) {
      if (blank(i)) {
        continue;
      }
      if (indent[i] > floor) {
        top = i;
        continue;
      }
      if (indent[i] < floor) {
        break;
      }
      top = i;
      if (floorKind(trimmed(i)) === 'other') {
        break;
      }
      // `} else {`, `else:`, a lone `}` before `else`, an Allman `{`: the statement goes on above.
    }
    return top;
  }

  /** Walks down from `from` through the block and its closer; returns the last line. */
  function descend(from: number, afterCloser: boolean): number {
    let bottom = from;
    let closed = afterCloser;
    for (let j = from + 1; j < n; j++) {
      if (blank(j)) {
        continue;
      }
      if (indent[j] > floor && !closed) {
        bottom = j;
        continue;
      }
      if (indent[j] < floor) {
        break;
      }
      if (indent[j] > floor) {
        // Deeper lines after a closer belong to whatever comes next.
        break;
      }
      const kind = floorKind(trimmed(j));
      if (kind === 'continuation' || kind === 'bracket') {
        bottom = j;
        closed = false;
        continue;
      }
      if (kind === 'closer' && !closed) {
        bottom = j;
        closed = true;
        continue;
      }
      break;
    }
    return bottom;
  }

  /** Extends `top` up over the comments and decorators written right above it. */
  function headerAbove(top: number): number {
    let k = top - 1;
    while (k >= 0 && !blank(k) && indent[k] >= floor) {
      const t = trimmed(k);
      // The last line of a block comment (` */`, a closing `"""`): the header is the whole comment.
      const end = BLOCK_COMMENT_ENDS.find(
        ([close, open]) => t.endsWith(close) && (t === close || isCommentLine(t)) && !(t.startsWith(open) && t.length >= open.length + close.length),
      );
      if (end) {
        const start = blockCommentStart(k, end[1]);
        if (start === undefined) {
          break;
        }
        top = start;
        k = start - 1;
        continue;
      }
      if (isHeaderLine(t)) {
        top = k;
        k--;
        continue;
      }
      if (floorKind(t) === 'closer' && indent[k] === floor) {
        // A multi-line decorator: `@Component({ ... })` above a class.
        const opener = climbToOpener(k);
        if (opener < k && isDecorator(trimmed(opener))) {
          top = opener;
          k = opener - 1;
          continue;
        }
      }
      break;
    }
    return top;
  }

  /** The line that opens the block comment ending on line `end`, if it is near enough. */
  function blockCommentStart(end: number, open: string): number | undefined {
    const stop = Math.max(0, end - INDENT_COMMENT_SCAN_MAX_LINES);
    for (let k = end - 1; k >= stop; k--) {
      if (trimmed(k).startsWith(open)) {
        return k;
      }
    }
    return undefined;
  }

  // The asked-for anchor stays in the block even when it is a blank line at its edge.
  first = Math.min(first, asked);
  last = Math.max(last, asked);
  [first, last] = trimBlank(first, last);
  const blockFirst = first;
  const blockLast = last;

  let capped = false;
  if (opts.maxLines !== undefined && last - first + 1 > opts.maxLines) {
    // Grow out from the anchor one line up, one line down, as Codex does, so a
    // signature-anchored cap shows the signature and the start of the body.
    const budget = opts.maxLines - 1;
    const above = asked - first;
    const below = last - asked;
    const up = Math.min(above, Math.max(Math.ceil(budget / 2), budget - below));
    const down = Math.min(below, budget - up);
    first = asked - up;
    last = asked + down;
    [first, last] = trimBlank(first, last);
    capped = true;
  }

  function trimBlank(f: number, l: number): [number, number] {
    while (f < l && f < asked && blank(f)) {
      f++;
    }
    while (l > f && l > asked && blank(l)) {
      l--;
    }
    return [f, l];
  }

  return {
    first: first + 1,
    last: last + 1,
    anchorLine: opts.anchorLine,
    blockFirst: blockFirst + 1,
    blockLast: blockLast + 1,
    blockLines: blockLast - blockFirst + 1,
    totalLines: n,
    capped,
    levels: climbed,
    floorColumns: floor,
  };
}

/**
 * What the page is, for the meta line: "the block around line 20", and when `maxLines`
 * cut it, the whole block's lines ("max_lines cut the block around line 20, lines 5-90").
 */
export function describeIndentationBlock(b: IndentationBlock): string {
  if (!b.capped) {
    return `the block around line ${b.anchorLine}`;
  }
  return `max_lines cut the block around line ${b.anchorLine}, lines ${span(b.blockFirst, b.blockLast)}`;
}
