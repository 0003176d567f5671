import { indentMap, indentWidth, reindent, renderIndent, type IndentMap } from '../edit/indent';
import { isBlank, leadingWhitespace } from '../edit/normalize';
import type { ChunkLine } from './types';

/**
 * Added lines of a chunk found with its leading whitespace forgiven (the `trim` and
 * `unicode` passes), written at the file's indentation rather than the patch's:
 *
 * - when the chunk's old lines are off from the file's by one map (the same shift on every
 *   line, tabs for spaces, 2 columns for 4), its `+` lines move by that map, as fs_edit
 *   moves new_string (a map that scales the step must agree with the reading below);
 * - when they are off by different amounts, each `+` line takes its indentation from its
 *   nearest ` ` or `-` line (the one before it on a tie), moved as far from that line's
 *   indentation in the file as the patch moves it from that line as written.
 *
 * Then every `+` line must stand where the patch put it: nested against the lines next to
 * it in the chunk as the patch's text nests it (deeper, level or shallower), and at the
 * indentation of a line of the matched region or of the lines around it, unless deeper
 * than the line before it. One that does not (in YAML, a list item moved out of its list;
 * in Python, other code) leaves the placement uncertain and the chunk is refused, never
 * written.
 */
export type IndentOutcome =
  /** Every old line has the file's indentation: nothing to move. */
  | { kind: 'same' }
  | { kind: 'adapted'; body: ChunkLine[]; how: string }
  /** `line`: the `+` line as written, `width`: where it would land, in columns. */
  | { kind: 'uncertain'; line: string; width: number };

/** The matched region: the file's lines at the chunk's old lines, and the nearest lines with text before and after it. */
export interface Region {
  lines: readonly string[];
  before?: string;
  after?: string;
  usesTabs: () => boolean;
}

/**
 * @param body the chunk's lines as read
 * @param region where its old lines were found
 * @param habit the chunk was read as a model's habit (kept lines without their leading
 *   space): its added lines are checked as those of a loose match are, even where the
 *   indentation matched exactly
 */
export function adaptIndentation(body: readonly ChunkLine[], region: Region, habit = false): IndentOutcome {
  // Each old line with text, with its file line: [body index, as written, in the file].
  const pairs: { at: number; model: string; file: string }[] = [];
  let j = 0;
  body.forEach((l, i) => {
    if (l.op === '+') {
      return;
    }
    const file = region.lines[j++];
    if (!isBlank(l.text) && !isBlank(file)) {
      pairs.push({ at: i, model: l.text, file });
    }
  });
  const same = pairs.every((p) => leadingWhitespace(p.model) === leadingWhitespace(p.file));
  const map = same
    ? undefined
    : wholeStep(
        indentMap(
          pairs.map((p) => [p.model, p.file] as const),
          region.usesTabs,
        ),
      );
  // one shift for all (not lines off by different amounts, where no line tells the frame of another)
  if (same || (map && map.num === map.den && atFileIndentation(body, pairs))) {
    // nothing to move (or the added lines are at the file's indentation already): taken as written
    const stray = habit || !same ? strayLine(body, body, region) : undefined;
    return stray === undefined ? { kind: 'same' } : { kind: 'uncertain', line: body[stray].text, width: indentWidth(leadingWhitespace(body[stray].text)) };
  }
  const out = body.map((l) => ({ ...l }));
  const width = (ws: string) => indentWidth(ws);
  for (let i = 0; i < out.length; i++) {
    const l = out[i];
    if (l.op !== '+') {
      continue;
    }
    if (isBlank(l.text)) {
      l.text = '';
      continue;
    }
    const ref = nearest(pairs, i);
    const lead = leadingWhitespace(l.text);
    const fileWs = leadingWhitespace(ref.file);
    const w = width(fileWs) + width(lead) - width(leadingWhitespace(ref.model));
    if (map) {
      l.text = reindent(l.text, map);
      // a step read as twice or half another is one reading; the nearest line's distance the other: both must agree
      if (map.num !== map.den && width(leadingWhitespace(l.text)) !== w) {
        return { kind: 'uncertain', line: body[i].text, width: width(leadingWhitespace(l.text)) };
      }
      continue;
    }
    if (w < 0) {
      return { kind: 'uncertain', line: body[i].text, width: w };
    }
    const ws = w === width(fileWs) ? fileWs : renderIndent(w, fileWs.includes('\t') || (fileWs === '' && region.usesTabs()));
    l.text = ws + l.text.slice(lead.length);
  }
  const stray = strayLine(body, out, region);
  if (stray !== undefined) {
    return { kind: 'uncertain', line: body[stray].text, width: width(leadingWhitespace(out[stray].text)) };
  }
  return { kind: 'adapted', body: out, how: map ? describeShift(map) : 'its + lines placed by their nearest kept or removed line, as far from it as the patch puts them' };
}

