/**
 * fs_edit's matching cascade: where old_string is in the file and what each place becomes.
 * The steps run in the order of {@link CASCADE}; each has a file of its own (`substring.ts`,
 * `blocks.ts`, `elision.ts`), with the rule of each level in `types.ts`.
 */
import { throwIfCancelled, type CancelSignal } from '../cancel';
import { ambiguous } from './result';
import { lineLevels } from './blocks';
import { closestRegion } from './closest';
import { elided } from './elision';
import { CASCADE, type Step } from './levels';
import { toLf } from './lines';
import { looksPrefixed, stripReadPrefixes, stripReadPrefixesLoose } from './normalize';
import { Subject } from './subject';
import { substring, typographyInLine, type Cut } from './substring';
import type { Ambiguous, EditRequest, FindResult, FoundEdit, PlanResult, RegionText, Replacement } from './types';
import { MAX_EDIT_PREVIEW_LINES, MAX_EDIT_PREVIEW_PLACES, MAX_EDIT_QUOTE_CHARS } from '../limits';
import { coreOf, splitLines, unescaped, type Variant } from './variant';

/**
 * Finds where `req.oldString` is in `content` and what each place becomes. The steps of
 * {@link CASCADE} are tried in order (see {@link MatchLevel}); the first that finds anything
 * decides: one place is the answer, several are ambiguous (unless `replaceAll`). Every
 * tolerant level requires old_string's substance (its lines with formatting ignored) to be
 * in the file once, so formatting never chooses between two copies of the same text.
 * @throws CancelledError when `signal` is cancelled.
 */
export function findEdit(content: string, req: EditRequest, signal?: CancelSignal): FindResult {
  throwIfCancelled(signal);
  const subject = new Subject(content, signal);
  const r = cascade(subject, req);
  return r.ok || r.reason !== 'ambiguous' || r.readings || r.cutReading || r.overlapping ? r : { ...r, previews: previews(subject, r.lines) };
}

/**
 * The first lines of the first places (from the line above each, which often tells them
 * apart: a function's header), each cut to MAX_EDIT_QUOTE_CHARS.
 */
function previews(subject: Subject, lines: readonly number[]): RegionText[] {
  const table = subject.table;
  return lines.slice(0, MAX_EDIT_PREVIEW_PLACES).map((line) => {
    const first = Math.max(0, line - 2);
    const last = Math.min(table.count - 1, line + MAX_EDIT_PREVIEW_LINES - 3);
    const shown: string[] = [];
    for (let i = first; i <= last; i++) {
      const t = table.text(i);
      shown.push(t.length > MAX_EDIT_QUOTE_CHARS ? `${t.slice(0, MAX_EDIT_QUOTE_CHARS)}... (${t.length} characters)` : t);
    }
    return { startLine: first + 1, lines: shown, cut: last < table.count - 1 };
  });
}

