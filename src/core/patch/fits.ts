import { countAtMost, countBelow, kmpFind, kmpFindLast, kmpTable, lineOfOffset } from '../sorted';
/**
 * Where one pattern fits a file (0-based first lines of its fits, ascending), asked on
 * demand: placing a chunk needs its first fit after one line and its last fit before
 * another, rarely every fit. Answers -1 when there is none.
 */
export interface Fits {
  first(min: number): number;
  last(max: number): number;
  /** Every fit in [from, to], ascending. */
  between(from: number, to: number): number[];
}

/** The first element of an ascending list that is >= `min`, or -1. */
export function firstAtLeast(sorted: readonly number[], min: number): number {
  const i = countBelow(sorted, min);
  return i < sorted.length ? sorted[i] : -1;
}

/** Index of the last element of an ascending list that is <= `max`, or -1. */
export function indexAtMost(sorted: readonly number[], max: number): number {
  return countAtMost(sorted, max) - 1;
}

/** The last element of an ascending list that is <= `max`, or -1. */
export function lastAtMost(sorted: readonly number[], max: number): number {
  const i = indexAtMost(sorted, max);
  return i >= 0 ? sorted[i] : -1;
}

/** Fits known as a list. */
export class ListFits implements Fits {
  constructor(private readonly list: readonly number[]) {}

  first(min: number): number {
    return firstAtLeast(this.list, min);
  }

  last(max: number): number {
    return lastAtMost(this.list, max);
  }

  between(from: number, to: number): number[] {
    return this.list.filter((p) => p >= from && p <= to);
  }
}

/**
 * Fits found by searching, which remember what a failed search proved: no fit starts at
 * or after `noneFrom`, none at or before `noneUpTo`. Chunks repeating a pattern that
 * does not fit then cost nothing after the first.
 */
abstract class SearchedFits implements Fits {
  private noneFrom = Infinity;
  private noneUpTo = -1;

  protected abstract searchFirst(min: number): number;
  protected abstract searchLast(max: number): number;
  abstract between(from: number, to: number): number[];

  first(min: number): number {
    min = Math.max(0, min);
    if (min >= this.noneFrom) {
      return -1;
    }
    const at = this.searchFirst(min);
    if (at < 0) {
      this.noneFrom = min;
    }
    return at;
  }

  last(max: number): number {
    if (max < 0 || max <= this.noneUpTo) {
      return -1;
    }
    const at = this.searchLast(max);
    if (at < 0) {
      this.noneUpTo = max;
    }
    return at;
  }
}

/**
 * Line-aligned occurrences of `block` (the pattern's lines, each with its terminator) in
 * `text`, whose line i starts at `starts[i]` (`starts` ends with the text's length),
 * found with the engine's native string search, forwards or backwards.
 */
export class TextFits extends SearchedFits {
  private readonly count: number;

  constructor(
    private readonly text: string,
    private readonly starts: Int32Array,
    private readonly block: string,
  ) {
    super();
    this.count = starts.length - 1;
  }

  /** The line holding character `offset`. */
  private lineAt(offset: number): number {
    return lineOfOffset(this.starts, offset);
  }

  protected searchFirst(min: number): number {
    if (min > this.count) {
      return -1;
    }
    for (let from = this.starts[min]; ; ) {
      const at = this.text.indexOf(this.block, from);
      if (at < 0) {
        return -1;
      }
      const line = this.lineAt(at);
      if (this.starts[line] === at) {
        return line;
      }
      from = this.starts[line + 1];
    }
  }

  protected searchLast(max: number): number {
    if (this.count === 0) {
      return -1;
    }
    for (let from = this.starts[Math.min(max, this.count - 1)]; ; ) {
      const at = this.text.lastIndexOf(this.block, from);
      if (at < 0) {
        return -1;
      }
      const line = this.lineAt(at);
      if (this.starts[line] === at) {
        return line;
      }
      from = this.starts[line];
    }
  }

  between(from: number, to: number): number[] {
    const out: number[] = [];
    for (let p = this.first(from); p >= 0 && p <= to; p = this.first(p + 1)) {
      out.push(p);
    }
    return out;
  }
}

/**
 * Fits of a pattern over lines given as ids (one id per distinct line under a pass),
 * found by KMP on demand, forwards or backwards: each search is linear in the lines it
 * passes over, whatever the repetition in the file.
 */
export class IdFits extends SearchedFits {
  private readonly forward: Int32Array;
  private readonly backward: Int32Array;
  private readonly reversed: Int32Array;

  constructor(
    private readonly ids: Int32Array,
    private readonly want: Int32Array,
  ) {
    super();
    this.forward = kmpTable(want);
    this.reversed = want.slice().reverse();
    this.backward = kmpTable(this.reversed);
  }

  /** Fits whose first line is in [from, to], ascending, stopping after the first when `one`. */
  private scan(from: number, to: number, one: boolean): number[] {
    const { ids, want, forward } = this;
    return kmpFind(ids, want, forward, from, Math.min(ids.length, to + want.length), one ? 1 : Infinity);
  }

  protected searchFirst(min: number): number {
    const [at] = this.scan(min, this.ids.length, true);
    return at ?? -1;
  }

  protected searchLast(max: number): number {
    const { ids, reversed, backward } = this;
    return kmpFindLast(ids, reversed, backward, max + reversed.length - 1);
  }

  between(from: number, to: number): number[] {
    return this.scan(from, to, false);
  }
}

/** The fits of `base` that `keep` accepts. */
export class FilteredFits extends SearchedFits {
  constructor(
    private readonly base: Fits,
    private readonly keep: (at: number) => boolean,
  ) {
    super();
  }

  protected searchFirst(min: number): number {
    let at = this.base.first(min);
    while (at >= 0 && !this.keep(at)) {
      at = this.base.first(at + 1);
    }
    return at;
  }

  protected searchLast(max: number): number {
    let at = this.base.last(max);
    while (at >= 0 && !this.keep(at)) {
      at = this.base.last(at - 1);
    }
    return at;
  }

  between(from: number, to: number): number[] {
    return this.base.between(from, to).filter(this.keep);
  }
}

export const NO_FITS: Fits = new ListFits([]);
