import { throwIfCancelled, type CancelSignal } from './cancel';
import { EDIT_CANCEL_CHECK_STEPS } from './limits';

/**
 * Searches in sequences, written once: binary searches over sorted lists (and the line
 * that holds an offset, from the lines' start offsets), and Knuth-Morris-Pratt over
 * sequences of small integers (a file's lines as ids), forwards or backwards.
 */

/**
 * The first index in [lo, hi) at which `pred` holds, `hi` when it holds nowhere. `pred`
 * must be false then true over the range (monotone); it is asked about log2(hi - lo) indices.
 */
export function partitionPoint(lo: number, hi: number, pred: (i: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(mid)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

/** How many elements of an ascending list are below `value`: the index of the first >= `value`. */
export function countBelow(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/** How many elements of an ascending list are at most `value`: the index of the first > `value`. */
export function countAtMost(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= value) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/**
 * The 0-based line that holds offset `offset`, given the lines' ascending start offsets
 * (the first is 0): the last line starting at or before it. An offset just past a line
 * break is on the next line.
 */
export function lineOfOffset(starts: ArrayLike<number>, offset: number): number {
  return Math.max(0, countAtMost(starts, offset) - 1);
}

/** The KMP failure table of `p`: for each prefix, the length of its longest proper border. */
export function kmpTable(p: ArrayLike<number>): Int32Array {
  const fail = new Int32Array(p.length);
  for (let j = 1, k = 0; j < p.length; j++) {
    while (k > 0 && p[j] !== p[k]) {
      k = fail[k - 1];
    }
    if (p[j] === p[k]) {
      k++;
    }
    fail[j] = k;
  }
  return fail;
}

/**
 * Every start (overlapping ones too) of `want` in `hay[from, end)`, ascending, at most
 * `max`: linear in the elements passed over, whatever the repetition. `fail` is
 * `kmpTable(want)`, passed in so a pattern searched many times builds it once.
 */
export function kmpFind(hay: ArrayLike<number>, want: ArrayLike<number>, fail: Int32Array, from: number, end: number, max: number, signal?: CancelSignal): number[] {
  const out: number[] = [];
  const m = want.length;
  if (m === 0 || max <= 0) {
    return out;
  }
  for (let i = Math.max(0, from), k = 0; i < end; i++) {
    if ((i & (EDIT_CANCEL_CHECK_STEPS - 1)) === 0) {
      throwIfCancelled(signal);
    }
    while (k > 0 && hay[i] !== want[k]) {
      k = fail[k - 1];
    }
    if (hay[i] === want[k]) {
      k++;
    }
    if (k === m) {
      out.push(i - m + 1);
      if (out.length >= max) {
        break;
      }
      k = fail[k - 1];
    }
  }
  return out;
}

/**
 * The start of the last occurrence of a pattern that lies wholly in `hay[0, end]`, or -1:
 * the pattern is read backwards from `end`. `reversed` is the pattern reversed and `fail`
 * its {@link kmpTable}.
 */
export function kmpFindLast(hay: ArrayLike<number>, reversed: ArrayLike<number>, fail: Int32Array, end: number): number {
  const m = reversed.length;
  for (let i = Math.min(hay.length - 1, end), k = 0; i >= 0; i--) {
    while (k > 0 && hay[i] !== reversed[k]) {
      k = fail[k - 1];
    }
    if (hay[i] === reversed[k]) {
      k++;
    }
    if (k === m) {
      return i;
    }
  }
  return -1;
}
