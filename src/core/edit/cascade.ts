import { throwIfCancelled, type CancelSignal } from '../cancel';
import {
  EDIT_GUARD_CHAR_RATIO,
  EDIT_GUARD_EXTRA_CHARS,
  EDIT_GUARD_EXTRA_LINES,
  EDIT_GUARD_LINE_RATIO,
  MAX_EDIT_ELIDED_LINES,
  MAX_EDIT_ELISION_STEPS,
  MAX_EDIT_PLACES,
} from '../limits';
import { closestRegion } from './closest';
import { describeIndentMap, indentMap, indentWidth, reindent, type IndentMap } from './indent';
import { toLf } from './lines';
import {
  asciiTypography,
  collapseSpaces,
  isBlank,
  isElision,
  leadingWhitespace,
  looksPrefixed,
  stripReadPrefixes,
  stripReadPrefixesLoose,
  substanceKey,
  unescapeOnce,
} from './normalize';
import { blockReplacement, keepFormat, projectBlock, type BlockPairing, type LineAdaptation } from './project';
import { findAll, findSequence } from './search';
import { Subject } from './subject';
import type { Ambiguous, EditRequest, FindFailure, FindResult, FoundEdit, MatchLevel, NotFound, PlanResult, Replacement } from './types';

/** Levels from strictest to loosest; a place's level is the loosest tolerance it needed. */
const ORDER: readonly MatchLevel[] = [
  'exact',
  'read-prefix',
  'trimmed-boundary',
  'line-trimmed',
  'indentation-flexible',
  'whitespace-normalized',
  'unicode-normalized',
  'block-anchor',
  'escape-normalized',
  'context-aware',
  'multi-occurrence',
];
const rank = (l: MatchLevel) => ORDER.indexOf(l);

/** old_string and new_string as one level sees them, with what was done to get there. */
interface Variant {
  old: string;
  new: string;
  notes: string[];
}

/**
 * Finds where `req.oldString` is in `content` and what each place becomes. Levels are
 * tried strictest first (see {@link MatchLevel}); the first that finds anything decides:
 * one place is the answer, several are ambiguous (unless `replaceAll`). Every tolerant
 * level requires old_string's substance (its lines with formatting ignored) to be in the
 * file once, so formatting never chooses between two copies of the same text.
 * @throws CancelledError when `signal` is cancelled.
 */
export function findEdit(content: string, req: EditRequest, signal?: CancelSignal): FindResult {
  throwIfCancelled(signal);
  if (req.oldString.length === 0) {
    return { ok: false, reason: 'invalid', message: 'old_string is empty.' };
  }
  const base: Variant = { old: toLf(req.oldString), new: toLf(req.newString), notes: [] };
  if (base.old === base.new) {
    return { ok: false, reason: 'invalid', message: 'old_string and new_string are the same, so there is nothing to change.' };
  }
  const subject = new Subject(content, signal);
  const all = req.replaceAll === true;
  // A place found only inside a longer name or number is no place; it is what "not found" says when no level finds another.
  const cuts: NotFound[] = [];
  const exact = substring(subject, base, 'exact', all, cuts);
  if (exact) {
    return exact;
  }
  const prefixed = stripReadPrefixes(base.old);
  const work: Variant = prefixed
    ? { old: prefixed.text, new: stripReadPrefixesLoose(base.new), notes: ['removed the `L{n}: ` line-number prefixes copied from fs_read output'] }
    : base;
  // Each step runs only when every step before it found nothing; the first to find anything decides.
  const steps: (() => FindResult | undefined)[] = [
    () => (prefixed ? substring(subject, work, 'read-prefix', all, cuts) : undefined),
    () => lineLevels(subject, work, all),
    () => typographyInLine(subject, work, all, cuts),
    ...unescaped(work).flatMap((v) => [() => substring(subject, v, 'escape-normalized', all, cuts), () => lineLevels(subject, v, all, 'escape-normalized')]),
    () => elided(subject, work, all, cuts),
  ];
  // A file whose lines really begin with `L{n}: ` (fs_read output kept as a fixture) may hold old_string as written.
  const literal = prefixed ? (lineLevels(subject, base, all) ?? typographyInLine(subject, base, all, [])) : undefined;
  for (const step of steps) {
    const r = step();
    if (r) {
      if (literal && (r.ok || r.reason === 'ambiguous')) {
        return twoReadings(literal, r);
      }
      if (r.ok && prefixed) {
        checkPrefixLines(r, prefixed.first, prefixed.first + splitLines(base.old).length - 1);
      }
      return r;
    }
  }
  if (literal) {
    return literal;
  }
  subject.checkCancelled();
  if (cuts.length > 0) {
    return cuts[0];
  }
  // A half-prefixed copy is still placed by its text.
  const core = coreOf(!prefixed && looksPrefixed(work.old) ? stripReadPrefixesLoose(work.old) : work.old, work.new);
  const closest = core ? closestRegion(subject, core.old) : undefined;
  const hint = !prefixed && looksPrefixed(base.old) ? 'old_string starts with an `L{n}: ` prefix from fs_read output, but not every line has one or the numbers skip; copy the text without the prefixes.' : undefined;
  return { ok: false, reason: 'not-found', ...(closest ? { closest } : {}), ...(hint ? { hint } : {}) };
}

