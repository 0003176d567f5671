import { diffArrays } from 'diff';
import { MAX_EDIT_ALIGN_LINES, MAX_EDIT_MYERS_SPAN_LINES } from '../limits';
import { partitionPoint } from '../sorted';

/** A run of lines old_string and new_string share, or that one of them removes or adds. */
export interface AlignOp {
  kind: 'equal' | 'removed' | 'added';
  count: number;
}

/**
 * Aligns the lines of old_string with those of new_string: common first and last lines,
 * then Myers' diff while the span and the edit are small ({@link MAX_EDIT_MYERS_SPAN_LINES},
 * {@link MAX_EDIT_ALIGN_LINES}), else
 * lines that occur once on each side as anchors (patience diff) with the gaps aligned the
 * same way. Bounded: a large rewrite never costs the square of its size.
 */
export function alignLines(a: readonly string[], b: readonly string[]): AlignOp[] {
  const ops: AlignOp[] = [];
  const push = (kind: AlignOp['kind'], count: number) => {
    if (count === 0) {
      return;
    }
    const last = ops[ops.length - 1];
    if (last && last.kind === kind) {
      last.count += count;
    } else {
      ops.push({ kind, count });
    }
  };
  alignInto(a, 0, a.length, b, 0, b.length, push);
  return ops;
}

type Push = (kind: AlignOp['kind'], count: number) => void;

function alignInto(a: readonly string[], a0: number, a1: number, b: readonly string[], b0: number, b1: number, push: Push): void {
  let p = 0;
  while (a0 + p < a1 && b0 + p < b1 && a[a0 + p] === b[b0 + p]) {
    p++;
  }
  let q = 0;
  while (a1 - q > a0 + p && b1 - q > b0 + p && a[a1 - 1 - q] === b[b1 - 1 - q]) {
    q++;
  }
  push('equal', p);
  const am = a.slice(a0 + p, a1 - q);
  const bm = b.slice(b0 + p, b1 - q);
  if (am.length === 0 || bm.length === 0) {
    push('removed', am.length);
    push('added', bm.length);
  } else {
    middle(am, bm, push);
  }
  push('equal', q);
}

function middle(a: string[], b: string[], push: Push): void {
  // Myers costs about (lines x edits): tried on spans small enough that a failed try is cheap.
  const ops =
    a.length + b.length <= MAX_EDIT_MYERS_SPAN_LINES
      ? (diffArrays(a, b, { maxEditLength: MAX_EDIT_ALIGN_LINES }) as { value: string[]; added?: boolean; removed?: boolean }[] | undefined)
      : undefined;
  if (ops) {
    for (const op of ops) {
      push(op.added ? 'added' : op.removed ? 'removed' : 'equal', op.value.length);
    }
    return;
  }
  const anchors = uniqueAnchors(a, b);
  if (anchors.length === 0) {
    push('removed', a.length);
    push('added', b.length);
    return;
  }
  let ai = 0;
  let bi = 0;
  for (const [i, j] of anchors) {
    alignInto(a, ai, i, b, bi, j, push);
    push('equal', 1);
    ai = i + 1;
    bi = j + 1;
  }
  alignInto(a, ai, a.length, b, bi, b.length, push);
}

/** Pairs (i, j) of lines found once in `a` and once in `b`, the longest run of them in the same order on both sides. */
function uniqueAnchors(a: readonly string[], b: readonly string[]): [number, number][] {
  const count = (lines: readonly string[]) => {
    const m = new Map<string, number>();
    lines.forEach((l, i) => m.set(l, m.has(l) ? -1 : i));
    return m;
  };
  const ia = count(a);
  const ib = count(b);
  const pairs: [number, number][] = [];
  for (const [line, i] of ia) {
    const j = ib.get(line);
    if (i >= 0 && j !== undefined && j >= 0) {
      pairs.push([i, j]);
    }
  }
  pairs.sort((x, y) => x[0] - y[0]);
  // Longest increasing run of j (patience sorting), O(n log n).
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let k = 0; k < pairs.length; k++) {
    const lo = partitionPoint(0, tails.length, (t) => pairs[tails[t]][1] >= pairs[k][1]);
    prev[k] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = k;
  }
  const out: [number, number][] = [];
  for (let k = tails.length ? tails[tails.length - 1] : -1; k >= 0; k = prev[k]) {
    out.push(pairs[k]);
  }
  return out.reverse();
}
