import { foldCase } from './names';
import { MAX_SUGGESTIONS } from './limits';

export function levenshtein(a: string, b: string): number {
  if (a === b) {
    return 0;
  }
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) {
    prev[j] = j;
  }
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/**
 * The edit distance of `a` and `b` when it is at most `max`, else `max + 1`, in time
 * proportional to `max` times the shorter length (only the band of the table within
 * `max` of its diagonal is filled): what bounds a "did you mean" over many long names.
 * `work.cells`, when given, counts the cells filled.
 */
export function levenshteinWithin(a: string, b: string, max: number, work?: { cells: number }): number {
  if (a === b) {
    return 0;
  }
  const over = max + 1;
  if (Math.abs(a.length - b.length) > max) {
    return over;
  }
  if (a.length > b.length) {
    [a, b] = [b, a];
  }
  const n = a.length;
  const m = b.length;
  if (n === 0) {
    return m;
  }
  let prev = new Array<number>(m + 1).fill(over);
  let cur = new Array<number>(m + 1).fill(over);
  for (let j = 0; j <= Math.min(m, max); j++) {
    prev[j] = j;
  }
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(m, i + max);
    cur[lo - 1] = lo === 1 ? (i <= max ? i : over) : over;
    if (hi < m) {
      cur[hi + 1] = over;
    }
    let best = cur[lo - 1];
    const c = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const v = Math.min(prev[j - 1] + (c === b.charCodeAt(j - 1) ? 0 : 1), prev[j] + 1, cur[j - 1] + 1, over);
      cur[j] = v;
      if (v < best) {
        best = v;
      }
    }
    if (work) {
      work.cells += hi - lo + 1;
    }
    if (best > max) {
      return over;
    }
    [prev, cur] = [cur, prev];
  }
  return Math.min(prev[m], over);
}

function stem(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** Characters of the longest file name compared (NAME_MAX of common file systems). */
const MAX_NAME_CHARS = 255;

/**
 * Similarity of a wanted file name to an existing one, 0 (unrelated) to 1 (equal),
 * case-insensitive. A shared stem ("main.js" / "main.ts") or containment scores high;
 * otherwise edit distance relative to length decides.
 */
export function nameSimilarity(wanted: string, candidate: string): number {
  const a = foldCase(wanted);
  const b = foldCase(candidate);
  if (a === b) {
    return 1;
  }
  // No file name is longer (NAME_MAX); the edit distance of a longer input costs its length times each name's.
  if (a.length > MAX_NAME_CHARS || b.length > MAX_NAME_CHARS) {
    return 0;
  }
  // A shared extension is no likeness of names: `contrat.ts` is near `contract.ts`, not `format.ts`.
  const ext = a.slice(stem(a).length);
  const [x, y] = ext && b.endsWith(ext) && stem(b).length === b.length - ext.length ? [stem(a), stem(b)] : [a, b];
  let score = 1 - levenshtein(x, y) / Math.max(x.length, y.length, 1);
  if (stem(a) === stem(b)) {
    score = Math.max(score, 0.9);
  } else if (b.includes(a) || a.includes(b)) {
    score = Math.max(score, 0.75);
  } else if (stem(b).includes(stem(a)) || stem(a).includes(stem(b))) {
    score = Math.max(score, 0.7);
  }
  return score;
}

/** Below this a candidate is noise rather than a likely typo. */
export const MIN_SIMILARITY = 0.5;

/** The best candidates, most similar first, ties by name; at most {@link MAX_SUGGESTIONS}. */
export function rankSimilar(wanted: string, candidates: Iterable<string>, max = MAX_SUGGESTIONS): string[] {
  const scored: { name: string; score: number }[] = [];
  for (const c of candidates) {
    const score = nameSimilarity(wanted, c);
    if (score >= MIN_SIMILARITY) {
      scored.push({ name: c, score });
    }
  }
  scored.sort((x, y) => y.score - x.score || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return scored.slice(0, max).map((s) => s.name);
}