/**
 * old_string matched as written (lines that really begin with `L{n}: `) and, elsewhere, once
 * its prefixes were removed: the two readings compete, so neither is picked.
 */
function twoReadings(literal: FindResult, stripped: FoundEdit | Ambiguous): FindResult {
  const linesOf = (r: FindResult): number[] => (r.ok ? r.places.map((p) => p.startLine) : r.reason === 'ambiguous' || r.reason === 'too-broad' ? r.lines : []);
  const asWritten = linesOf(literal);
  if (asWritten.length === 0) {
    return stripped;
  }
  const without = linesOf(stripped);
  const lines = [...asWritten, ...without].sort((x, y) => x - y);
  return { ...ambiguous('read-prefix', lines, lines.length), readings: { asWritten, withoutPrefixes: without } };
}

/** old_string and new_string unescaped once (all escapes, then quotes only), when that changes old_string. */
function unescaped(work: Variant): Variant[] {
  const out: Variant[] = [];
  for (const quotesOnly of [false, true]) {
    const old = toLf(unescapeOnce(work.old, quotesOnly));
    if (old !== work.old && !out.some((v) => v.old === old)) {
      const both = escapedLike(work.old, work.new, quotesOnly);
      const what = quotesOnly ? 'unescaped \\" and \\\' (old_string was escaped twice)' : 'unescaped \\n, \\t and quotes (old_string was escaped twice)';
      const note = both ? `${what}; new_string was unescaped the same way` : `${what}; new_string was not escaped twice and was taken as written`;
      out.push({ old, new: both ? toLf(unescapeOnce(work.new, quotesOnly)) : work.new, notes: [...work.notes, note] });
    }
  }
  return out;
}

/**
 * Whether new_string was escaped twice as old_string was: not when it has a real line break
 * where old_string has only `\n`, nor a bare quote of a kind old_string always escaped. Its
 * own escapes (a `\n` inside a string literal) then mean what they say and are kept.
 */
function escapedLike(oldText: string, newText: string, quotesOnly: boolean): boolean {
  if (!quotesOnly && !oldText.includes('\n') && newText.includes('\n')) {
    return false;
  }
  for (const q of ['"', "'", '`']) {
    const bare = new RegExp(`(^|[^\\\\])${q}`);
    if (oldText.includes(`\\${q}`) && !bare.test(oldText) && bare.test(newText)) {
      return false;
    }
  }
  return true;
}

/** A warning when old_string's `L{n}: ` prefixes named other lines than where its text is now. */
function checkPrefixLines(r: FoundEdit, first: number, last: number): void {
  const at = r.places[0].startLine;
  if (r.places.length === 1 && (at < first || at > last)) {
    r.warnings.push(`old_string's line-number prefixes said line ${first}, but the text is at line ${at} now; check that this is the place you meant.`);
  }
}

/** Applies replacements (sorted, non-overlapping, as findEdit returns them) to `content`. */
export function applyReplacements(content: string, reps: readonly Replacement[]): string {
  let out = '';
  let pos = 0;
  for (const r of reps) {
    if (r.start < pos || r.end < r.start || r.end > content.length) {
      throw new RangeError(`replacements must be sorted, non-overlapping and within the text (at ${r.start}-${r.end})`);
    }
    out += content.slice(pos, r.start) + r.text;
    pos = r.end;
  }
  return out + content.slice(pos);
}

/** Edits in order, each on the result of the previous; all or nothing. */
export function planEdits(content: string, reqs: readonly EditRequest[], signal?: CancelSignal): PlanResult {
  let text = content;
  const results: FoundEdit[] = [];
  for (let i = 0; i < reqs.length; i++) {
    const r = findEdit(text, reqs[i], signal);
    if (!r.ok) {
      return { ok: false, index: i, failure: r };
    }
    text = applyReplacements(text, r.replacements);
    results.push(r);
  }
  return { ok: true, text, results };
}

// ---------------------------------------------------------------------------------------
// Substring levels: exact, read-prefix, escape-normalized (and typography within a line).

function substring(subject: Subject, v: Variant, level: MatchLevel, all: boolean, cuts: NotFound[]): FindResult | undefined {
  const hay = subject.lf.text;
  const complete = all || level === 'read-prefix';
  let hits = findAll(hay, v.old, complete ? MAX_EDIT_PLACES : 2, subject.signal);
  if (level === 'read-prefix') {
    // Prefixed lines are whole lines: text found after another line's indentation lost that indentation (the line levels re-indent it).
    hits = hits.filter((h) => h === 0 || hay.charCodeAt(h - 1) === 10);
  }
  return hits.length === 0 ? undefined : substringResult(subject, v, level, all, { hay, needle: v.old, hits, complete }, () => v.new, cuts);
}

/**
 * A phrase inside a line whose quotes or dashes differ (prose is often one long line):
 * searched character by character with typography made ASCII on both sides.
 */
function typographyInLine(subject: Subject, v: Variant, all: boolean, cuts: NotFound[]): FindResult | undefined {
  const needle = asciiTypography(v.old);
  const hay = subject.lfTypography;
  if (needle === v.old && hay === subject.lf.text) {
    return undefined;
  }
  const hits = findAll(hay, needle, all ? MAX_EDIT_PLACES : 2, subject.signal);
  if (hits.length === 0) {
    return undefined;
  }
  const adapt = (h: number) => {
    const region = subject.lf.text.slice(h, h + v.old.length);
    return keepFormat(v.old, region, v.new);
  };
  const r = substringResult(subject, v, 'unicode-normalized', all, { hay, needle, hits, complete: all }, adapt, cuts);
  if (r?.ok) {
    r.adjustments.push('matched typographic quotes, dashes or spaces to their ASCII forms; unchanged text keeps the file\'s');
  }
  return r;
}