function cascade(subject: Subject, req: EditRequest): FindResult {
  if (req.oldString.length === 0) {
    return { ok: false, reason: 'invalid', message: 'old_string is empty.' };
  }
  const base: Variant = { old: toLf(req.oldString), new: toLf(req.newString), notes: [] };
  if (base.old === base.new) {
    return { ok: false, reason: 'invalid', message: 'old_string and new_string are the same, so there is nothing to change.' };
  }
  const all = req.replaceAll === true;
  // A place found only inside a longer name or number is no place; it is what "not found" says when no level finds another.
  const cuts: Cut[] = [];
  const prefixed = stripReadPrefixes(base.old);
  const work: Variant = prefixed
    ? { old: prefixed.text, new: prefixed.stripNew(base.new), notes: [`removed the ${prefixed.shown} line-number prefixes copied from ${prefixed.from}`] }
    : base;
  const run: Record<Step, () => FindResult | undefined> = {
    exact: () => substring(subject, base, 'exact', all, cuts),
    'read-prefix': () => (prefixed ? substring(subject, work, 'read-prefix', all, cuts) : undefined),
    lines: () => lineLevels(subject, work, all),
    'typography-in-line': () => typographyInLine(subject, work, all, cuts),
    escaped: () => {
      for (const v of unescaped(work)) {
        const r = substring(subject, v, 'escape-normalized', all, cuts) ?? lineLevels(subject, v, all, 'escape-normalized');
        if (r) {
          return r;
        }
      }
      return undefined;
    },
    elided: () => elided(subject, work, all, cuts),
  };
  // A file whose lines really begin with `L{n}: ` (fs_read output kept as a fixture) may hold old_string as written.
  let literal: FindResult | undefined | null = null;
  const asWritten = () => (literal ??= prefixed ? (lineLevels(subject, base, all) ?? typographyInLine(subject, base, all, [])) : undefined);
  // an exact place whose first line lost some or all of its indentation: whole lines decide where the two readings differ
  let deferred: FindResult | undefined;
  for (const { step } of CASCADE) {
    const r = run[step]();
    if (!r) {
      continue;
    }
    // The text as given, found exactly, is never a second reading, unless it starts in a line's indentation (below).
    if (step === 'exact') {
      if (r.ok && startsInIndentation(subject, r, base)) {
        deferred = r;
        continue;
      }
      return r;
    }
    // The deferred exact place is taken as whole lines only where the lines read it alone, at
    // that place, and write other text; anything else (another place, several, none, the same
    // text) keeps the text as written.
    if (deferred?.ok) {
      return r.ok && samePlace(deferred, r) && !sameResult(subject.content, deferred, r) ? r : deferred;
    }
    // Where old_string is as written, inside a longer name or number, a looser reading of it
    // that takes in that place is the same text read two ways: neither is picked.
    const cut = r.ok ? cuts.find((c) => r.replacements.some((rep) => rep.start < c.end && c.start < rep.end)) : undefined;
    if (cut && r.ok) {
      return { ...ambiguous(r.level, r.places.map((p) => p.startLine), r.places.length), cutReading: { word: cut.word, line: cut.line } };
    }
    const lit = asWritten();
    if (lit && (r.ok || r.reason === 'ambiguous')) {
      return twoReadings(lit, r);
    }
    if (r.ok && prefixed) {
      checkPrefixLines(r, prefixed.first, prefixed.first + splitLines(base.old).length - 1);
    }
    return r;
  }
  const lit = asWritten();
  if (lit) {
    return lit;
  }
  if (deferred) {
    return deferred;
  }
  subject.checkCancelled();
  if (cuts.length > 0) {
    return cuts[0].found;
  }
  // A half-prefixed copy is still placed by its text.
  const core = coreOf(!prefixed && looksPrefixed(work.old) ? stripReadPrefixesLoose(work.old) : work.old, work.new);
  const closest = core ? closestRegion(subject, core.old) : undefined;
  const hint = !prefixed && looksPrefixed(base.old) ? 'old_string starts with an `L{n}: ` prefix from fs_read output, but not every line has one or the numbers skip; copy the text without the prefixes.' : undefined;
  return { ok: false, reason: 'not-found', ...(closest ? { closest } : {}), ...(hint ? { hint } : {}) };
}

/**
 * An exact place of a multi-line old_string that is whole lines but for part or all of the
 * first line's indentation (it starts inside that line's indentation, after at least one of
 * its characters, and ends at a line's end): the model copied whole lines, the first
 * without some of its indentation. Replacing the text as given would write new_string's
 * first line after the file's leftover indentation (`  ` + `  x`) and its added lines in
 * another frame than the first line's; read as whole lines, the line levels carry each
 * line's indentation over (the first line's off by what it lost).
 */
function startsInIndentation(subject: Subject, r: FoundEdit, v: Variant): boolean {
  const firstEnd = v.old.indexOf('\n');
  if (r.replacements.length !== 1 || firstEnd === -1 || v.old.slice(0, firstEnd).trim() === '') {
    return false;
  }
  const { start, end } = r.replacements[0];
  // the line's start found by looking back, not through the line table: an exact match never builds it
  const before = subject.content.slice(subject.content.lastIndexOf('\n', start - 1) + 1, start);
  // whole lines: from inside the indentation to a line's end
  const c = subject.content;
  return before.length > 0 && before.trim() === '' && (end === c.length || c[end] === '\n' || c[end] === '\r' || c[end - 1] === '\n');
}

/** Whether two results each found one place, the same lines (the changes inside it may be several). */
function samePlace(a: FoundEdit, b: FoundEdit): boolean {
  const [x] = a.places;
  const [y] = b.places;
  return a.places.length === 1 && b.places.length === 1 && x.startLine === y.startLine && x.endLine === y.endLine;
}

/** Whether two results write the same file (each applied to `content`). */
function sameResult(content: string, a: FoundEdit, b: FoundEdit): boolean {
  return applyReplacements(content, a.replacements) === applyReplacements(content, b.replacements);
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
