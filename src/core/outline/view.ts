import type { CancelSignal } from '../cancel';
import { MAX_SUGGESTIONS, MAX_SYMBOL_SUGGEST_CELLS } from '../limits';
import { drain, paced } from '../pace';
import { levenshteinWithin } from '../suggest';
import type { FlatSymbol, Outline, OutlineSymbol } from './symbols';

/**
 * An outline made ready to be looked up and paged, once per outline: its symbols in the
 * order they are shown, how many each holds, and the symbols by the end of their names
 * (what follows the last dot: the name a query ends with). Built by a loop that gives the
 * thread back every slice (see {@link viewOf}), so an outline of hundreds of thousands of
 * symbols never holds the extension host; every lookup after it costs the symbols that
 * carry the name asked for, never a pass over the whole outline.
 */
export interface OutlineView {
  outline: Outline;
  /** Depth first, in file order: the order the outline is shown and paged in. */
  flat: FlatSymbol[];
  /** Where each symbol stands in {@link flat}. */
  at: Map<OutlineSymbol, number>;
  /** For each entry of {@link flat}: the symbols it holds, at every depth below it (they follow it in `flat`). */
  inside: Int32Array;
  /** For each entry of {@link flat}: the position of the symbol that holds it, -1 at the top. */
  parent: Int32Array;
  /** Positions in {@link flat} by what follows the last dot of the symbol's path read as a query reads it. */
  byTail: Map<string, number | number[]>;
  /** Paths as a query reads them (`::` and `#` as dots), made when first asked for (see keyOf). */
  keys: (string | undefined)[];
}

/** Positions by a key: one position, or several (most keys are carried once: no list is made for them). */
function positions(index: Map<string, number | number[]>, key: string): number[] {
  const v = index.get(key);
  return v === undefined ? [] : typeof v === 'number' ? [v] : v;
}

/** An entry of the view: its path is made when asked for (a name to print), not for every symbol. */
class Entry implements FlatSymbol {
  constructor(
    readonly symbol: OutlineSymbol,
    readonly depth: number,
    private readonly parent: Entry | undefined,
  ) {}

  get path(): string[] {
    return this.parent ? [...this.parent.path, this.symbol.name] : [this.symbol.name];
  }
}

/** C++'s and Ruby's separators read as dots, as a query's are. */
export function normalName(name: string): string {
  return name.replace(/::|#/g, '.');
}

export function squash(s: string): string {
  return s.replace(/\s+/g, '');
}

function tailOf(key: string): string {
  return key.slice(key.lastIndexOf('.') + 1);
}

/** The path of entry `i` as a query reads it (`Parser.parse`, `text.Parser.count` for `text` > `Parser::count`). */
export function keyOf(v: OutlineView, i: number): string {
  let k = v.keys[i];
  if (k === undefined) {
    const own = normalName(v.flat[i].symbol.name);
    k = v.parent[i] < 0 ? own : `${keyOf(v, v.parent[i])}.${own}`;
    v.keys[i] = k;
  }
  return k;
}

function push(index: Map<string, number | number[]>, key: string, i: number): void {
  const v = index.get(key);
  if (v === undefined) {
    index.set(key, i);
  } else if (typeof v === 'number') {
    index.set(key, [v, i]);
  } else {
    v.push(i);
  }
}

/** Whether a list of sibling symbols is already in file order (a parser's always is). */
function inOrder(list: readonly OutlineSymbol[]): boolean {
  for (let i = 1; i < list.length; i++) {
    if (list[i - 1].first > list[i].first || (list[i - 1].first === list[i].first && list[i - 1].last < list[i].last)) {
      return false;
    }
  }
  return true;
}

/** Places a query is tried as a path and its parameters (at its first parentheses): a name holds a few at most. */
const MAX_PAREN_SPLITS = 8;

/** Steps of a loop between two looks at the clock. */
const STEPS_PER_LOOK = 512;

/**
 * Builds the view, yielding now and then (each `yield` is a point where the thread may be
 * given back): driven to its end at once by {@link viewNow}, or in slices by {@link viewOf}.
 */
function* build(outline: Outline): Generator<void, OutlineView> {
  const flat: Entry[] = [];
  const parents: number[] = [];
  const at = new Map<OutlineSymbol, number>();
  const byTail = new Map<string, number | number[]>();
  const sorted = (list: readonly OutlineSymbol[]) => (inOrder(list) ? list : [...list].sort((a, b) => a.first - b.first || b.last - a.last));
  // depth first without recursion: a stack of the lists still to walk, with where each stands
  const stack: { list: readonly OutlineSymbol[]; i: number; parent: number }[] = [{ list: sorted(outline.symbols), i: 0, parent: -1 }];
  let steps = 0;
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.i >= top.list.length) {
      stack.pop();
      continue;
    }
    const s = top.list[top.i++];
    const i = flat.length;
    flat.push(new Entry(s, stack.length - 1, top.parent < 0 ? undefined : flat[top.parent]));
    parents.push(top.parent);
    at.set(s, i);
    // what follows the last dot of the path lies in the symbol's own name
    push(byTail, tailOf(normalName(s.name)), i);
    if (s.children.length > 0) {
      stack.push({ list: sorted(s.children), i: 0, parent: i });
    }
    if (++steps % STEPS_PER_LOOK === 0) {
      yield;
    }
  }
  // what each holds: the entries after it that are deeper, counted from the end with a stack of open ones
  const inside = new Int32Array(flat.length);
  const open: number[] = [];
  for (let i = flat.length - 1; i >= 0; i--) {
    const d = flat[i].depth;
    let n = 0;
    while (open.length > 0 && flat[open[open.length - 1]].depth > d) {
      const j = open.pop()!;
      n += 1 + inside[j];
    }
    inside[i] = n;
    open.push(i);
    if (i % STEPS_PER_LOOK === 0) {
      yield;
    }
  }
  return { outline, flat, at, inside, parent: Int32Array.from(parents), byTail, keys: new Array<string | undefined>(flat.length) };
}