/** Where a substring level looked (`hay`, the LF view of the file or a same-length mapping of it), for what, and where it found it. */
interface Hits {
  hay: string;
  needle: string;
  hits: number[];
  /** Whether `hits` holds every place (else the search stopped at the second). */
  complete: boolean;
}

/** The result of a substring level; undefined when its one place cuts a name or number (then put in `cuts`). */
function substringResult(subject: Subject, v: Variant, level: MatchLevel, all: boolean, { hay, needle, hits, complete }: Hits, text: (hit: number) => string, cuts: NotFound[]): FindResult | undefined {
  const lf = subject.lf;
  const len = needle.length;
  const lineOfHit = (h: number) => subject.lineOf(lf.toFile(h)) + 1;
  if (!all && hits.length > 1) {
    const every = complete ? hits : findAll(hay, needle, MAX_EDIT_PLACES, subject.signal);
    return ambiguous(level, every.map(lineOfHit), every.length);
  }
  if (hits.length >= MAX_EDIT_PLACES) {
    return { ok: false, reason: 'invalid', message: `old_string is found at ${MAX_EDIT_PLACES} places or more; replace_all changes at most ${MAX_EDIT_PLACES - 1}.` };
  }
  for (let i = 1; i < hits.length; i++) {
    if (hits[i] < hits[i - 1] + len) {
      return { ...ambiguous(level, hits.map(lineOfHit), hits.length), overlapping: true };
    }
  }
  if (!all) {
    const split = splitWord(subject, hay, hits[0], len, v.old);
    if (split) {
      cuts.push(split);
      return undefined;
    }
  }
  const notes = [...v.notes];
  const reps: Replacement[] = hits.map((h) => {
    const start = lf.toFile(h);
    const end = lf.toFile(h + len);
    const eol = subject.eolFor(start, end);
    let t = text(h);
    const map = deeperLine(hay, h, v);
    if (map) {
      t = t
        .split('\n')
        .map((l, k) => (k === 0 ? l : reindent(l, map)))
        .join('\n');
      const note = `old_string's indentation differs from the file's (${describeIndentMap(map)}); new_string was re-indented the same way`;
      if (!notes.includes(note)) {
        notes.push(note);
      }
    }
    return { start, end, text: eol === '\n' ? t : t.replace(/\n/g, eol), line: subject.lineOf(start) + 1, endLine: subject.lineOf(Math.max(start, end - 1)) + 1 };
  });
  const warnings: string[] = [];
  const shallow = shallowerLines(hay, hits[0], v, reps[0].line);
  if (shallow) {
    warnings.push(shallow);
  }
  if (all) {
    const inside = hits.filter((h) => (isWordChar(hay, h - 1) && isWordChar(hay, h)) || (isWordChar(hay, h + len - 1) && isWordChar(hay, h + len)));
    if (inside.length > 0) {
      warnings.push(`${inside.length} of the ${hits.length} places ${inside.length === 1 ? 'is' : 'are'} inside a longer word (${listLines(inside.map(lineOfHit))}) and ${inside.length === 1 ? 'was' : 'were'} replaced too.`);
    }
  }
  const places = reps.map((r) => ({ startLine: r.line, endLine: r.endLine }));
  // A re-indented exact place is no longer the text as given.
  const reindented = notes.length > v.notes.length;
  return found(subject, reindented && level === 'exact' ? 'indentation-flexible' : level, reps, places, notes, warnings, v);
}

/**
 * The re-indentation of new_string's later lines when a one-line old_string that starts
 * with indentation was found inside a deeper indentation: the model gave the line's
 * indentation as it believed it, so the lines it adds are shifted by what it left out.
 */
function deeperLine(hay: string, hit: number, v: Variant): IndentMap | undefined {
  const own = leadingWhitespace(v.old);
  if (own.length === 0 || v.old.includes('\n') || !v.new.includes('\n')) {
    return undefined;
  }
  const lineStart = hay.lastIndexOf('\n', hit - 1) + 1;
  const lead = hay.slice(lineStart, hit);
  if (lead.length === 0 || !/^[ \t]+$/.test(lead)) {
    return undefined;
  }
  const whole = lead + own;
  return { oldBase: indentWidth(own), fileBase: indentWidth(whole), num: 1, den: 1, tabs: whole.includes('\t'), identity: false };
}

/**
 * A warning when old_string began after the indentation of its line and the lines
 * new_string adds are indented less than that line: they are written as given, which is
 * right for a block that ends there and wrong when the model meant them relative to it.
 */
function shallowerLines(hay: string, hit: number, v: Variant, line: number): string | undefined {
  const lineStart = hay.lastIndexOf('\n', hit - 1) + 1;
  const lead = hay.slice(lineStart, hit);
  const added = v.new.split('\n').slice(1).filter((l) => !isBlank(l));
  if (lead.length === 0 || !/^[ \t]+$/.test(lead) || /^[ \t]/.test(v.old) || v.old.includes('\n') || added.length === 0) {
    return undefined;
  }
  const width = indentWidth(lead);
  const less = added.filter((l) => indentWidth(leadingWhitespace(l)) < width);
  if (less.length === 0) {
    return undefined;
  }
  return `old_string starts after the ${width}-column indentation of line ${line}, and ${less.length === added.length ? 'the lines' : `${less.length} of the lines`} new_string adds after its first are indented less; they were written as given. Check their indentation.`;
}

