import { throwIfCancelled, type CancelSignal } from '../cancel';
import { EDIT_CANCEL_CHECK_STEPS } from '../limits';
import { kmpFind, kmpTable } from '../sorted';

/**
 * Every start (overlapping ones too) of `needle` in `hay`, both sequences of small
 * integers: Knuth-Morris-Pratt, so the cost is O(hay + needle) whatever the repetition.
 * At most `max` starts are returned.
 */
export function findSequence(hay: Int32Array | readonly number[], needle: readonly number[], max: number, signal?: CancelSignal): number[] {
  return kmpFind(hay, needle, kmpTable(needle), 0, hay.length, max, signal);
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
