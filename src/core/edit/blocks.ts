/**
 * The line levels: old_string's lines with text found, in order, as consecutive lines with
 * text of the file once formatting is ignored (see {@link substanceKey}), then told apart by
 * the tolerance the place needed, strictest first ({@link LINE_LEVELS}): trimmed-boundary,
 * line-trimmed, indentation-flexible, whitespace-normalized, unicode-normalized, block-anchor.
 */
import { EDIT_GUARD_CHAR_RATIO, EDIT_GUARD_EXTRA_CHARS, EDIT_GUARD_EXTRA_LINES, EDIT_GUARD_LINE_RATIO, MAX_EDIT_DIFFERING_LINES_LISTED, MAX_EDIT_PLACES } from '../limits';
import { describeIndentMap, indentMap, indentWidth, perLineIndent, type IndentMap } from './indent';
import { LINE_LEVELS } from './levels';
import { collapseSpaces, isBlank, leadingWhitespace, substanceKey, tightSpacing } from './normalize';
import { blockReplacement, projectBlock, type BlockPairing, type LineAdaptation, type Projection } from './project';
import { regionText } from './closest';
import { ambiguous, found, listLines, plural } from './result';
import { findSequence } from './search';
import type { Subject } from './subject';
import type { ClosestRegion, FindFailure, FindResult, LineDifference, MatchLevel, Replacement } from './types';
import { coreOf, type Core, type Variant } from './variant';

/** One place a line level found, with how it pairs with old_string and what it needed. */
export interface Placed {
  pairing: BlockPairing;
  level: MatchLevel;
  adapt: LineAdaptation;
  notes: string[];
  /** Why this place cannot be used: its indentation has another shape, or it is disproportionate. */
  rejected?: 'indentation' | 'too-broad';
  /** Position of the block's first line among the file's lines with text. */
  at: number;
}

/** The places where old_string's lines with text are, in order, as consecutive lines with text of the file. */
export function substancePlaces(subject: Subject, lines: readonly string[]): number[] {
  const { ids, wanted, present } = subject.encode(lines.filter((l) => !isBlank(l)).map(substanceKey));
  return present.every(Boolean) ? findSequence(ids, wanted, MAX_EDIT_PLACES, subject.signal) : [];
}

const rank = (l: MatchLevel) => LINE_LEVELS.indexOf(l);

export function lineLevels(subject: Subject, v: Variant, all: boolean, levelName?: MatchLevel): FindResult | undefined {
  const core = coreOf(v.old, v.new);
  if (!core) {
    return undefined;
  }
  const starts = substancePlaces(subject, core.old);
  if (starts.length === 0) {
    return undefined;
  }
  const withText = core.old.filter((l) => !isBlank(l)).length;
  const lines = subject.index.lines;
  // Indentation that differs line by line is forgiven only where old_string's lines are in the file once.
  const placeAt = (at: number) => place(subject, core, lines[at], lines[at + withText - 1], at, starts.length === 1);
  const listed = (ps: Placed[]) => ps.map((p) => p.pairing.s + 1);
  if (!all) {
    if (starts.length > 1) {
      // The level named is the one at which the first two places are both found.
      const level = LINE_LEVELS[Math.max(...starts.slice(0, 2).map((at) => rank(placeAt(at).level)))];
      return ambiguous(levelName ?? level, starts.map((at) => lines[at] + 1), starts.length);
    }
    const only = placeAt(starts[0]);
    return only.rejected ? rejection(subject, core, only, levelName) : foundBlocks(subject, core, v, [only], levelName, []);
  }
  const placed = starts.map(placeAt);
  const first = placed[0];
  const usable = placed.filter((p) => !p.rejected);
  if (usable.length === 0) {
    return rejection(subject, core, first, levelName);
  }
  const best = Math.min(...usable.map((p) => rank(p.level)));
  const chosen = usable.filter((p) => rank(p.level) === best);
  for (let i = 1; i < chosen.length; i++) {
    if (chosen[i].pairing.s <= chosen[i - 1].pairing.e) {
      return { ...ambiguous(levelName ?? LINE_LEVELS[best], listed(chosen), chosen.length), overlapping: true };
    }
  }
  const others = placed.filter((p) => !chosen.includes(p));
  const warnings = others.length > 0 ? [`${others.length} other place${others.length === 1 ? '' : 's'} (${listLines(listed(others))}) match only more loosely and were left unchanged.`] : [];
  return foundBlocks(subject, core, v, chosen, levelName, warnings);
}