function isWordChar(s: string, i: number): boolean {
  return i >= 0 && i < s.length && /[\p{L}\p{N}_$]/u.test(s[i]);
}

/** A letter of a script that separates words with spaces, a digit or an underscore: what names and numbers are made of. */
const NAME_CHAR = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Nd}_]/u;

function nameChar(s: string, i: number): boolean {
  return i >= 0 && i < s.length && NAME_CHAR.test(s[i]);
}

function digit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** Whether the boundary before s[b] cuts a name or a number (`10|00`, `max|Count`, `1|.5`, `1.|5`) in two. */
function cutsName(s: string, b: number): boolean {
  return (nameChar(s, b - 1) && nameChar(s, b)) || (digit(s, b - 1) && s[b] === '.' && digit(s, b + 1)) || (s[b - 1] === '.' && digit(s, b - 2) && digit(s, b));
}

/**
 * "Not found" when the one place old_string is at begins or ends inside a longer name or
 * number of the file (`timeout = 100` in `timeout = 1000`, `Count` in `maxCount`): names and
 * numbers are matched whole, so a copy that lost a digit never edits the wrong value.
 */
function splitWord(subject: Subject, hay: string, hit: number, len: number, old: string): NotFound | undefined {
  const atStart = cutsName(hay, hit);
  if (!atStart && !cutsName(hay, hit + len)) {
    return undefined;
  }
  const b = atStart ? hit : hit + len;
  const lineStart = hay.lastIndexOf('\n', b - 1) + 1;
  const nl = hay.indexOf('\n', b);
  const lineEnd = nl === -1 ? hay.length : nl;
  let ws = b;
  while (ws > lineStart && (nameChar(hay, ws - 1) || (hay[ws - 1] === '.' && digit(hay, ws - 2) && digit(hay, ws)))) {
    ws--;
  }
  let we = b;
  while (we < lineEnd && (nameChar(hay, we) || (hay[we] === '.' && digit(hay, we - 1) && digit(hay, we + 1)))) {
    we++;
  }
  const word = hay.slice(ws, we);
  const lf = subject.lf;
  const line = subject.lineOf(lf.toFile(b)) + 1;
  const oldLines = old.split('\n');
  const expected = atStart ? oldLines[0] : oldLines[oldLines.length - 1];
  const actual = subject.content.slice(subject.table.starts[line - 1], subject.table.ends[line - 1]);
  return {
    ok: false,
    reason: 'not-found',
    closest: { startLine: subject.lineOf(lf.toFile(hit)) + 1, endLine: subject.lineOf(lf.toFile(Math.max(hit, hit + len - 1))) + 1, line, expected, actual, difference: 'text' },
    hint: `The file has old_string only as part of a longer name or number: it ${atStart ? 'starts' : 'ends'} inside ${JSON.stringify(word)} at line ${line}. Names and numbers must match whole; give all of ${JSON.stringify(word)} in old_string (and new_string).`,
  };
}

// ---------------------------------------------------------------------------------------
// Line levels: trimmed-boundary, line-trimmed, indentation-flexible, whitespace-normalized,
// unicode-normalized, block-anchor.

/** old_string's and new_string's whole lines, without the blank lines around old_string (and as many around new_string). */
interface Core {
  old: string[];
  new: string[];
  /** Blank lines dropped around old_string. */
  trimmed: number;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') {
    lines.pop();
  }
  return lines;
}

function coreOf(oldText: string, newText: string): Core | undefined {
  const o = splitLines(oldText);
  let lead = 0;
  while (lead < o.length && isBlank(o[lead])) {
    lead++;
  }
  if (lead === o.length) {
    return undefined;
  }
  let trail = 0;
  while (isBlank(o[o.length - 1 - trail])) {
    trail++;
  }
  const n = splitLines(newText);
  let nLead = 0;
  while (nLead < n.length && nLead < lead && isBlank(n[nLead])) {
    nLead++;
  }
  let nTrail = 0;
  while (nTrail < n.length - nLead && nTrail < trail && isBlank(n[n.length - 1 - nTrail])) {
    nTrail++;
  }
  return { old: o.slice(lead, o.length - trail), new: n.slice(nLead, n.length - nTrail), trimmed: lead + trail };
}

