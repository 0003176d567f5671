/**
 * The substring levels: old_string (or a variant of it) found as a run of characters of the
 * file, within a line or across lines: `exact`, `read-prefix`, `escape-normalized`, and
 * `unicode-normalized` for a phrase inside one line. A place that begins or ends inside a
 * longer name or number is no place.
 */
import { MAX_EDIT_PLACES } from '../limits';
import { describeIndentMap, indentWidth, reindent, type IndentMap } from './indent';
import { asciiTypography, isBlank, leadingWhitespace } from './normalize';
import { keepFormat } from './project';
import { ambiguous, found, listLines } from './result';
import { findAll } from './search';
import type { Subject } from './subject';
import type { FindResult, MatchLevel, NotFound, Replacement } from './types';
import type { Variant } from './variant';

export function substring(subject: Subject, v: Variant, level: MatchLevel, all: boolean, cuts: Cut[]): FindResult | undefined {
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
export function typographyInLine(subject: Subject, v: Variant, all: boolean, cuts: Cut[]): FindResult | undefined {
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

/** A place where old_string is, but only inside a longer name or number: the answer when no level finds another, and its range in the file. */
export interface Cut {
  found: NotFound;
  start: number;
  end: number;
  /** The name or number cut, and its line. */
  word: string;
  line: number;
}

/** The result of a substring level; undefined when its one place cuts a name or number (then put in `cuts`). */
function substringResult(subject: Subject, v: Variant, level: MatchLevel, all: boolean, { hay, needle, hits, complete }: Hits, text: (hit: number) => string, cuts: Cut[]): FindResult | undefined {
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
      cuts.push({ ...split, start: lf.toFile(hits[0]), end: lf.toFile(hits[0] + len) });
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
function splitWord(subject: Subject, hay: string, hit: number, len: number, old: string): { found: NotFound; word: string; line: number } | undefined {
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
  const found: NotFound = {
    ok: false,
    reason: 'not-found',
    closest: { startLine: subject.lineOf(lf.toFile(hit)) + 1, endLine: subject.lineOf(lf.toFile(Math.max(hit, hit + len - 1))) + 1, line, expected, actual, difference: 'text' },
    hint: `The file has old_string only as part of a longer name or number: it ${atStart ? 'starts' : 'ends'} inside ${JSON.stringify(word)} at line ${line}. Names and numbers must match whole; give all of ${JSON.stringify(word)} in old_string (and new_string).`,
  };
  return { found, word, line };
}