function rejection(subject: Subject, core: Core, p: Placed, levelName?: MatchLevel): FindFailure {
  if (p.rejected === 'too-broad') {
    return { ok: false, reason: 'too-broad', level: levelName ?? p.level, lines: [p.pairing.s + 1], block: { startLine: p.pairing.s + 1, endLine: p.pairing.e + 1 } };
  }
  return indentationMismatch(subject, core.old, p.pairing);
}

/**
 * "Not found" for a place whose lines say the same as old_string's but whose indentation
 * cannot be carried over (another shape where the place is not certain, or, with `uncertain`,
 * a line new_string adds that the lines around it do not place): the closest region is that
 * place, with every line whose indentation differs, or the region as the file has it when
 * more differ than are listed or a line could not be placed.
 */
export function indentationMismatch(subject: Subject, old: readonly string[], pairing: BlockPairing, uncertain?: Extract<Projection, { problem: 'indent-uncertain' }>): FindFailure {
  const table = subject.table;
  const differ: LineDifference[] = [];
  for (let j = 0; j < old.length; j++) {
    const f = pairing.from[j];
    if (f >= 0 && !isBlank(old[j]) && f === pairing.to[j] && leadingWhitespace(old[j]) !== leadingWhitespace(table.text(f))) {
      differ.push({ line: f + 1, expected: old[j], actual: table.text(f) });
    }
  }
  if (differ.length === 0) {
    return { ok: false, reason: 'not-found' };
  }
  const closest: ClosestRegion = { startLine: pairing.s + 1, endLine: pairing.e + 1, ...differ[0], difference: 'indentation', differing: differ.length };
  if (uncertain || differ.length > MAX_EDIT_DIFFERING_LINES_LISTED) {
    closest.current = regionText(subject, pairing.s, pairing.e);
  } else if (differ.length > 1) {
    closest.lines = differ;
  }
  if (uncertain) {
    const at = (i: number | undefined) => (i === undefined ? undefined : { line: i + 1, columns: indentWidth(leadingWhitespace(table.text(i))) });
    closest.uncertain = { newLine: uncertain.line, text: uncertain.text, after: at(uncertain.after), before: at(uncertain.before) };
  }
  return { ok: false, reason: 'not-found', closest };
}

/** Pairs old_string's lines with the block s..e and works out the tolerance the place needs. */
function place(subject: Subject, core: Core, s: number, e: number, at: number, unique: boolean): Placed {
  const table = subject.table;
  const old = core.old;
  const n = old.length;
  const from = new Int32Array(n);
  let direct = e - s + 1 === n;
  for (let j = 0; direct && j < n; j++) {
    direct = isBlank(old[j]) === isBlank(table.text(s + j));
  }
  if (direct) {
    for (let j = 0; j < n; j++) {
      from[j] = s + j;
    }
  } else {
    // Block-anchor: lines with text pair in order; blank lines are whatever each side has.
    let f = s;
    for (let j = 0; j < n; j++) {
      if (isBlank(old[j])) {
        from[j] = -1;
        continue;
      }
      while (isBlank(table.text(f))) {
        f++;
      }
      from[j] = f++;
    }
  }
  const pairing: BlockPairing = { s, e, from, to: from };
  const t = tolerances(subject, old, pairing, unique);
  const level: MatchLevel = !direct ? 'block-anchor' : t.level;
  const notes = [...t.notes];
  if (core.trimmed > 0) {
    notes.unshift(`ignored ${plural(core.trimmed, 'blank line')} around old_string`);
  } else if (level === 'trimmed-boundary') {
    // Every line is equal and none was trimmed: only old_string's final line break is not in the file.
    notes.push('matched whole lines; the line break at the end of old_string is not in the file');
  }
  if (!direct) {
    const d = e - s + 1 - n;
    notes.push(d >= 0 ? `the file has ${plural(d, 'more blank line')} inside the block than old_string (kept as they are)` : `the file has ${plural(-d, 'blank line')} fewer inside the block than old_string`);
  }
  const placed: Placed = { pairing, level, adapt: t.adapt ?? { indent: IDENTITY, trimTrailing: false, keepFormat: false }, notes, at };
  if (!t.adapt) {
    placed.rejected = 'indentation';
  } else if (disproportionate(subject, old, s, e)) {
    placed.rejected = 'too-broad';
  }
  return placed;
}