/** One place a line level found, with how it pairs with old_string and what it needed. */
interface Placed {
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
function substancePlaces(subject: Subject, lines: readonly string[]): number[] {
  const { ids, wanted, present } = subject.encode(lines.filter((l) => !isBlank(l)).map(substanceKey));
  return present.every(Boolean) ? findSequence(ids, wanted, MAX_EDIT_PLACES, subject.signal) : [];
}

function lineLevels(subject: Subject, v: Variant, all: boolean, levelName?: MatchLevel): FindResult | undefined {
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
  const placeAt = (at: number) => place(subject, core, lines[at], lines[at + withText - 1], at);
  const listed = (ps: Placed[]) => ps.map((p) => p.pairing.s + 1);
  if (!all) {
    if (starts.length > 1) {
      // The level named is the one at which the first two places are both found.
      const level = ORDER[Math.max(...starts.slice(0, 2).map((at) => rank(placeAt(at).level)))];
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
      return { ...ambiguous(levelName ?? ORDER[best], listed(chosen), chosen.length), overlapping: true };
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
 * "Not found" for a place whose lines say the same as old_string's but are indented in
 * another shape (in Python, other code): the closest region is that place, and the line
 * named is the first whose indentation breaks the shape of the lines before it.
 */
function indentationMismatch(subject: Subject, old: readonly string[], pairing: BlockPairing): FindFailure {
  const table = subject.table;
  const pairs: [string, string][] = [];
  const at: number[] = [];
  for (let j = 0; j < old.length; j++) {
    if (pairing.from[j] >= 0 && !isBlank(old[j]) && pairing.from[j] === pairing.to[j]) {
      pairs.push([old[j], table.text(pairing.from[j])]);
      at.push(pairing.from[j]);
    }
  }
  // The shortest run of lines from the first that has no map: a longer run never has one.
  let lo = 1;
  let hi = pairs.length;
  if (indentMap(pairs, () => false)) {
    return { ok: false, reason: 'not-found' };
  }
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (indentMap(pairs.slice(0, mid), () => false)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  const [expected, actual] = pairs[lo - 1];
  return { ok: false, reason: 'not-found', closest: { startLine: pairing.s + 1, endLine: pairing.e + 1, line: at[lo - 1] + 1, expected, actual, difference: 'indentation' } };
}

/** Pairs old_string's lines with the block s..e and works out the tolerance the place needs. */
function place(subject: Subject, core: Core, s: number, e: number, at: number): Placed {
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
  const t = tolerances(subject, old, pairing);
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
function tolerances(subject: Subject, old: readonly string[], pairing: BlockPairing): { level: MatchLevel; notes: string[]; adapt?: LineAdaptation } {
  const table = subject.table;
  let trailing = false;
  let extraTrailing = false;
  let indent = false;
  let inner = false;
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
  if (typography) {
    notes.push("matched typographic quotes, dashes or spaces to their ASCII forms; unchanged text keeps the file's");
  }
  const level: MatchLevel = typography ? 'unicode-normalized' : inner ? 'whitespace-normalized' : indent ? 'indentation-flexible' : trailing ? 'line-trimmed' : 'trimmed-boundary';
  if (!map) {
    return { level, notes };
  }
  return { level, notes, adapt: { indent: map, trimTrailing: extraTrailing, keepFormat: typography || inner } };
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

function foundBlocks(subject: Subject, core: Core, v: Variant, chosen: Placed[], levelName: MatchLevel | undefined, warnings: string[], elisions?: boolean[]): FindResult {
  const table = subject.table;
  const reps: Replacement[] = [];
  const notes = [...v.notes];
  for (const p of chosen) {
    const proj = projectBlock(table, core.old, core.new, p.pairing, p.adapt, elisions);
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
    for (const note of p.notes) {
      if (!notes.includes(note)) {
        notes.push(note);
      }
    }
  }
  const places = chosen.map((p) => ({ startLine: p.pairing.s + 1, endLine: p.pairing.e + 1 }));
  return found(subject, levelName ?? chosen[0].level, reps, places, notes, warnings, v);
}

// ---------------------------------------------------------------------------------------
// Context-aware: old_string with elision lines (`// ... existing code ...`).

/** A block of the file a part may be: position of its first line among the file's lines with text, first and last file line. */
interface Cand {
  at: number;
  s: number;
  e: number;
}

interface Part {
  /** Indices into the core lines. */
  from: number;
  to: number;
  cands: Cand[];
}

/**
 * What the elision between two parts may stand for, from the indentation old_string shows
 * around it (widths in old_string's columns). The left-out lines stay inside the block the
 * shown lines are in: none is shallower than the elision line says (as deep as the line
 * before it when the elision is as deep, deeper when it is deeper; the same with the line
 * after), and none closes the block that holds the line after it (its opener is the nearest
 * line before with less indentation).
 */
interface Gap {
  /** The elision line, the last line with text before it and the first after it (indices into the core lines). */
  line: number;
  before: number;
  after: number;
  /** The opener of the line after, when it is in the part just before; its ordinal among that part's lines with text, else -1. */
  opener: number;
}

/** The least indentation (file columns) the left-out lines may have, from what is known of the file around them. */
function gapFloor(old: readonly string[], g: Gap, fBefore: number, fAfter: number | undefined, fOpener: number | undefined): number {
  const w = (j: number) => indentWidth(leadingWhitespace(old[j]));
  const e = w(g.line);
  let floor = fOpener === undefined ? -Infinity : fOpener + 1;
  const side = (ws: number, fs: number) => (e > ws ? fs + 1 : e === ws ? fs : -Infinity);
  floor = Math.max(floor, side(w(g.before), fBefore));
  if (fAfter !== undefined) {
    floor = Math.max(floor, side(w(g.after), fAfter));
  }
  return floor;
}

function elided(subject: Subject, v: Variant, all: boolean, cuts: NotFound[]): FindResult | undefined {
  const core = coreOf(v.old, v.new);
  if (!core) {
    return undefined;
  }
  // Elisions at either end stand for nothing old_string would change: drop them.
  // `kept`: the elisions dropped from old_string that new_string has at the same end too.
  let dropped = 0;
  let kept = 0;
  while (core.old.length > 0 && (isElision(core.old[0]) || isBlank(core.old[0]))) {
    if (core.new.length > 0 && isElision(core.new[0]) && isElision(core.old[0])) {
      core.new.shift();
      kept++;
    }
    dropped += isElision(core.old[0]) ? 1 : 0;
    core.old.shift();
  }
  while (core.old.length > 0 && (isElision(core.old[core.old.length - 1]) || isBlank(core.old[core.old.length - 1]))) {
    if (core.new.length > 0 && isElision(core.new[core.new.length - 1]) && isElision(core.old[core.old.length - 1])) {
      core.new.pop();
      kept++;
    }
    dropped += isElision(core.old[core.old.length - 1]) ? 1 : 0;
    core.old.pop();
  }
  const elisions = core.old.map(isElision);
  if (!elisions.includes(true)) {
    // Only a "..." before or after the lines, kept in new_string: the lines are the whole edit. One new_string
    // does not keep may have meant the lines it stands for to go, or a "..." line the file does not have.
    if (dropped === 0 || kept < dropped || core.old.length === 0) {
      return undefined;
    }
    const inner: Variant = { old: core.old.join('\n'), new: core.new.join('\n'), notes: [...v.notes, `ignored the "..." ${dropped === 1 ? 'line' : 'lines'} at the start or end of old_string (the lines beyond it are left as they are)`] };
    return substring(subject, inner, 'context-aware', all, cuts) ?? lineLevels(subject, inner, all, 'context-aware');
  }
  if (all) {
    return { ok: false, reason: 'invalid', message: 'old_string leaves lines out with "...", which replace_all cannot use: give the full text, or edit one place at a time without replace_all.' };
  }
  const parts: Part[] = [];
  for (let j = 0; j < core.old.length; ) {
    if (elisions[j]) {
      j++;
      continue;
    }
    let k = j;
    while (k < core.old.length && !elisions[k]) {
      k++;
    }
    const lines = core.old.slice(j, k);
    if (lines.some((l) => !isBlank(l))) {
      const withText = lines.filter((l) => !isBlank(l)).length;
      const idx = subject.index.lines;
      const cands = substancePlaces(subject, lines).map((at) => ({ at, s: idx[at], e: idx[at + withText - 1] }));
      if (cands.length === 0) {
        return undefined;
      }
      parts.push({ from: j, to: k - 1, cands });
    }
    j = k;
  }
  const gaps = parts.slice(1).map((next, i) => gapBetween(core.old, elisions, parts[i], next));
  const widths = new FileWidths(subject);
  let chain = uniqueChain(parts, (i, p, budget, visit) => linkInside(widths, core.old, gaps[i], p, parts[i + 1].cands, budget, visit));
  if (chain === undefined) {
    // No way keeps the left-out lines inside their block; one that does not names the line that leaves it.
    chain = uniqueChain(parts, (i, p, budget, visit) => linkNear(p, parts[i + 1].cands, budget, visit));
    if (!chain?.picks) {
      return undefined;
    }
  }
  if (chain.lines) {
    return ambiguous('context-aware', chain.lines, chain.lines.length);
  }
  const picks = chain.picks!;
  // Pair each part with its block; each elision stands for the lines between its parts.
  const n = core.old.length;
  const from = new Int32Array(n).fill(-1);
  const to = new Int32Array(n).fill(-1);
  const table = subject.table;
  let elidedLines = 0;
  parts.forEach((part, i) => {
    const c = part.cands[picks[i]];
    let f = c.s;
    for (let j = part.from; j <= part.to; j++) {
      if (isBlank(core.old[j])) {
        continue;
      }
      while (isBlank(table.text(f))) {
        f++;
      }
      from[j] = to[j] = f++;
    }
    if (i + 1 < parts.length) {
      const next = parts[i + 1].cands[picks[i + 1]];
      const j = gaps[i].line;
      from[j] = c.e + 1;
      to[j] = next.s - 1;
      elidedLines += to[j] - from[j] + 1;
    }
  });
  const s = parts[0].cands[picks[0]].s;
  const e = parts[parts.length - 1].cands[picks[parts.length - 1]].e;
  const pairing: BlockPairing = { s, e, from, to };
  const shown = core.old.map((l, j) => (elisions[j] ? '' : l));
  const shownPairing = { ...pairing, from: from.map((f, j) => (elisions[j] ? -1 : f)) };
  const t = tolerances(subject, shown, shownPairing);
  if (!t.adapt) {
    return indentationMismatch(subject, shown, shownPairing);
  }
  const outside = elisionOutside(subject, widths, core.old, pairing, elisions, t.adapt.indent);
  if (outside) {
    return outside;
  }
  const notes = [`kept the ${plural(elidedLines, 'line')} old_string left out with "..." unchanged`, ...t.notes];
  const placed: Placed = { pairing, level: 'context-aware', adapt: t.adapt, notes, at: parts[0].cands[picks[0]].at };
  return foundBlocks(subject, core, v, [placed], 'context-aware', [], elisions);
}

/** The elision between two parts (the first, when old_string has several in a row) and the lines around it. */
function gapBetween(old: readonly string[], elisions: readonly boolean[], prev: Part, next: Part): Gap {
  let line = prev.to + 1;
  while (!elisions[line]) {
    line++;
  }
  let before = prev.to;
  while (isBlank(old[before])) {
    before--;
  }
  let after = next.from;
  while (isBlank(old[after])) {
    after++;
  }
  // The opener of the line after: the nearest line before the elision that is less indented.
  const wAfter = indentWidth(leadingWhitespace(old[after]));
  let opener = -1;
  let ordinal = old.slice(prev.from, before + 1).filter((l) => !isBlank(l)).length;
  for (let j = before; j >= prev.from; j--) {
    if (isBlank(old[j])) {
      continue;
    }
    ordinal--;
    if (indentWidth(leadingWhitespace(old[j])) < wAfter) {
      opener = ordinal;
      break;
    }
  }
  return { line, before, after, opener };
}

/** Indentation width of each file line, worked out when first asked; -1 for a blank line. */
class FileWidths {
  private readonly w: Int32Array;

  constructor(readonly subject: Subject) {
    this.w = new Int32Array(subject.table.count).fill(-2);
  }

  of(line: number): number {
    if (this.w[line] === -2) {
      const t = this.subject.table.text(line);
      this.w[line] = isBlank(t) ? -1 : indentWidth(leadingWhitespace(t));
    }
    return this.w[line];
  }
}

/** What chaining parts may still cost, in file lines and candidates looked at. */
interface Budget {
  left: number;
}

/**
 * Calls `visit` with each block of the next part that can follow block `p` across the gap:
 * within {@link MAX_EDIT_ELIDED_LINES}, and with every left-out line at least as indented as
 * the gap allows. Walks the file from `p` only as far as a bound needs it, and stops at the
 * first line that leaves the block. False when the budget ran out.
 */
function linkInside(widths: FileWidths, old: readonly string[], g: Gap, p: Cand, next: readonly Cand[], budget: Budget, visit: (q: number) => void): boolean {
  const index = widths.subject.index.lines;
  const fBefore = widths.of(p.e);
  const fOpener = g.opener >= 0 ? widths.of(index[p.at + g.opener]) : undefined;
  const low = gapFloor(old, g, fBefore, undefined, fOpener);
  // Lines at the cursor and before it (back to p) have been looked at; `min` is their least indentation.
  let cursor = p.e + 1;
  let min = Infinity;
  for (let q = firstStartAbove(next, p.e); q < next.length && next[q].s - p.e - 1 <= MAX_EDIT_ELIDED_LINES; q++) {
    if (--budget.left < 0) {
      return false;
    }
    const floor = Math.max(low, gapFloor(old, g, fBefore, widths.of(next[q].s), fOpener));
    // No line has less than no indentation: a floor of 0 or less needs no look at the lines.
    if (floor > 0) {
      budget.left -= next[q].s - cursor;
      if (budget.left < 0) {
        return false;
      }
      for (; cursor < next[q].s; cursor++) {
        const w = widths.of(cursor);
        if (w >= 0 && w < min) {
          min = w;
        }
      }
      if (min < low) {
        return true;
      }
      if (min < floor) {
        continue;
      }
    }
    visit(q);
  }
  return true;
}

/** Calls `visit` with each block of the next part that starts after `p` within {@link MAX_EDIT_ELIDED_LINES}. False when the budget ran out. */
function linkNear(p: Cand, next: readonly Cand[], budget: Budget, visit: (q: number) => void): boolean {
  for (let q = firstStartAbove(next, p.e); q < next.length && next[q].s - p.e - 1 <= MAX_EDIT_ELIDED_LINES; q++) {
    if (--budget.left < 0) {
      return false;
    }
    visit(q);
  }
  return true;
}

/**
 * An elision line stands for lines inside the block it is shown in: a left-out range holding
 * a line that leaves it (the end of the block, the next function) spans more than the model
 * meant, as when the part after it is found in the next function. "Not found" then, with
 * that line.
 */
function elisionOutside(subject: Subject, widths: FileWidths, old: readonly string[], pairing: BlockPairing, elisions: readonly boolean[], map: IndentMap): FindFailure | undefined {
  const table = subject.table;
  const w = (j: number) => indentWidth(leadingWhitespace(old[j]));
  for (let j = 0; j < old.length; j++) {
    if (!elisions[j] || pairing.to[j] < pairing.from[j]) {
      continue;
    }
    // The elision's own depth in the file's columns, and what the lines around it allow.
    const depth = map.fileBase + ((w(j) - map.oldBase) * map.num) / map.den;
    let before = j - 1;
    while (before >= 0 && (elisions[before] || isBlank(old[before]))) {
      before--;
    }
    let after = j + 1;
    while (after < old.length && (elisions[after] || isBlank(old[after]))) {
      after++;
    }
    let floor = depth;
    if (before >= 0 && after < old.length) {
      let opener = before;
      while (opener >= 0 && (elisions[opener] || isBlank(old[opener]) || w(opener) >= w(after))) {
        opener--;
      }
      const g: Gap = { line: j, before, after, opener: -1 };
      floor = Math.max(floor, gapFloor(old, g, widths.of(pairing.to[before]), widths.of(pairing.from[after]), opener >= 0 ? widths.of(pairing.to[opener]) : undefined));
    }
    for (let f = pairing.from[j]; f <= pairing.to[j]; f++) {
      const fw = widths.of(f);
      if (fw >= 0 && fw < floor) {
        return { ok: false, reason: 'not-found', closest: { startLine: pairing.s + 1, endLine: pairing.e + 1, line: f + 1, expected: old[j], actual: table.text(f), difference: 'text' } };
      }
    }
  }
  return undefined;
}

type Link = (i: number, p: Cand, budget: Budget, visit: (q: number) => void) => boolean;

/**
 * The one way to pick a block for every part, in order, each linked to the previous by
 * `link`; `lines` lists the first lines of the competing blocks when there are several ways
 * (or too many to tell within {@link MAX_EDIT_ELISION_STEPS}), undefined when there is none.
 */
function uniqueChain(parts: Part[], link: Link): { picks?: number[]; lines?: number[] } | undefined {
  const budget: Budget = { left: MAX_EDIT_ELISION_STEPS };
  const tooMany = () => ({ lines: parts[0].cands.map((p) => p.s + 1) });
  // ways[i][c]: ways (saturated at 2) to place parts 0..i with part i at candidate c.
  const ways: Uint8Array[] = [Uint8Array.from(parts[0].cands, () => 1)];
  for (let i = 0; i + 1 < parts.length; i++) {
    const w = new Uint8Array(parts[i + 1].cands.length);
    for (let c = 0; c < parts[i].cands.length; c++) {
      const here = ways[i][c];
      if (here > 0 && !link(i, parts[i].cands[c], budget, (q) => (w[q] = Math.min(2, w[q] + here)))) {
        return tooMany();
      }
    }
    ways.push(w);
  }
  const n = parts.length;
  const last = ways[n - 1];
  const total = last.reduce((a, b) => Math.min(2, a + b), 0);
  if (total === 0) {
    return undefined;
  }
  // Whether candidate c of part i links to a block of part i + 1 that `ok` accepts; undefined when the budget ran out.
  const links = (i: number, c: number, ok: (q: number) => boolean): boolean | undefined => {
    let hit = false;
    return link(i, parts[i].cands[c], budget, (q) => (hit ||= ok(q))) ? hit : undefined;
  };
  if (total === 1) {
    const picks = new Array<number>(n);
    picks[n - 1] = last.indexOf(1);
    for (let i = n - 2; i >= 0; i--) {
      let pick = -1;
      for (let c = 0; c < parts[i].cands.length && pick < 0; c++) {
        const hit = ways[i][c] > 0 ? links(i, c, (q) => q === picks[i + 1]) : false;
        if (hit === undefined) {
          return tooMany();
        }
        pick = hit ? c : -1;
      }
      picks[i] = pick;
    }
    return { picks };
  }
  // Several ways: name the first lines of the first part's blocks that start one.
  let reach = Array.from(last, (w) => w > 0);
  for (let i = n - 2; i >= 0; i--) {
    const after = reach;
    const here: boolean[] = [];
    for (let c = 0; c < parts[i].cands.length; c++) {
      const hit = ways[i][c] > 0 ? links(i, c, (q) => after[q]) : false;
      if (hit === undefined) {
        return tooMany();
      }
      here.push(hit);
    }
    reach = here;
  }
  const lines = parts[0].cands.filter((_, c) => reach[c]).map((p) => p.s + 1);
  return { lines: lines.length > 1 ? lines : parts[n - 1].cands.filter((_, c) => last[c] > 0).map((q) => q.s + 1) };
}

/** Index of the first candidate (sorted by start) whose start is above `line`. */
function firstStartAbove(cands: readonly { s: number }[], line: number): number {
  let lo = 0;
  let hi = cands.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cands[mid].s <= line) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// ---------------------------------------------------------------------------------------

function found(subject: Subject, level: MatchLevel, reps: Replacement[], places: FoundEdit['places'], adjustments: string[], warnings: string[], v: Variant): FindResult {
  if (reps.length === 0 || reps.every((r) => subject.content.slice(r.start, r.end) === r.text)) {
    return {
      ok: false,
      reason: 'invalid',
      message: level === 'exact' ? 'new_string gives the text the file already has, so there is nothing to change.' : `old_string matched (${adjustments.join('; ') || level}), and new_string gives the text the file already has, so there is nothing to change.`,
    };
  }
  if (v.new.indexOf('\n') === -1 && /\\n(?: {2}|\t)/.test(v.new) && !/\\n/.test(v.old)) {
    warnings.push('new_string has no line break but has \\n followed by indentation; if you meant line breaks, send them as line breaks, not as \\n.');
  }
  const elisions = splitLines(v.new).filter(isElision);
  const elision = elisions.length > splitLines(v.old).filter(isElision).length ? elisions[0] : undefined;
  if (elision) {
    warnings.push(`new_string has the line ${JSON.stringify(elision.trim())}, which is written into the file as is; if it stands for code to keep, give that code instead.`);
  }
  return { ok: true, level, exact: level === 'exact', replacements: reps, places, adjustments, warnings };
}

function ambiguous(level: MatchLevel, lines: number[], count: number): Ambiguous {
  return { ok: false, reason: 'ambiguous', level, lines: lines.slice(0, 1000), count };
}

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

function listLines(lines: number[]): string {
  const shown = lines.slice(0, 10);
  return `line${lines.length === 1 ? '' : 's'} ${shown.join(', ')}${lines.length > shown.length ? `, and ${lines.length - shown.length} more` : ''}`;
}
