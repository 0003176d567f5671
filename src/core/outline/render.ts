import { continueLine, span } from '../contract';
import { MAX_OUTLINE_INSIDE_TRIES, MAX_OUTLINE_PAGE_BYTES, MAX_READ_BYTES } from '../limits';
import { findSymbol, flatten, symbolLine, symbolName, type FlatSymbol, type Outline, type OutlineSymbol } from './symbols';

export interface OutlinePage {
  displayPath: string;
  outline: Outline;
  /** Lines of the file the outline is of. */
  totalLines: number;
  encoding: string;
  eol: string;
  version: string;
  dirty: boolean;
  /** 1-based: the first symbol to show. */
  offset: number;
  /** Symbols shown at most. */
  limit: number;
  /** The caller gave `limit`: the page may then fill MAX_READ_BYTES rather than MAX_OUTLINE_PAGE_BYTES (as any page after the first does). */
  limitGiven: boolean;
  /** The symbol whose inside is outlined (`symbol` with mode "outline"), when one is. */
  within?: FlatSymbol;
  /** The fs_read call for the outline from symbol `offset` on. */
  nextCall(offset: number): string;
  /** The fs_read call that outlines the inside of the symbol `query` names. */
  insideCall(query: string): string;
}

/** What the meta line says the outline came from. */
const SOURCE_WORDS: Readonly<Record<Outline['source'], string>> = {
  'language server': 'from the language server',
  'tree-sitter': 'from the syntax tree (tree-sitter)',
  headings: 'from the headings',
  indentation: 'from indentation (no parser for this file type; ranges are guesses)',
};

export class OutlineOffsetPastEnd extends Error {
  constructor(readonly offset: number, readonly count: number) {
    super(`offset ${offset} is past the outline's ${count} symbols`);
  }
}

/** How many symbols each one holds, at every depth below it. */
function countInside(symbols: readonly OutlineSymbol[], into: Map<OutlineSymbol, number>): number {
  let n = 0;
  for (const s of symbols) {
    const inside = countInside(s.children, into);
    into.set(s, inside);
    n += 1 + inside;
  }
  return n;
}

function insideNote(n: number): string {
  return ` (${n} inside)`;
}

/**
 * The levels of the tree shown: all of them when they fit MAX_OUTLINE_PAGE_BYTES, else
 * the deepest cut that fits (the symbols at the last level shown saying how many they
 * hold), else the top level alone, paged. It depends on the whole outline only, never on
 * the page, so every page of one outline cuts at the same level.
 */
function levelsShown(flat: readonly FlatSymbol[], inside: ReadonlyMap<OutlineSymbol, number>): { shown: number; levels: number } {
  const plain: number[] = [];
  const noted: number[] = [];
  for (const f of flat) {
    const b = Buffer.byteLength(symbolLine(f), 'utf8') + 1;
    const n = inside.get(f.symbol) ?? 0;
    plain[f.depth] = (plain[f.depth] ?? 0) + b;
    noted[f.depth] = (noted[f.depth] ?? 0) + (n > 0 ? Buffer.byteLength(insideNote(n), 'utf8') : 0);
  }
  const levels = plain.length;
  let bytes = 0;
  let shown = 1;
  for (let d = 1; d <= levels; d++) {
    bytes += plain[d - 1];
    if (bytes + (d < levels ? noted[d - 1] : 0) > MAX_OUTLINE_PAGE_BYTES) {
      break;
    }
    shown = d;
  }
  return { shown, levels };
}

/**
 * The name to pass as `symbol` to outline the inside of one collapsed symbol: the one that
 * holds the most, among those a name (with its parameters if need be) picks out alone.
 */
