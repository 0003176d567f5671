import { MAX_PATCH_CLOSEST_LINE_OCCURRENCES, MAX_PATCH_CLOSEST_PATTERN_LINES } from '../limits';
import type { FileRegion } from './errors';
import { normaliseLine, type LineIndex } from './seek';

// What a chunk that fits nowhere is shown beside: the file's region or line most like it.

/** Share of `a` and `b` (normalised) covered by their common prefix and suffix; 0..1. */
function similarity(a: string, b: string): number {
  const max = Math.max(a.length, b.length);
  if (max === 0) {
    return 1;
  }
  let pre = 0;
  const min = Math.min(a.length, b.length);
  while (pre < min && a.charCodeAt(pre) === b.charCodeAt(pre)) {
    pre++;
  }
  let suf = 0;
  while (suf < min - pre && a.charCodeAt(a.length - 1 - suf) === b.charCodeAt(b.length - 1 - suf)) {
    suf++;
  }
  return (pre + suf) / max;
}

/** The 0-based line most like `target` (normalised), when at least half of it agrees; else undefined. */
export function mostSimilarLine(lines: readonly string[], target: string): number | undefined {
  if (target === '') {
    return undefined;
  }
  let best = -1;
  let bestScore = 0.5;
  for (let i = 0; i < lines.length; i++) {
    const score = similarity(normaliseLine(lines[i]), target);
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return best >= 0 ? best : undefined;
}

/**
 * The region of the file most like `pattern`: where most of its lines (compared loosely)
 * line up, the one nearest `start` on ties; failing that, around the line most like the
 * pattern's longest line. Undefined when nothing resembles it.
 */
export function closestRegion(index: LineIndex, pattern: readonly string[], start: number): FileRegion | undefined {
  const lines = index.source.all();
  const n = lines.length;
  const m = pattern.length;
  if (n === 0 || m === 0) {
    return undefined;
  }
  const norm = pattern.map(normaliseLine);
  const votes = new Map<number, number>();
  const voters = pattern.slice(0, MAX_PATCH_CLOSEST_PATTERN_LINES);
  const positions = index.occurrences(voters, 'unicode', MAX_PATCH_CLOSEST_LINE_OCCURRENCES);
  for (let j = 0; j < voters.length; j++) {
    const at = norm[j] === '' ? undefined : positions.get(norm[j]);
    if (!at || at.length > MAX_PATCH_CLOSEST_LINE_OCCURRENCES) {
      continue;
    }
    for (const pos of at) {
      votes.set(pos - j, (votes.get(pos - j) ?? 0) + 1);
    }
  }
  let best: number | undefined;
  let bestVotes = 0;
  const distance = (p: number): number => (p >= start ? p - start : n + start - p);
  for (const [p, v] of votes) {
    if (v > bestVotes || (v === bestVotes && best !== undefined && distance(p) < distance(best))) {
      best = p;
      bestVotes = v;
    }
  }
  if (best === undefined) {
    let longest = -1;
    for (let j = 0; j < m; j++) {
      if (norm[j] !== '' && (longest < 0 || norm[j].length > norm[longest].length)) {
        longest = j;
      }
    }
    const line = longest < 0 ? undefined : mostSimilarLine(lines, norm[longest]);
    if (line === undefined) {
      return undefined;
    }
    best = line - longest;
  }
  const from = Math.max(0, best);
  const to = Math.min(n, best + m);
  const region: FileRegion = { startLine: from + 1, lines: lines.slice(from, Math.max(to, from + 1)) };
  for (let j = 0; j < m; j++) {
    const at = best + j;
    if (at < 0) {
      continue;
    }
    if (at >= n) {
      region.diffLine = n + 1;
      region.expected = pattern[j];
      break;
    }
    if (normaliseLine(lines[at]) !== norm[j]) {
      region.diffLine = at + 1;
      region.expected = pattern[j];
      break;
    }
  }
  return region;
}
