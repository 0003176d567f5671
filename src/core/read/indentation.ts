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
 *   (0 = no limit: the top-level block that holds the anchor); without it, the smallest
 *   block that holds the anchor (where Codex reads the top-level one), and the answer says
 *   which `maxLevels` widens it;
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
   * anchor line, 2 its parent, and so on. 0 means no limit: the top-level block. When not
   * given, the smallest block that holds the anchor: the one a line opens when the anchor
   * is that line (a function's header), else the one that directly holds it (level 1);
   * `wider` then says how to widen it.
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
  /** Without `maxLevels`, when a block encloses this one: the `maxLevels` that reads it, and its lines. */
  wider?: { maxLevels: number; first: number; last: number };
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
  checkOptions(lines.length, opts);
  const text = new IndentedLines(lines);
  const asked = opts.anchorLine - 1;
  const a = text.effectiveAnchor(asked);
  const anchorDepth = text.blank(a) ? 0 : text.indent[a];
  const parents = text.enclosing(a, anchorDepth);
  // The smallest block by default: the one the anchor opens, else the one that holds it.
  const opens = opts.maxLevels === undefined && text.opensBlock(a);
  const maxLevels = opts.maxLevels ?? 1;
  const climbed = opens ? 0 : maxLevels === 0 ? parents.length : Math.min(maxLevels, parents.length);
  const floorAt = (levels: number) => (levels === 0 || levels > parents.length ? 0 : text.indent[parents[levels - 1]]);
  const floor = opens ? anchorDepth : floorAt(maxLevels);
  const extentAt = (at: number): [number, number] => {
    const [f, l] = new Block(text, at).extent(a, anchorDepth, opts.includeSiblings ?? false, opts.includeHeader ?? true);
    // The asked-for anchor stays in the block even when it is a blank line at its edge.
    return text.trimBlank(Math.min(f, asked), Math.max(l, asked), asked);
  };
  let [first, last] = extentAt(floor);
  const blockFirst = first;
  const blockLast = last;
  let capped = false;
  if (opts.maxLines !== undefined && last - first + 1 > opts.maxLines) {
    [first, last] = text.trimBlank(...capAround(asked, first, last, opts.maxLines), asked);
    capped = true;
  }
  const out: IndentationBlock = {
    first: first + 1,
    last: last + 1,
    anchorLine: opts.anchorLine,
    blockFirst: blockFirst + 1,
    blockLast: blockLast + 1,
    blockLines: blockLast - blockFirst + 1,
    totalLines: lines.length,
    capped,
    levels: climbed,
    floorColumns: floor,
  };
  // Without max_levels: the next block out, when there is one, and the call's level for it.
  const next = opts.maxLevels === undefined ? (opens ? 1 : 2) : undefined;
  if (next !== undefined && (opens ? anchorDepth > 0 : parents.length > 0)) {
    const [wf, wl] = extentAt(floorAt(next));
    if (wf < blockFirst || wl > blockLast) {
      out.wider = { maxLevels: next, first: wf + 1, last: wl + 1 };
    }
  }
  return out;
}

function checkOptions(n: number, opts: IndentationOptions): void {
  checkPositiveInt('anchor_line', opts.anchorLine, false);
  checkPositiveInt('max_levels', opts.maxLevels, true);
  checkPositiveInt('max_lines', opts.maxLines, false);
  if (opts.anchorLine > n) {
    throw new ToolError(
      'offset-past-end',
      n === 0
        ? `anchor_line=${opts.anchorLine} is past the end: the file is empty (0 lines), so there is no block to read.`
        : `anchor_line=${opts.anchorLine} is past the end: the file has ${n} lines. Use an anchor_line from 1 to ${n}.`,
    );
  }
}

/**
 * The lines kept by `maxLines` around the anchor: grown out from it one line up, one line
 * down, as Codex does, so a signature-anchored cap shows the signature and the start of the body.
 */
function capAround(asked: number, first: number, last: number, maxLines: number): [number, number] {
  const budget = maxLines - 1;
  const above = asked - first;
  const below = last - asked;
  const up = Math.min(above, Math.max(Math.ceil(budget / 2), budget - below));
  const down = Math.min(below, budget - up);
  return [asked - up, asked + down];
}

/** The file's lines with their indentation measured once. */
class IndentedLines {
  readonly n: number;
  /** Leading whitespace in columns; -1 for a blank line. */
  readonly indent: number[];
  /** As {@link indent}, but a blank line is as deep as the line above it, so it never splits a block. */
  readonly depth: number[] = [];

  constructor(private readonly lines: readonly string[]) {
    this.n = lines.length;
    this.indent = lines.map(measureIndent);
    for (let i = 0, above = 0; i < this.n; i++) {
      above = this.blank(i) ? above : this.indent[i];
      this.depth.push(above);
    }
  }

  blank(i: number): boolean {
    return this.indent[i] < 0;
  }

  trimmed(i: number): string {
    return this.lines[i].trim();
  }

  /**
   * The line the block is built around for the line asked. A blank anchor belongs to the
   * block that follows it (or, at the end of the file, to the one before): the block of a
   * blank line alone would be empty. A comment or decorator anchor belongs to the code it
   * annotates, the line after it; not when that line closes a block or sits shallower (a
   * trailing comment in a body).
   */
  effectiveAnchor(asked: number): number {
    let a = asked;
    if (this.blank(a)) {
      let k = a + 1;
      while (k < this.n && this.blank(k)) {
        k++;
      }
      if (k === this.n) {
        k = a - 1;
        while (k >= 0 && this.blank(k)) {
          k--;
        }
      }
      a = k >= 0 ? k : a;
    }
    if (!this.blank(a) && isHeaderLine(this.trimmed(a))) {
      const k = this.endOfHeaderRun(a);
      if (k < this.n && !this.blank(k) && this.indent[k] + 1 >= this.indent[a]) {
        const kind = floorKind(this.trimmed(k));
        if (kind === 'other' || kind === 'bracket') {
          a = k;
        }
      }
    }
    return a;
  }

