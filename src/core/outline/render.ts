import type { CancelSignal } from '../cancel';
import { continueLine, span } from '../contract';
import { MAX_OUTLINE_INSIDE_TRIES, MAX_OUTLINE_PAGE_BYTES, MAX_READ_BYTES } from '../limits';
import { symbolLineAt, symbolName, type FlatSymbol, type Outline } from './symbols';
import { paced } from '../pace';
import { lookupSymbol, viewNow, viewOf, type OutlineView } from './view';

export interface OutlinePage {
  displayPath: string;
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
  /** The fs_read call for the outline from symbol `offset` on. */
  nextCall(offset: number): string;
  /** The fs_read call that outlines the inside of the symbol `query` names. */
  insideCall(query: string): string;
}

/** What the meta line says the outline came from. */
export function sourceWords(o: Outline): string {
  switch (o.source) {
    case 'language server':
      return 'from the language server';
    case 'tree-sitter':
      return 'from the syntax tree (tree-sitter)';
    case 'headings':
      return 'from the headings';
    case 'indentation':
      return `from indentation (${o.fallback ?? 'no parser for this file type'}; ranges are guesses)`;
  }
}

export class OutlineOffsetPastEnd extends Error {
  constructor(readonly offset: number, readonly count: number) {
    super(`offset ${offset} is past the outline's ${count} symbols`);
  }
}

function insideNote(n: number): string {
  return ` (${n} inside)`;
}

/**
 * What every page of one outline (or of the inside of one symbol) shares: the entries of
 * the view it shows, the levels shown, and the call that goes deeper. Computed once per
 * call, in slices (see viewOf), so a page then costs only its own lines.
 */
export interface OutlinePlan {
  view: OutlineView;
  within?: FlatSymbol;
  /** Positions in view.flat of the symbols shown, in order. */
  rows: number[];
  /** Depth in view.flat of the first level shown. */
  base: number;
  /** Levels shown, and levels there are. */
  levels: number;
  deepest: number;
  /** Symbols in all (below `within`, when given). */
  total: number;
  /** The name that outlines the inside of the largest collapsed symbol, when one is unique. */
  insideQuery?: string;
}

/**
 * The levels of the tree shown: all of them when they fit MAX_OUTLINE_PAGE_BYTES, else
 * the deepest cut that fits (the symbols at the last level shown saying how many they
 * hold), else the top level alone, paged. It depends on the whole outline only, never on
 * the page, so every page of one outline cuts at the same level.
 */
function* plan(v: OutlineView, within: FlatSymbol | undefined): Generator<void, OutlinePlan> {
  const from = within ? v.at.get(within.symbol)! + 1 : 0;
  const to = within ? from + v.inside[from - 1] : v.flat.length;
  const base = within ? within.depth + 1 : 0;
  const plain: number[] = [];
  const noted: number[] = [];
  for (let i = from; i < to; i++) {
    const d = v.flat[i].depth - base;
    const n = v.inside[i];
    plain[d] = (plain[d] ?? 0) + Buffer.byteLength(symbolLineAt(v.flat[i].symbol, d), 'utf8') + 1;
    noted[d] = (noted[d] ?? 0) + (n > 0 ? Buffer.byteLength(insideNote(n), 'utf8') : 0);
    if (i % 512 === 0) {
      yield;
    }
  }
  const deepest = plain.length;
  let bytes = 0;
  let levels = 1;
  for (let d = 1; d <= deepest; d++) {
    bytes += plain[d - 1];
    if (bytes + (d < deepest ? noted[d - 1] : 0) > MAX_OUTLINE_PAGE_BYTES) {
      break;
    }
    levels = d;
  }
  const rows: number[] = [];
  // the collapsed symbols that hold the most, largest first: the candidates for the call that goes deeper
  const largest: number[] = [];
  const bigger = (a: number, b: number) => v.inside[a] > v.inside[b] || (v.inside[a] === v.inside[b] && v.flat[a].symbol.first < v.flat[b].symbol.first);
  for (let i = from; i < to; i++) {
    const d = v.flat[i].depth - base;
    if (d < levels) {
      rows.push(i);
    }
    if (levels < deepest && d === levels - 1 && v.inside[i] > 0 && (largest.length < MAX_OUTLINE_INSIDE_TRIES || bigger(i, largest[largest.length - 1]))) {
      const at = largest.findIndex((j) => bigger(i, j));
      largest.splice(at < 0 ? largest.length : at, 0, i);
      largest.length = Math.min(largest.length, MAX_OUTLINE_INSIDE_TRIES);
    }
    if (i % 512 === 0) {
      yield;
    }
  }
  return { view: v, within, rows, base, levels, deepest, total: to - from, insideQuery: insideQuery(v, largest) };
}