const IDENTITY: IndentMap = { oldBase: 0, fileBase: 0, num: 1, den: 1, tabs: false, identity: true };

/**
 * What the paired lines needed to be equal, strictest first, and how new_string must be
 * adapted for it; no `adapt` when the indentation has another shape.
 */
export function tolerances(subject: Subject, old: readonly string[], pairing: BlockPairing, unique = false): { level: MatchLevel; notes: string[]; adapt?: LineAdaptation } {
  const table = subject.table;
  let trailing = false;
  let extraTrailing = false;
  let indent = false;
  let inner = false;
  let layout = false;
  let typography = false;
  const pairs: [string, string][] = [];
  for (let j = 0; j < old.length; j++) {
    const f = pairing.from[j];
    if (f < 0) {
      continue;
    }
    const o = old[j];
    const t = table.text(f);
    if (isBlank(o)) {
      trailing ||= o !== t;
      continue;
    }
    pairs.push([o, t]);
    if (o === t) {
      continue;
    }
    const ol = leadingWhitespace(o);
    const tl = leadingWhitespace(t);
    indent ||= ol !== tl;
    const oc = o.slice(ol.length);
    const tc = t.slice(tl.length);
    if (oc === tc) {
      continue;
    }
    const oe = oc.trimEnd();
    const te = tc.trimEnd();
    if (oc.slice(oe.length) !== tc.slice(te.length)) {
      trailing = true;
      extraTrailing ||= oe.length < oc.length && te.length === tc.length;
    }
    if (oe === te) {
      continue;
    }
    if (collapseSpaces(oc) === collapseSpaces(tc)) {
      inner = true;
      continue;
    }
    if (tightSpacing(collapseSpaces(oc)) === tightSpacing(collapseSpaces(tc))) {
      layout = true;
      continue;
    }
    typography = true;
  }
  const map = indentMap(pairs, () => subject.usesTabs());
  const notes: string[] = [];
  if (trailing) {
    notes.push('ignored trailing whitespace');
  }
  if (map && !map.identity) {
    notes.push(`old_string's indentation differs from the file's (${describeIndentMap(map)}); new_string was re-indented the same way`);
  }
  if (inner) {
    notes.push("ignored runs of spaces inside lines; unchanged text keeps the file's spacing");
  }
  if (layout) {
    notes.push("ignored spaces next to brackets and commas; unchanged lines keep the file's spacing");
  }
  if (typography) {
    notes.push("matched typographic quotes, dashes or spaces to their ASCII forms; unchanged text keeps the file's");
  }
  const level: MatchLevel = typography ? 'unicode-normalized' : inner || layout ? 'whitespace-normalized' : indent ? 'indentation-flexible' : trailing ? 'line-trimmed' : 'trimmed-boundary';
  if (!map) {
    // Only indentation differs, by different amounts on different lines: certain when the place is the only one.
    const perLine = unique && !inner && !layout && !typography ? perLineIndent(pairs, () => subject.indentStep(), () => subject.usesTabs()) : undefined;
    if (!perLine) {
      return { level, notes };
    }
    notes.push(
      `old_string's indentation differs from the file's by different amounts on ${plural(perLine.differing, 'line')}; unchanged lines keep the file's, a changed line takes that of the line it replaces, an added line that of the lines around it`,
    );
    return { level, notes, adapt: { indent: IDENTITY, perLine, trimTrailing: extraTrailing, keepFormat: false } };
  }
  return { level, notes, adapt: { indent: map, trimTrailing: extraTrailing, keepFormat: typography || inner || layout } };
}

