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
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < min) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < sorted.length ? sorted[lo] : -1;
}

/** The last element of an ascending list that is <= `max`, or -1. */
export function lastAtMost(sorted: readonly number[], max: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= max) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo > 0 ? sorted[lo - 1] : -1;
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
 * Line-aligned occurrences of `block` (the pattern's lines, each with its terminator) in
 * `text`, whose line i starts at `starts[i]` (`starts` ends with the text's length),
 * found with the engine's native string search, forwards or backwards.
 */
export class TextFits implements Fits {
  private readonly count: number;

  constructor(
    private readonly text: string,
    private readonly starts: Int32Array,
    private readonly block: string,
  ) {
    this.count = starts.length - 1;
  }

  /** The line holding character `offset`. */
  private lineAt(offset: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  first(min: number): number {
    if (min > this.count) {
      return -1;
    }
    for (let from = this.starts[Math.max(0, min)]; ; ) {
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

  last(max: number): number {
    if (max < 0 || this.count === 0) {
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

export const NO_FITS: Fits = new ListFits([]);