/**
 * The name to pass as `symbol` to outline the inside of one collapsed symbol: the one that
 * holds the most, among those a name (with its parameters if need be) picks out alone.
 */
function insideQuery(v: OutlineView, largest: readonly number[]): string | undefined {
  for (const i of largest) {
    const f = v.flat[i];
    for (const q of [symbolName(f), `${symbolName(f)}${f.symbol.params ?? ''}`]) {
      const hit = lookupSymbol(v, q);
      if (hit.kind === 'found' && hit.symbol.symbol === f.symbol) {
        return q;
      }
    }
  }
  return undefined;
}

/** The plan of an outline's pages (of the inside of `within`, when given), built in slices. */
export async function planOutline(outline: Outline, within: FlatSymbol | undefined, signal?: CancelSignal): Promise<OutlinePlan> {
  return paced(plan(await viewOf(outline, signal), within), signal);
}

/** {@link planOutline} at once, for a small outline. */
export function planOutlineNow(outline: Outline, within?: FlatSymbol): OutlinePlan {
  const g = plan(viewNow(outline), within);
  for (;;) {
    const r = g.next();
    if (r.done) {
      return r.value;
    }
  }
}

/**
 * A page of the outline in fs_read's envelope: one line per symbol, nested by two spaces,
 * each with the lines it spans, down to the level that fits a small page (see
 * levelsShown); then `End of outline.` or the one call that goes on: the next page when
 * the levels shown continue, else the outline inside the largest collapsed symbol.
 */
export function renderOutline(p: OutlinePage, pl: OutlinePlan): { text: string; shown: number } {
  const v = pl.view;
  const cut = pl.levels < pl.deepest;
  const count = pl.rows.length;
  if (count > 0 && p.offset > count) {
    throw new OutlineOffsetPastEnd(p.offset, count);
  }
  const first = Math.min(p.offset, Math.max(count, 1));
  // the first answer stays small; a page asked for by offset or limit is a full page
  const cap = p.limitGiven || p.offset > 1 ? MAX_READ_BYTES : MAX_OUTLINE_PAGE_BYTES;
  const rendered: string[] = [];
  let bytes = 0;
  for (let k = first - 1; k < count && rendered.length < p.limit; k++) {
    const i = pl.rows[k];
    const d = v.flat[i].depth - pl.base;
    const n = v.inside[i];
    const line = symbolLineAt(v.flat[i].symbol, d) + (cut && d === pl.levels - 1 && n > 0 ? insideNote(n) : '');
    const b = Buffer.byteLength(line, 'utf8') + 1;
    if (rendered.length > 0 && bytes + b > cap) {
      break;
    }
    rendered.push(line);
    bytes += b;
  }
  const last = first + rendered.length - 1;
  let symbols = count === 0 ? 'no symbols' : `symbols ${span(first, last)} of ${count}`;
  if (pl.within) {
    const w = pl.within.symbol;
    symbols += ` inside ${w.kind} ${symbolName(pl.within)} (L${span(w.first, w.last)})`;
  }
  const meta = [symbols];
  if (cut) {
    meta.push(`${pl.levels === 1 ? 'level 1' : `levels 1-${pl.levels}`} of ${pl.deepest}, ${pl.total} symbols in all`);
  }
  meta.push(sourceWords(v.outline), `${p.totalLines} lines`, p.encoding);
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
    out.push(pl.insideQuery === undefined ? 'End of outline.' : continueLine(p.insideCall(pl.insideQuery)));
  } else {
    out.push('End of outline.');
  }
  return { text: out.join('\n'), shown: rendered.length };
}