/** The disproportionate-match guard: a block far longer or shorter than old_string is not what the model meant. */
function disproportionate(subject: Subject, old: readonly string[], s: number, e: number): boolean {
  const blockLines = e - s + 1;
  const oldLines = old.length;
  const far = (a: number, b: number) => a >= Math.max(b + EDIT_GUARD_EXTRA_LINES, b * EDIT_GUARD_LINE_RATIO);
  if (far(blockLines, oldLines) || far(oldLines, blockLines)) {
    return true;
  }
  const table = subject.table;
  const blockChars = table.ends[e] - table.starts[s];
  const oldChars = old.reduce((a, l) => a + l.length + 1, -1);
  return oldLines > 1 && blockChars > oldChars + EDIT_GUARD_EXTRA_CHARS && blockChars > oldChars * EDIT_GUARD_CHAR_RATIO;
}

export function foundBlocks(subject: Subject, core: Core, v: Variant, chosen: Placed[], levelName: MatchLevel | undefined, warnings: string[], elisions?: boolean[]): FindResult {
  const table = subject.table;
  const reps: Replacement[] = [];
  const notes = [...v.notes];
  for (const p of chosen) {
    // new_string already at the file's indentation is taken as written: shifting it too would double the shift.
    const asGiven = newAtFileIndentation(subject, core, p);
    const adapt = asGiven ? { ...p.adapt, indent: IDENTITY } : p.adapt;
    const proj = projectBlock(table, core.old, core.new, p.pairing, adapt, elisions);
    if (!proj.ok && proj.problem === 'indent-uncertain') {
      // A line added where the lines around it were off by different amounts has no certain place: the file's indentation is what the model needs.
      return indentationMismatch(subject, core.old, p.pairing, proj);
    }
    if (!proj.ok) {
      return {
        ok: false,
        reason: 'invalid',
        message:
          proj.problem === 'elision-dropped'
            ? `old_string leaves lines out with "..." (its line ${proj.line}), but new_string does not keep that line, so lines never shown would be deleted. Keep the "..." line in new_string at the same place, or give the full text.`
            : `new_string has a "..." line (its line ${proj.line}) that old_string does not have at that place; it would be written into the file as is. Give the full text instead.`,
      };
    }
    const { s, e } = p.pairing;
    const rep = blockReplacement(table, s, e, proj.lines, table.eolFor(table.starts[s], table.ends[e]));
    if (rep) {
      reps.push(rep);
    }
    for (const note of asGiven ? p.notes.map((n) => n.replace(REINDENTED, AS_GIVEN)) : p.notes) {
      if (!notes.includes(note)) {
        notes.push(note);
      }
    }
  }
  const places = chosen.map((p) => ({ startLine: p.pairing.s + 1, endLine: p.pairing.e + 1 }));
  return found(subject, levelName ?? chosen[0].level, reps, places, notes, warnings, v);
}

const REINDENTED = 'new_string was re-indented the same way';
const AS_GIVEN = "new_string already had the file's indentation and was taken as written";

/**
 * Whether new_string is written at the file's indentation although old_string lost it (a
 * model that copied old_string loosely and wrote new_string carefully): its lines that say
 * what a line of old_string says carry that line's indentation in the file, none carries
 * old_string's, and none is shallower than the block. Then new_string is not shifted again.
 */
function newAtFileIndentation(subject: Subject, core: Core, p: Placed): boolean {
  const map = p.adapt.indent;
  if (map.identity) {
    return false;
  }
  const table = subject.table;
  // The text of each old_string line, with its indentation there and in the file; a text seen with two indentations tells nothing.
  const indents = new Map<string, { old: string; file: string } | null>();
  core.old.forEach((l, j) => {
    const f = p.pairing.from[j];
    if (f < 0 || f !== p.pairing.to[j] || isBlank(l)) {
      return;
    }
    const key = l.trim();
    const seen = { old: leadingWhitespace(l), file: leadingWhitespace(table.text(f)) };
    const had = indents.get(key);
    indents.set(key, had === undefined || (had && had.old === seen.old && had.file === seen.file) ? seen : null);
  });
  let atFile = 0;
  for (const l of core.new) {
    if (isBlank(l)) {
      continue;
    }
    const ws = leadingWhitespace(l);
    if (indentWidth(ws) < map.fileBase) {
      return false;
    }
    const ind = indents.get(l.trim());
    if (!ind || ind.old === ind.file) {
      continue;
    }
    if (ws === ind.old) {
      return false;
    }
    atFile += ws === ind.file ? 1 : 0;
  }
  return atFile > 0;
}