/**
 * Whether the `+` lines are already at the file's indentation although the old lines are
 * not: a `+` line that repeats an old line's text carries that line's indentation in the
 * file, and none carries it as the patch wrote it (a text seen with two indentations tells
 * nothing).
 */
function atFileIndentation(body: readonly ChunkLine[], pairs: readonly { model: string; file: string }[]): boolean {
  const indents = new Map<string, { model: string; file: string } | null>();
  for (const p of pairs) {
    const key = p.model.trim();
    const seen = { model: leadingWhitespace(p.model), file: leadingWhitespace(p.file) };
    const had = indents.get(key);
    indents.set(key, had === undefined || (had && had.model === seen.model && had.file === seen.file) ? seen : null);
  }
  let atFile = 0;
  for (const l of body) {
    const ind = l.op === '+' && !isBlank(l.text) ? indents.get(l.text.trim()) : undefined;
    if (!ind || ind.model === ind.file) {
      continue;
    }
    const ws = leadingWhitespace(l.text);
    if (ws === ind.model) {
      return false;
    }
    atFile += ws === ind.file ? 1 : 0;
  }
  return atFile > 0;
}

/**
 * A map whose step is the patch's, or twice or half it (2 columns for 4, 4 for 8): a
 * 3-column step read as 2, or 1 as 4, is no indentation a model writes, only lines that
 * happen to be proportional. (A tab counts 4 columns, so a tab for 4 spaces is the same step.)
 */
function wholeStep(map: IndentMap | undefined): IndentMap | undefined {
  return map && (map.num === map.den || map.num === 2 * map.den || map.den === 2 * map.num) ? map : undefined;
}

/** The old line with text nearest to body line `i` (the one before it on a tie). */
function nearest<T extends { at: number }>(pairs: readonly T[], i: number): T {
  let best = pairs[0];
  for (const p of pairs) {
    if (Math.abs(p.at - i) < Math.abs(best.at - i) || (Math.abs(p.at - i) === Math.abs(best.at - i) && p.at < best.at)) {
      best = p;
    }
  }
  return best;
}

/**
 * The first `+` line (body index) that does not stand where the patch put it: one that
 * nests otherwise against the new lines next to it in the chunk than the patch's text says
 * (deeper, level or shallower), or that stands at no indentation of the region or the lines
 * around it without being deeper than the line before it in the chunk.
 */
function strayLine(written: readonly ChunkLine[], adapted: readonly ChunkLine[], region: Region): number | undefined {
  const widthOf = (t: string) => indentWidth(leadingWhitespace(t));
  const allowed = new Set<number>();
  for (const t of [...region.lines, region.before, region.after]) {
    if (t !== undefined && !isBlank(t)) {
      allowed.add(widthOf(t));
    }
  }
  // The new side's lines with text: their width as written and in the result, and whether added.
  const side: { at: number; written: number; result: number; added: boolean }[] = [];
  let j = 0;
  adapted.forEach((l, i) => {
    if (l.op === '-') {
      j++;
      return;
    }
    const result = l.op === ' ' ? region.lines[j++] : l.text;
    if (!isBlank(result)) {
      side.push({ at: i, written: widthOf(written[i].text), result: widthOf(result), added: l.op === '+' });
    }
  });
  for (let k = 0; k < side.length; k++) {
    const a = side[k];
    if (!a.added) {
      continue;
    }
    const prev = side[k - 1];
    const next = side[k + 1];
    const nests = (x: typeof a | undefined) => x === undefined || Math.sign(a.written - x.written) === Math.sign(a.result - x.result);
    if (!nests(prev) || !nests(next) || !(allowed.has(a.result) || (prev !== undefined && a.result > prev.result))) {
      return a.at;
    }
  }
  return undefined;
}

function describeShift(map: IndentMap): string {
  const shift = map.fileBase - map.oldBase;
  const moved = shift === 0 ? 'kept at their columns' : `moved ${Math.abs(shift)} column${Math.abs(shift) === 1 ? '' : 's'} ${shift > 0 ? 'right' : 'left'}`;
  const step = map.num !== map.den ? `, each indentation step x${+(map.num / map.den).toFixed(2)}` : '';
  return `its + lines ${moved}${step}${map.tabs ? ', in tabs' : ''}, like its other lines`;
}