function insideQuery(outline: Outline, collapsed: readonly FlatSymbol[], inside: ReadonlyMap<OutlineSymbol, number>): string | undefined {
  const ranked = [...collapsed].sort((a, b) => (inside.get(b.symbol) ?? 0) - (inside.get(a.symbol) ?? 0) || a.symbol.first - b.symbol.first);
  for (const f of ranked.slice(0, MAX_OUTLINE_INSIDE_TRIES)) {
    for (const q of [symbolName(f), `${symbolName(f)}${f.symbol.params ?? ''}`]) {
      const hit = findSymbol(outline, q);
      if (hit.kind === 'found' && hit.symbol.symbol === f.symbol) {
        return q;
      }
    }
  }
  return undefined;
}

/**
 * A page of the outline in fs_read's envelope: one line per symbol, nested by two spaces,
 * each with the lines it spans, down to the level that fits a small page (see
 * levelsShown); then `End of outline.` or the one call that goes on: the next page when
 * the levels shown continue, else the outline inside the largest collapsed symbol.
 */
export function renderOutline(p: OutlinePage): { text: string; shown: number } {
  const roots = p.within ? p.within.symbol.children : p.outline.symbols;
  const all = flatten(roots, p.within?.path);
  const inside = new Map<OutlineSymbol, number>();
  const total = countInside(roots, inside);
  const { shown: levels, levels: deepest } = levelsShown(all, inside);
  const cut = levels < deepest;
  const visible = cut ? all.filter((f) => f.depth < levels) : all;
  const count = visible.length;
  if (count > 0 && p.offset > count) {
    throw new OutlineOffsetPastEnd(p.offset, count);
  }
  const first = Math.min(p.offset, Math.max(count, 1));
  // the first answer stays small; a page asked for by offset or limit is a full page
  const cap = p.limitGiven || p.offset > 1 ? MAX_READ_BYTES : MAX_OUTLINE_PAGE_BYTES;
  const rendered: string[] = [];
  let bytes = 0;
  for (let i = first - 1; i < count && rendered.length < p.limit; i++) {
    const f = visible[i];
    const n = inside.get(f.symbol) ?? 0;
    const line = symbolLine(f) + (cut && f.depth === levels - 1 && n > 0 ? insideNote(n) : '');
    const b = Buffer.byteLength(line, 'utf8') + 1;
    if (rendered.length > 0 && bytes + b > cap) {
      break;
    }
    rendered.push(line);
    bytes += b;
  }
  const last = first + rendered.length - 1;
  let symbols = count === 0 ? 'no symbols' : `symbols ${span(first, last)} of ${count}`;
  if (p.within) {
    const w = p.within.symbol;
    symbols += ` inside ${w.kind} ${symbolName(p.within)} (L${span(w.first, w.last)})`;
  }
  const meta = [symbols];
  if (cut) {
    meta.push(`${levels === 1 ? 'level 1' : `levels 1-${levels}`} of ${deepest}, ${total} symbols in all`);
  }
  meta.push(SOURCE_WORDS[p.outline.source], `${p.totalLines} lines`, p.encoding);
  if (p.eol !== 'none') {
    meta.push(p.eol);
  }
  meta.push(`version ${p.version}`);
  if (p.dirty) {
    meta.push('unsaved changes in editor');
  }
  const out = [`<path>${p.displayPath}</path>`, '<type>outline</type>', `<meta>${meta.join(', ')}</meta>`, '<outline>', ...rendered, '</outline>'];
  if (cut) {
    out.push('Deeper symbols are counted in "(N inside)"; to list those inside one, pass its name as "symbol" with mode "outline".');
  }
  if (last < count) {
    out.push(continueLine(p.nextCall(last + 1)));
  } else if (cut) {
    const q = insideQuery(p.outline, visible.filter((f) => f.depth === levels - 1 && (inside.get(f.symbol) ?? 0) > 0), inside);
    out.push(q === undefined ? 'End of outline.' : continueLine(p.insideCall(q)));
  } else {
    out.push('End of outline.');
  }
  return { text: out.join('\n'), shown: rendered.length };
}
