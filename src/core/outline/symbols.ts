import { oneLine, span } from '../contract';
import { MAX_OUTLINE_NAME_CHARS, MAX_SYMBOL_DOC_LINES } from '../limits';

/**
 * A file's outline: its symbols as a tree, each with the lines it spans, from whichever
 * source answered (a language server, a syntax tree, headings, or indentation).
 */
export type OutlineSource = 'language server' | 'tree-sitter' | 'headings' | 'indentation';

export interface OutlineSymbol {
  /** `class`, `method`, `function`, `heading 2`, ... as shown. */
  kind: string;
  name: string;
  /** The parameter list as written, whitespace collapsed (`(text)`), when there is one. */
  params?: string;
  /** 1-based, inclusive: the symbol's own first and last lines (its doc comment not included). */
  first: number;
  last: number;
  /** 0-based column (UTF-16 code units) where the symbol starts on line `first`, when the source says (else the line's first). */
  startColumn?: number;
  /** 0-based column just past the symbol's end on line `last`, when the source says (else the line's end). */
  endColumn?: number;
  children: OutlineSymbol[];
  /** The source cannot vouch for the range (a parse error inside or next to it): never edited by it. */
  uncertain?: boolean;
}

export interface Outline {
  source: OutlineSource;
  symbols: OutlineSymbol[];
  /** Lines a parser could not make sense of, when one parsed the file. */
  errors?: readonly { first: number; last: number }[];
  /** Why no parser gave the outline, when it is from indentation (`the parse took over 5 s`). @default no parser for this file type */
  fallback?: string;
  /** The parser's own symbols beside a language server's (an edit checks a range shared with other code against them). */
  syntax?: OutlineSymbol[];
}

/** One line of the outline: a symbol with its depth and the names of the symbols around it. */
export interface FlatSymbol {
  symbol: OutlineSymbol;
  depth: number;
  /** Names from the outermost symbol down to this one (`['Parser', 'parse']`). */
  path: string[];
}

/** Depth first, in file order: the order the outline is shown and paged in. `within`: the path of the symbol whose inside this is. */
export function flatten(symbols: readonly OutlineSymbol[], within: readonly string[] = []): FlatSymbol[] {
  const out: FlatSymbol[] = [];
  const walk = (list: readonly OutlineSymbol[], depth: number, path: string[]) => {
    for (const s of [...list].sort((a, b) => a.first - b.first || b.last - a.last)) {
      const p = [...path, s.name];
      out.push({ symbol: s, depth, path: p });
      walk(s.children, depth + 1, p);
    }
  };
  walk(symbols, 0, [...within]);
  return out;
}

/**
 * A symbol's name or parameter list as an outline keeps it: on one line (whitespace
 * collapsed, control characters escaped as every tool escapes names, see oneLine), and
 * cut at MAX_OUTLINE_NAME_CHARS, never inside an escape or a surrogate pair. A query finds
 * the symbol by this form, the one the outline prints.
 */
export function outlineName(text: string): string {
  const one = oneLine(text.replace(/\s+/g, ' ').trim());
  if (one.length <= MAX_OUTLINE_NAME_CHARS) {
    return one;
  }
  let end = MAX_OUTLINE_NAME_CHARS - 1;
  const esc = /\\(?:x[0-9a-f]{0,1}|u[0-9a-f]{0,3})$/.exec(one.slice(Math.max(0, end - 5), end));
  if (esc) {
    end -= esc[0].length;
  }
  const c = one.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) {
    end--;
  }
  return `${one.slice(0, end)}…`;
}

/** `L120-264 class Parser`, indented two spaces per level. */
export function symbolLine(f: FlatSymbol): string {
  return symbolLineAt(f.symbol, f.depth);
}

/** {@link symbolLine} at a depth of the caller's (the inside of a symbol is outlined from depth 0). */
export function symbolLineAt(s: OutlineSymbol, depth: number): string {
  return `${'  '.repeat(depth)}L${span(s.first, s.last)} ${s.kind} ${s.name}${s.params ?? ''}`;
}

/** The dotted name a later call can pass as `symbol` to get this one. */
export function symbolName(f: FlatSymbol): string {
  return f.path.join('.');
}

/** The comment syntax that may sit above a symbol as its documentation. */
export type DocStyle = 'slash' | 'hash' | 'none';

/** A decorator or annotation alone on its line (`@Override`, `@app.get("/")`): what a declaration below it wears. */
const DECORATOR = /^@[\w.$]+(\s*\(.*\))?\s*$/;

/** Whether nothing but a comment's end and whitespace follows the first `*\/` of a line, or no `*\/` closes it there. */
function closesAlone(t: string): boolean {
  const end = t.indexOf('*/');
  return end < 0 || t.slice(end + 2).trim() === '';
}

/**
 * A line that is all documentation for the declaration below it: a comment, a decorator
 * or an attribute, with no code of its own (`/* init *\/ registerHandlers();` is code).
 */
export function isDocLine(line: string, style: DocStyle): boolean {
  const t = line.trim();
  if (t === '') {
    return false;
  }
  if (DECORATOR.test(t)) {
    return style !== 'none';
  }
  if (style === 'slash') {
    return t.startsWith('//') || ((t.startsWith('/*') || t.startsWith('*')) && closesAlone(t)) || (t.startsWith('#[') && t.endsWith(']')) || (t.startsWith('[') && t.endsWith(']'));
  }
  if (style === 'hash') {
    return t.startsWith('#') && !t.startsWith('#!');
  }
  return false;
}

/**
 * The first line of a symbol with its documentation: the comment, decorator and attribute
 * lines directly above it (no blank line between), at most MAX_SYMBOL_DOC_LINES of them,
 * never reaching into the symbol above (`floor`, the last line that belongs to something else).
 * `lineAt(n)`: the text of line n (1-based).
 */
export function docFirstLine(lineAt: (n: number) => string, first: number, style: DocStyle, floor = 0): number {
  let top = first;
  while (top - 1 > floor && first - (top - 1) <= MAX_SYMBOL_DOC_LINES && isDocLine(lineAt(top - 1), style)) {
    top--;
  }
  // Reaching a block comment's middle lines (`*`) without its opening `/*`: none of that comment is documentation.
  while (top < first && /^\s*\*/.test(lineAt(top))) {
    top++;
  }
  return top;
}

/**
 * The line a symbol's documentation may not climb past: the end of the nearest symbol
 * that ends before it starts, or the line of the symbol that holds it.
 */
export function docFloor(flat: readonly FlatSymbol[], target: OutlineSymbol): number {
  let floor = 0;
  for (const f of flat) {
    const s = f.symbol;
    if (s === target) {
      continue;
    }
    if (s.last < target.first) {
      floor = Math.max(floor, s.last);
    } else if (s.first < target.first && s.last >= target.last) {
      floor = Math.max(floor, s.first);
    }
  }
  return floor;
}