  /** Whether line `a` opens a block: the next line with text is deeper. */
  opensBlock(a: number): boolean {
    if (this.blank(a)) {
      return false;
    }
    let k = a + 1;
    while (k < this.n && this.blank(k)) {
      k++;
    }
    return k < this.n && this.indent[k] > this.indent[a];
  }

  /** Enclosing lines of line `a`, innermost first: each is the nearest line above with less indent. */
  enclosing(a: number, anchorDepth: number): number[] {
    const parents: number[] = [];
    for (let i = a - 1, cur = anchorDepth; i >= 0 && cur > 0; i--) {
      if (!this.blank(i) && this.indent[i] < cur) {
        parents.push(i);
        cur = this.indent[i];
      }
    }
    return parents;
  }

  /** The first line after the comments and decorators that start at `from`. */
  private endOfHeaderRun(from: number): number {
    let k = from;
    let closeWith: string | undefined;
    while (k < this.n && !this.blank(k)) {
      const t = this.trimmed(k);
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

  /** Lines first..last without blank lines at either end, never past the asked line. */
  trimBlank(f: number, l: number, asked: number): [number, number] {
    while (f < l && f < asked && this.blank(f)) {
      f++;
    }
    while (l > f && l > asked && this.blank(l)) {
      l--;
    }
    return [f, l];
  }
}

/** The walks that find a block's edges at its floor depth (columns). */
class Block {
  constructor(
    private readonly text: IndentedLines,
    private readonly floor: number,
  ) {}

  /** First and last line of the block around anchor `a`, before the anchor and the cap are applied. */
  extent(a: number, anchorDepth: number, includeSiblings: boolean, includeHeader: boolean): [number, number] {
    const { text, floor } = this;
    let first = a;
    let last = a;
    if (includeSiblings) {
      while (first > 0 && text.depth[first - 1] >= floor) {
        first--;
      }
      while (last < text.n - 1 && text.depth[last + 1] >= floor) {
        last++;
      }
      return [first, last];
    }
    const kind = text.blank(a) ? 'other' : floorKind(text.trimmed(a));
    const atFloor = anchorDepth <= floor;
    if (!atFloor || kind === 'closer' || kind === 'continuation' || kind === 'bracket') {
      first = this.climbToOpener(a);
    }
    last = this.descend(a, atFloor && kind === 'closer');
    if (includeHeader) {
      first = this.headerAbove(first);
    }
    return [first, last];
  }

  /** Walks up from `from` to the line at the floor that opens its block. */
  private climbToOpener(from: number): number {
    const { text, floor } = this;
    let top = from;
    for (let i = from - 1; i >= 0; i--) {
      if (text.blank(i)) {
        continue;
      }
      if (text.indent[i] > floor) {
        top = i;
        continue;
      }
      if (text.indent[i] < floor) {
        break;
      }
      top = i;
      if (floorKind(text.trimmed(i)) === 'other') {
        break;
      }
      // `} else {`, `else:`, a lone `}` before `else`, an Allman `{`: the statement goes on above.
    }
    return top;
  }

  /** Walks down from `from` through the block and its closer; returns the last line. */
  private descend(from: number, afterCloser: boolean): number {
    const { text, floor } = this;
    let bottom = from;
    let closed = afterCloser;
    for (let j = from + 1; j < text.n; j++) {
      if (text.blank(j)) {
        continue;
      }
      if (text.indent[j] > floor && !closed) {
        bottom = j;
        continue;
      }
      if (text.indent[j] < floor) {
        break;
      }
      if (text.indent[j] > floor) {
        // Deeper lines after a closer belong to whatever comes next.
        break;
      }
      const kind = floorKind(text.trimmed(j));
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
  private headerAbove(top: number): number {
    const { text, floor } = this;
    let k = top - 1;
    while (k >= 0 && !text.blank(k) && text.indent[k] >= floor) {
      const t = text.trimmed(k);
      // The last line of a block comment (` */`, a closing `"""`): the header is the whole comment.
      const end = BLOCK_COMMENT_ENDS.find(
        ([close, open]) => t.endsWith(close) && (t === close || isCommentLine(t)) && !(t.startsWith(open) && t.length >= open.length + close.length),
      );
      if (end) {
        const start = this.blockCommentStart(k, end[1]);
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
      if (floorKind(t) === 'closer' && text.indent[k] === floor) {
        // A multi-line decorator: `@Component({ ... })` above a class.
        const opener = this.climbToOpener(k);
        if (opener < k && isDecorator(text.trimmed(opener))) {
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
  private blockCommentStart(end: number, open: string): number | undefined {
    const stop = Math.max(0, end - INDENT_COMMENT_SCAN_MAX_LINES);
    for (let k = end - 1; k >= stop; k--) {
      if (this.text.trimmed(k).startsWith(open)) {
        return k;
      }
    }
    return undefined;
  }
}

/**
 * What the page is, for the meta line: "the block around line 20", and when `maxLines`
 * cut it, the whole block's lines ("max_lines cut the block around line 20, lines 5-90").
 */
export function describeIndentationBlock(b: IndentationBlock): string {
  const wider = b.wider ? `; max_levels ${b.wider.maxLevels} widens it to lines ${span(b.wider.first, b.wider.last)}` : '';
  if (!b.capped) {
    return `the block around line ${b.anchorLine}${wider}`;
  }
  return `max_lines cut the block around line ${b.anchorLine}, lines ${span(b.blockFirst, b.blockLast)}${wider}`;
}