const views = new WeakMap<Outline, OutlineView>();

/** The view of a small outline, built at once (tests, and outlines already viewed). */
export function viewNow(outline: Outline): OutlineView {
  let v = views.get(outline);
  if (!v) {
    v = drain(build(outline));
    views.set(outline, v);
  }
  return v;
}

/** The view of an outline, built in slices that give the thread back; cached for the outline's life. */
export async function viewOf(outline: Outline, signal?: CancelSignal): Promise<OutlineView> {
  let v = views.get(outline);
  if (!v) {
    v = await paced(build(outline), signal);
    views.set(outline, v);
  }
  return v;
}

/** What `symbol` asks for: dotted names (`Parser.parse`; `::` and `#` work too), the last one optionally with its parameters. */
export interface SymbolQuery {
  names: string[];
  params?: string;
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

export type SymbolLookup = { kind: 'found'; symbol: FlatSymbol } | { kind: 'ambiguous'; candidates: FlatSymbol[] } | { kind: 'missing' };

/** The entries whose path ends with the dotted `wanted` (the whole path, or its end after a dot). */
function endingWith(v: OutlineView, wanted: string): number[] {
  return positions(v.byTail, tailOf(wanted)).filter((i) => {
    const k = keyOf(v, i);
    return k === wanted || k.endsWith(`.${wanted}`);
  });
}

/** The entries whose whole path is `path` as written (`::`, `#` read as dots), with `params` (squashed) when given. */
function wholePath(v: OutlineView, path: string, params: string | undefined): number[] {
  const key = normalName(path);
  return positions(v.byTail, tailOf(key)).filter((i) => keyOf(v, i) === key && (params === undefined || squash(v.flat[i].symbol.params ?? '') === params));
}

/**
 * The symbol a query names: the last name is the symbol's, the ones before it name the
 * symbols that hold it, innermost last (`Parser.parse` is a `parse` directly inside a
 * `Parser`; a leading part of the path may be left out). Parameters, when given, pick one
 * of several overloads. A name may hold dots, `::` or parentheses itself (a heading
 * `v1.2`, a method named by a string `"get("`): the query as written is tried as one name,
 * then as a whole path (with the parameters after it), then as a path's end, before it is
 * read as names and parameters. So the name an outline prints for a symbol finds it.
 * Each step costs the symbols that carry the last name asked for.
 */
export function lookupSymbol(v: OutlineView, query: string): SymbolLookup {
  const q = parseSymbolQuery(query);
  const whole = query.trim();
  if (whole === '') {
    return { kind: 'missing' };
  }
  const named = positions(v.byTail, tailOf(normalName(whole))).filter((i) => v.flat[i].symbol.name === whole);
  // the whole path, its parameters after it (split at each of its first "(", as a name may hold one)
  let pathed = wholePath(v, whole, undefined);
  for (let p = whole.indexOf('('), n = 0; p > 0 && n < MAX_PAREN_SPLITS; p = whole.indexOf('(', p + 1), n++) {
    pathed.push(...wholePath(v, whole.slice(0, p), squash(whole.slice(p))));
  }
  pathed = [...new Set(pathed)];
  if (pathed.length > 1) {
    // `a.#` and `a..` read alike once `#` is a dot: the one spelled as asked is the one meant
    const spelled = pathed.filter((i) => {
      const name = v.flat[i].path.join('.');
      return name === whole || name + (v.flat[i].symbol.params ?? '') === whole;
    });
    pathed = spelled.length > 0 ? spelled : pathed;
  }
  // the name as written, narrowed to the symbol whose whole path it is when several carry it;
  // one symbol named `a.b` and another whose path spells it (method b of a) are both meant: listed, not picked
  let hits =
    named.length === 0
      ? pathed
      : named.length > 1 && pathed.some((i) => named.includes(i))
        ? pathed.filter((i) => named.includes(i))
        : [...new Set([...named, ...pathed])];
  if (hits.length === 0 && whole.includes('(')) {
    hits = endingWith(v, normalName(whole));
  }
  let params = q.params;
  if (hits.length === 0 && q.names.length > 0) {
    hits = endingWith(v, q.names.join('.'));
  } else {
    params = undefined;
  }
  let found = hits.map((i) => v.flat[i]);
  if (found.length > 1 && found.some((f) => f.symbol.kind !== 'declaration')) {
    // a C prototype and its definition: the definition is the symbol
    found = found.filter((f) => f.symbol.kind !== 'declaration');
  }
  if (found.length > 1 && params !== undefined) {
    const same = found.filter((f) => f.symbol.params !== undefined && squash(f.symbol.params) === params);
    found = same.length > 0 ? same : found;
  }
  if (found.length === 1) {
    return { kind: 'found', symbol: found[0] };
  }
  return found.length > 1 ? { kind: 'ambiguous', candidates: found } : { kind: 'missing' };
}

/**
 * The symbols whose names come closest to a query that named none: a near-miss spelling
 * of the last name or of the whole path, then names that hold the one asked for (or are
 * held by it). Bounded: the edit distances are computed only within the distance that
 * could still make the list (see levenshteinWithin), and no more than
 * MAX_SYMBOL_SUGGEST_CELLS steps of them in all; yields as {@link build} does.
 */
export function* closestSymbols(v: OutlineView, query: string, maxCells = MAX_SYMBOL_SUGGEST_CELLS): Generator<void, FlatSymbol[]> {
  const q = parseSymbolQuery(query);
  if (q.names.length === 0) {
    return [];
  }
  const lower = q.names.join('.').toLowerCase();
  const last = q.names[q.names.length - 1].toLowerCase();
  const limit = Math.max(2, Math.floor(last.length / 3));
  const best: { i: number; d: number }[] = [];
  const work = { cells: 0 };
  for (let i = 0; i < v.flat.length && work.cells < maxCells; i++) {
    const s = v.flat[i].symbol;
    // past the worst of a full list only a better distance counts
    const max = best.length === MAX_SUGGESTIONS ? Math.min(limit, best[best.length - 1].d) : limit;
    const name = s.name.toLowerCase();
    let d = name.includes(last) || last.includes(name) ? 2 : max + 1;
    if (d > 0) {
      d = Math.min(d, levenshteinWithin(last, name, Math.min(max, d), work));
    }
    // a symbol at the top asked for by one name: its path is its name, measured above
    if (d > 0 && !(v.parent[i] < 0 && q.names.length === 1 && normalName(s.name) === s.name)) {
      d = Math.min(d, levenshteinWithin(lower, keyOf(v, i).toLowerCase(), Math.min(max, d), work));
    }
    if (d <= max) {
      const at = best.findIndex((b) => d < b.d || (d === b.d && s.first < v.flat[b.i].symbol.first));
      best.splice(at < 0 ? best.length : at, 0, { i, d });
      best.length = Math.min(best.length, MAX_SUGGESTIONS);
    }
    if (i % STEPS_PER_LOOK === 0) {
      yield;
    }
  }
  return best.map((b) => v.flat[b.i]);
}

/** {@link closestSymbols} at once (a small outline). */
export function closestNow(v: OutlineView, query: string): FlatSymbol[] {
  return drain(closestSymbols(v, query));
}

export type SymbolSearch = { kind: 'found'; symbol: FlatSymbol } | { kind: 'ambiguous'; candidates: FlatSymbol[] } | { kind: 'missing'; suggestions: FlatSymbol[] };

/** The symbol a query names (see {@link lookupSymbol}), or the closest names when none fits: in slices. */
export async function searchSymbol(outline: Outline, query: string, signal?: CancelSignal): Promise<SymbolSearch> {
  const v = await viewOf(outline, signal);
  const r = lookupSymbol(v, query);
  return r.kind === 'missing' ? { kind: 'missing', suggestions: await paced(closestSymbols(v, query), signal) } : r;
}

/** {@link searchSymbol} at once, for a small outline. */
export function findSymbol(outline: Outline, query: string): SymbolSearch {
  const v = viewNow(outline);
  const r = lookupSymbol(v, query);
  return r.kind === 'missing' ? { kind: 'missing', suggestions: closestNow(v, query) } : r;
}
