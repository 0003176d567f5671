import { MAX_EDIT_VOTE_OCCURRENCES } from '../limits';
import { isBlank, leadingWhitespace, substanceKey } from './normalize';
import type { Subject } from './subject';
import type { ClosestRegion } from './types';

const WORD = /[\p{L}\p{N}_$]{3,}/gu;

/**
 * The region of the file most like old_string, for a "not found" answer: each line of
 * old_string found in the file votes for where old_string would start if that line were
 * in place (lines too common to tell places apart do not vote); with no line found at
 * all, shared words vote instead. Then the first line of the region that differs.
 * @param at a known start (a position among the file's lines with text), skipping the vote.
 */
export function closestRegion(subject: Subject, oldLines: readonly string[], at?: number): ClosestRegion | undefined {
  const lines = oldLines.filter((l) => !isBlank(l));
  const n = lines.length;
  const { keys, lines: fileLines } = subject.index;
  const count = keys.length;
  if (n === 0 || count === 0) {
    return undefined;
  }
  const start = at ?? bestStart(subject, lines);
  if (start === undefined) {
    return undefined;
  }
  const first = Math.max(start, 0);
  const last = Math.min(start + n - 1, count - 1);
  if (first > last) {
    return undefined;
  }
  const table = subject.table;
  let whitespace: ClosestRegion | undefined;
  for (let j = 0; j < n; j++) {
    const p = start + j;
    if (p < 0 || p >= count) {
      continue;
    }
    const actual = table.text(fileLines[p]);
    const expected = lines[j];
    const region = { startLine: fileLines[first] + 1, endLine: fileLines[last] + 1, line: fileLines[p] + 1, expected, actual };
    if (substanceKey(expected) !== keys[p]) {
      return { ...region, difference: 'text' };
    }
    if (!whitespace && expected.trimEnd() !== actual.trimEnd()) {
      whitespace = { ...region, difference: leadingWhitespace(expected) !== leadingWhitespace(actual) ? 'indentation' : 'whitespace' };
    }
  }
  if (start + n - 1 >= count || start < 0) {
    // old_string runs past an end of the file.
    const p = start < 0 ? 0 : count - 1;
    const j = p - start;
    return { startLine: fileLines[first] + 1, endLine: fileLines[last] + 1, line: fileLines[p] + 1, expected: lines[Math.min(Math.max(j, 0), n - 1)], actual: table.text(fileLines[p]), difference: 'text' };
  }
  return whitespace ?? { startLine: fileLines[first] + 1, endLine: fileLines[last] + 1, line: fileLines[first] + 1, expected: lines[0], actual: table.text(fileLines[first]), difference: 'whitespace' };
}

function bestStart(subject: Subject, lines: readonly string[]): number | undefined {
  const n = lines.length;
  const { ids, wanted } = subject.encode(lines.map(substanceKey));
  // Where each of old_string's keys is in the file, unless it is too common to tell places apart.
  const at: number[][] = [];
  for (let p = 0; p < ids.length; p++) {
    const id = ids[p];
    if (id >= 0) {
      const list = (at[id] ??= []);
      if (list.length <= MAX_EDIT_VOTE_OCCURRENCES) {
        list.push(p);
      }
    }
  }
  const votes = new Float64Array(ids.length + n);
  let voted = false;
  for (let j = 0; j < n; j++) {
    const list = at[wanted[j]];
    if (!list || list.length > MAX_EDIT_VOTE_OCCURRENCES) {
      continue;
    }
    for (const p of list) {
      votes[p - j + n] += 1;
      voted = true;
    }
  }
  if (!voted) {
    voted = wordVotes(subject, lines, votes);
  }
  if (!voted) {
    return undefined;
  }
  let best = 0;
  for (let i = 1; i < votes.length; i++) {
    if (votes[i] > votes[best]) {
      best = i;
    }
  }
  return best - n;
}

/** Votes by words (3+ letters, digits or underscores) old_string's lines share with the file's. */
function wordVotes(subject: Subject, lines: readonly string[], votes: Float64Array): boolean {
  const n = lines.length;
  const wanted = new Map<string, number[]>();
  lines.forEach((l, j) => {
    for (const w of new Set(l.match(WORD) ?? [])) {
      const at = wanted.get(w);
      if (at) {
        at.push(j);
      } else {
        wanted.set(w, [j]);
      }
    }
  });
  if (wanted.size === 0) {
    return false;
  }
  const { lines: fileLines } = subject.index;
  const table = subject.table;
  const hits = new Map<string, number[]>();
  for (let p = 0; p < fileLines.length; p++) {
    if ((p & 4095) === 0) {
      subject.checkCancelled();
    }
    for (const w of new Set(table.text(fileLines[p]).match(WORD) ?? [])) {
      const at = wanted.has(w) ? (hits.get(w) ?? []) : undefined;
      if (at && at.length <= MAX_EDIT_VOTE_OCCURRENCES) {
        at.push(p);
        hits.set(w, at);
      }
    }
  }
  let voted = false;
  for (const [w, at] of hits) {
    if (at.length > MAX_EDIT_VOTE_OCCURRENCES) {
      continue;
    }
    // Rarer words say more about where old_string belongs.
    const weight = 1 / at.length;
    for (const j of wanted.get(w)!) {
      for (const p of at) {
        votes[p - j + n] += weight;
        voted = true;
      }
    }
  }
  return voted;
}
