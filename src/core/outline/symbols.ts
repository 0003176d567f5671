import { span } from '../contract';
import { MAX_SUGGESTIONS, MAX_SYMBOL_DOC_LINES } from '../limits';
import { levenshtein } from '../suggest';

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
  children: OutlineSymbol[];
  /** The source cannot vouch for the range (a parse error inside or next to it): never edited by it. */
  uncertain?: boolean;
}

export interface Outline {
  source: OutlineSource;
  symbols: OutlineSymbol[];
  /** Lines a parser could not make sense of, when one parsed the file. */
  errors?: readonly { first: number; last: number }[];
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

/** `L120-264 class Parser`, indented two spaces per level. */
export function symbolLine(f: FlatSymbol): string {
  const s = f.symbol;
  return `${'  '.repeat(f.depth)}L${span(s.first, s.last)} ${s.kind} ${s.name}${s.params ?? ''}`;
}

/** What `symbol` asks for: dotted names (`Parser.parse`; `::` and `#` work too), the last one optionally with its parameters. */
interface SymbolQuery {
  names: string[];
  params?: string;
}

function squash(s: string): string {
  return s.replace(/\s+/g, '');
}

/** C++'s and Ruby's separators read as dots, as a query's are. */
function normal(name: string): string {
  return name.replace(/::|#/g, '.');
}

export function parseSymbolQuery(text: string): SymbolQuery {
  let rest = text.trim();
  let params: string | undefined;
  const paren = rest.indexOf('(');
  if (paren > 0) {
    params = squash(rest.slice(paren));
    rest = rest.slice(0, paren);
  }
  const names = rest.split(/\.|::|#/).map((n) => n.trim()).filter((n) => n !== '');
  return { names, params };
}

export type SymbolLookup =
  | { kind: 'found'; symbol: FlatSymbol }
  | { kind: 'ambiguous'; candidates: FlatSymbol[] }
  | { kind: 'missing'; suggestions: FlatSymbol[] };

/**
 * The symbol a query names: the last name is the symbol's, the ones before it name the
 * symbols that hold it, innermost last (`Parser.parse` is a `parse` directly inside a
 * `Parser`; a leading part of the path may be left out). Parameters, when given, pick one
 * of several overloads.
 */
export function findSymbol(outline: Outline, query: string): SymbolLookup {
  const q = parseSymbolQuery(query);
  const flat = flatten(outline.symbols);
  if (q.names.length === 0) {
    return { kind: 'missing', suggestions: [] };
  }
  const wanted = q.names.join('.');
  const whole = query.trim();
  const endsWith = (path: string[]) => {
    const p = path.map(normal).join('.');
    return p === wanted || p.endsWith(`.${wanted}`);
  };
  // a name may hold dots itself (a heading `v1.2`): the whole query as one name counts first
  let hits = flat.filter((f) => f.symbol.name === whole);
  if (hits.length === 0) {
    hits = flat.filter((f) => endsWith(f.path));
  }
  if (hits.length > 1 && hits.some((f) => f.symbol.kind !== 'declaration')) {
    // a C prototype and its definition: the definition is the symbol
    hits = hits.filter((f) => f.symbol.kind !== 'declaration');
  }
  if (hits.length > 1 && q.params !== undefined) {
    const same = hits.filter((f) => f.symbol.params !== undefined && squash(f.symbol.params) === q.params);
    hits = same.length > 0 ? same : hits;
  }
  if (hits.length === 1) {
    return { kind: 'found', symbol: hits[0] };
  }
  if (hits.length > 1) {
    return { kind: 'ambiguous', candidates: hits };
  }
  const lower = wanted.toLowerCase();
  const last = q.names[q.names.length - 1].toLowerCase();
  const scored = flat
    .map((f) => {
      const name = f.symbol.name.toLowerCase();
      const path = f.path.map(normal).join('.').toLowerCase();
      // a name that holds the one asked for (or is held by it) comes after a near-miss spelling
      const d = Math.min(levenshtein(last, name), levenshtein(lower, path), name.includes(last) || last.includes(name) ? 2 : Infinity);
      return { f, d };
    })
    .filter((x) => x.d <= Math.max(2, Math.floor(last.length / 3)))
    .sort((a, b) => a.d - b.d || a.f.symbol.first - b.f.symbol.first);
  return { kind: 'missing', suggestions: scored.slice(0, MAX_SUGGESTIONS).map((x) => x.f) };
}

/** The dotted name a later call can pass as `symbol` to get this one. */
export function symbolName(f: FlatSymbol): string {
  return f.path.join('.');
}

/** The comment syntax that may sit above a symbol as its documentation. */
export type DocStyle = 'slash' | 'hash' | 'none';

/** A comment, decorator or attribute line: what documents the declaration below it. */
export function isDocLine(line: string, style: DocStyle): boolean {
  const t = line.trim();
  if (t === '') {
    return false;
  }
  if (style === 'slash') {
    // comments, and decorators or attributes that belong to the declaration below
    return t.startsWith('//') || t.startsWith('/*') || t.startsWith('*') || t.startsWith('@') || t.startsWith('#[') || (t.startsWith('[') && t.endsWith(']'));
  }
  if (style === 'hash') {
    return (t.startsWith('#') && !t.startsWith('#!')) || t.startsWith('@');
  }
  return false;
}

/**
 * The first line of a symbol with its documentation: the comment, decorator and attribute
 * lines directly above it (no blank line between), at most MAX_SYMBOL_DOC_LINES of them,
 * never reaching into the symbol above (`floor`, the last line that belongs to something else).
 */
export function docFirstLine(lines: readonly string[], first: number, style: DocStyle, floor = 0): number {
  let top = first;
  while (top - 1 > floor && first - (top - 1) <= MAX_SYMBOL_DOC_LINES && isDocLine(lines[top - 2] ?? '', style)) {
    top--;
  }
  // Reaching a block comment's middle lines (`*`) without its opening `/*`: none of that comment is documentation.
  while (top < first && /^\s*\*/.test(lines[top - 1])) {
    top++;
  }
  return top;
}

/**
 * The line a symbol's documentation may not climb past: the end of the nearest symbol
 * that ends before it starts, or the line of the symbol that holds it.
 */
export function docFloor(outline: Outline, target: OutlineSymbol): number {
  let floor = 0;
  for (const f of flatten(outline.symbols)) {
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

/**
 * Why the lines of a symbol cannot be replaced whole, when they cannot: the source is
 * unsure of the range, or another symbol that is neither inside nor around it shares
 * one of its lines (replacing the lines would change that one too).
 */
export function replaceRefusal(outline: Outline, target: FlatSymbol, first: number): string | undefined {
  const s = target.symbol;
  if (outline.source === 'indentation') {
    return 'its range was guessed from indentation (no language server or parser knows this file type)';
  }
  if (s.uncertain || outline.errors?.some((e) => e.first <= s.last + 1 && e.last >= first - 1)) {
    return 'the file does not parse cleanly around it';
  }
  for (const f of flatten(outline.symbols)) {
    const o = f.symbol;
    const nested = (o.first >= s.first && o.last <= s.last) || (o.first <= s.first && o.last >= s.last);
    if (o !== s && !nested && o.first <= s.last && o.last >= first) {
      return `lines ${span(first, s.last)} also hold ${o.kind} ${o.name} (L${span(o.first, o.last)})`;
    }
  }
  return undefined;
}
