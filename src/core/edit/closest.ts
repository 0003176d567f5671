import { EDIT_CANCEL_CHECK_STEPS, MAX_EDIT_DIFFERING_LINES_LISTED, MAX_EDIT_QUOTE_CHARS, MAX_EDIT_REGION_BYTES, MAX_EDIT_REGION_LINES, MAX_EDIT_VOTE_OCCURRENCES } from '../limits';
import { isBlank, leadingWhitespace, substanceKey } from './normalize';
import type { Subject } from './subject';
import type { ClosestRegion, LineDifference, RegionText } from './types';

const WORD = /[\p{L}\p{N}_$]{3,}/gu;

/**
 * The region of the file most like old_string, for a "not found" answer: each line of
 * old_string found in the file votes for where old_string would start if that line were
 * in place (lines too common to tell places apart do not vote); with no line found at
 * all, shared words vote instead. Then the lines of the region that differ: each of them
 * when a few do, the region's text when more do.
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
  // Every line whose words differ, so one answer shows them all: a model fixing them one per call pays a call for each.
  const listed: LineDifference[] = [];
  // and every line whose words are the file's but not its indentation: fixing the words alone would meet them next
  const indented: LineDifference[] = [];
  let differing = 0;
  for (let j = 0; j < n; j++) {
    const p = start + j;
    if (p < 0 || p >= count) {
      continue;
    }
    if ((j & (EDIT_CANCEL_CHECK_STEPS - 1)) === 0) {
      subject.checkCancelled();
    }
    const expected = lines[j];
    if (substanceKey(expected) !== keys[p]) {
      differing++;
      if (listed.length <= MAX_EDIT_DIFFERING_LINES_LISTED) {
        listed.push({ line: fileLines[p] + 1, expected, actual: table.text(fileLines[p]) });
      }
      continue;
    }
    const actual = table.text(fileLines[p]);
    if (leadingWhitespace(expected) !== leadingWhitespace(actual)) {
      indented.push({ line: fileLines[p] + 1, expected, actual });
    }
    if (!whitespace && differing === 0) {
      if (expected.trimEnd() !== actual.trimEnd()) {
        const region = { startLine: fileLines[first] + 1, endLine: fileLines[last] + 1, line: fileLines[p] + 1, expected, actual };
        whitespace = { ...region, difference: leadingWhitespace(expected) !== leadingWhitespace(actual) ? 'indentation' : 'whitespace' };
      }
    }
  }
  const startLine = fileLines[first] + 1;
  const endLine = fileLines[last] + 1;
  if (differing > 0) {
    const all = differing + indented.length;
    const region: ClosestRegion = { startLine, endLine, ...listed[0], difference: 'text', differing: all };
    if (all > 1 && all <= MAX_EDIT_DIFFERING_LINES_LISTED) {
      region.lines = [...listed, ...indented].sort((a, b) => a.line - b.line);
    } else if (all > MAX_EDIT_DIFFERING_LINES_LISTED) {
      region.current = regionText(subject, fileLines[first], fileLines[last]);
    }
    return region;
  }
  if (start + n - 1 >= count || start < 0) {
    // old_string runs past an end of the file.
    const p = start < 0 ? 0 : count - 1;
    const j = p - start;
    return { startLine, endLine, line: fileLines[p] + 1, expected: lines[Math.min(Math.max(j, 0), n - 1)], actual: table.text(fileLines[p]), difference: 'text' };
  }
  return whitespace ?? { startLine, endLine, line: fileLines[first] + 1, expected: lines[0], actual: table.text(fileLines[first]), difference: 'whitespace' };
}

/** The file's lines first..last (0-based), within the caps of lines and bytes; a long line is cut, saying how long it is. */
export function regionText(subject: Subject, first: number, last: number): RegionText {
  const out: string[] = [];
  let bytes = 0;
  for (let i = first; i <= last; i++) {
    const text = subject.table.text(i);
    const shown = text.length > MAX_EDIT_QUOTE_CHARS ? `${text.slice(0, MAX_EDIT_QUOTE_CHARS)}... (${text.length} characters)` : text;
    const size = Buffer.byteLength(shown, 'utf8') + 1;
    if (out.length >= MAX_EDIT_REGION_LINES || (out.length > 0 && bytes + size > MAX_EDIT_REGION_BYTES)) {
      return { startLine: first + 1, lines: out, cut: true };
    }
    out.push(shown);
    bytes += size;
  }
  return { startLine: first + 1, lines: out, cut: false };
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
