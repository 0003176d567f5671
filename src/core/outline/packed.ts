import type { OutlineSymbol } from './symbols';

/**
 * An outline as the parse thread sends it: numbers in one typed array (moved, not copied,
 * to the thread that asked) and the names in one string. A tree of hundreds of thousands
 * of objects would be copied object by object on arrival, holding the receiving thread
 * (the extension host) for seconds; this arrives at once, and {@link unpack} rebuilds the
 * tree in steps that can give the thread back.
 *
 *   ints    := per symbol, depth first in the tree's order: depth, kind, first, last,
 *              startColumn, endColumn (-1: none), flags (1: uncertain)
 *   kinds   := the kind words, indexed by `kind`
 *   strings := per symbol: name "\0" (params | "\u0001") "\0"
 *
 * Names and parameter lists hold no control characters (see outlineName), so the
 * separators cannot occur in them.
 */
export interface PackedOutline {
  ints: Int32Array;
  kinds: string[];
  strings: string;
}

const FIELDS = 7;
const NO_PARAMS = '\u0001';

export function pack(symbols: readonly OutlineSymbol[]): PackedOutline {
  const rows: number[] = [];
  const kinds: string[] = [];
  const kindIndex = new Map<string, number>();
  const strings: string[] = [];
  const walk = (list: readonly OutlineSymbol[], depth: number) => {
    for (const s of list) {
      let k = kindIndex.get(s.kind);
      if (k === undefined) {
        k = kinds.length;
        kinds.push(s.kind);
        kindIndex.set(s.kind, k);
      }
      rows.push(depth, k, s.first, s.last, s.startColumn ?? -1, s.endColumn ?? -1, s.uncertain ? 1 : 0);
      strings.push(s.name, s.params ?? NO_PARAMS);
      walk(s.children, depth + 1);
    }
  };
  walk(symbols, 0);
  return { ints: Int32Array.from(rows), kinds, strings: strings.length > 0 ? `${strings.join('\0')}\0` : '' };
}

/** The tree again, yielding every few hundred symbols (drive it with `paced`). */
export function* unpack(p: PackedOutline): Generator<void, OutlineSymbol[]> {
  const roots: OutlineSymbol[] = [];
  const open: OutlineSymbol[] = [];
  let at = 0;
  const next = () => {
    const end = p.strings.indexOf('\0', at);
    const s = p.strings.slice(at, end);
    at = end + 1;
    return s;
  };
  const count = p.ints.length / FIELDS;
  for (let i = 0; i < count; i++) {
    const o = i * FIELDS;
    const depth = p.ints[o];
    const name = next();
    const params = next();
    const s: OutlineSymbol = { kind: p.kinds[p.ints[o + 1]], name, first: p.ints[o + 2], last: p.ints[o + 3], children: [] };
    if (params !== NO_PARAMS) {
      s.params = params;
    }
    if (p.ints[o + 4] >= 0) {
      s.startColumn = p.ints[o + 4];
    }
    if (p.ints[o + 5] >= 0) {
      s.endColumn = p.ints[o + 5];
    }
    if (p.ints[o + 6] & 1) {
      s.uncertain = true;
    }
    open.length = depth;
    (depth === 0 ? roots : open[depth - 1].children).push(s);
    open.push(s);
    if (i % 512 === 511) {
      yield;
    }
  }
  return roots;
}
