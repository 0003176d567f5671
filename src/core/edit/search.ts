import { throwIfCancelled, type CancelSignal } from '../cancel';
import { EDIT_CANCEL_CHECK_STEPS } from '../limits';

/**
 * Every start (overlapping ones too) of `needle` in `hay`, both sequences of small
 * integers: Knuth-Morris-Pratt, so the cost is O(hay + needle) whatever the repetition.
 * At most `max` starts are returned.
 */
export function findSequence(hay: Int32Array | readonly number[], needle: readonly number[], max: number, signal?: CancelSignal): number[] {
  const out: number[] = [];
  const m = needle.length;
  if (m === 0 || m > hay.length) {
    return out;
  }
  const fail = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && needle[i] !== needle[k]) {
      k = fail[k - 1];
    }
    if (needle[i] === needle[k]) {
      k++;
    }
    fail[i] = k;
  }
  for (let i = 0, k = 0; i < hay.length; i++) {
    if ((i & (EDIT_CANCEL_CHECK_STEPS - 1)) === 0) {
      throwIfCancelled(signal);
    }
    while (k > 0 && hay[i] !== needle[k]) {
      k = fail[k - 1];
    }
    if (hay[i] === needle[k]) {
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

/** Every start (overlapping ones too) of `needle` in `hay`, at most `max`. */
export function findAll(hay: string, needle: string, max: number, signal?: CancelSignal): number[] {
  const out: number[] = [];
  if (needle.length === 0) {
    return out;
  }
  let i = hay.indexOf(needle);
  while (i !== -1 && out.length < max) {
    out.push(i);
    if ((out.length & (EDIT_CANCEL_CHECK_STEPS - 1)) === 0) {
      throwIfCancelled(signal);
    }
    i = hay.indexOf(needle, i + 1);
  }
  return out;
}
