/** The answers the levels share: a match, several places, and the words they are told in. */
import type { Ambiguous, FindResult, FoundEdit, MatchLevel, Replacement } from './types';
import { isElision } from './normalize';
import type { Subject } from './subject';
import { splitLines, type Variant } from './variant';

/** The answer for the places a level found: a match, or "nothing to change" when new_string is what the file has. */
export function found(subject: Subject, level: MatchLevel, reps: Replacement[], places: FoundEdit['places'], adjustments: string[], warnings: string[], v: Variant): FindResult {
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

export function ambiguous(level: MatchLevel, lines: number[], count: number): Ambiguous {
  return { ok: false, reason: 'ambiguous', level, lines: lines.slice(0, 1000), count };
}

export function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

export function listLines(lines: number[]): string {
  const shown = lines.slice(0, 10);
  return `line${lines.length === 1 ? '' : 's'} ${shown.join(', ')}${lines.length > shown.length ? `, and ${lines.length - shown.length} more` : ''}`;
}
