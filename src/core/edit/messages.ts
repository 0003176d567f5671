import { callText, tryLine } from '../contract';
import { MAX_EDIT_PLACES_LISTED, MAX_EDIT_QUOTE_CHARS, MAX_READ_LINES } from '../limits';
import type { ClosestRegion, FindFailure, FoundEdit, MatchLevel } from './types';

/** Which edit of an `edits` list failed, to say so and that none was applied. */
export interface EditPosition {
  /** 0-based. */
  index: number;
  count: number;
}

/** What a level ignored, as said after "when": the message for several places names it. */
const IGNORING: Record<MatchLevel, string> = {
  exact: '',
  'read-prefix': ' once the `L{n}: ` prefixes are removed',
  'trimmed-boundary': ' once the blank lines around it are dropped',
  'line-trimmed': ' when trailing whitespace is ignored',
  'indentation-flexible': ' when indentation is ignored',
  'whitespace-normalized': ' when whitespace is ignored',
  'unicode-normalized': ' when whitespace and typographic quotes or dashes are ignored',
  'block-anchor': ' when whitespace and blank lines are ignored',
  'escape-normalized': ' once its escapes (\\n, \\") are undone',
  'context-aware': ' around its "..." lines',
};

/**
 * Where an edit failed, when the text searched is not a whole file: the words that name it
 * (`x.ipynb (cell 3)`), and the path (as the model gave it) or the call that reads it.
 */
export interface FailurePlace {
  label: string;
  /** The file's path in a `Try: fs_read` call, when the lines searched are the file's own. */
  path?: string;
  /** The `Try:` line that reads lines first..last (1-based, of the text searched), when a call other than the file's own reads them. */
  read?: (first?: number, last?: number) => string;
}

/**
 * The message the model reads when an edit cannot be made: what happened, where, and the
 * call to make next. "Not found" and "several places" are different messages. The call
 * suggested is valid as written: it reads the file by the path given, or as `where` says.
 */
export function describeFailure(failure: FindFailure, where: string | FailurePlace, position?: EditPosition): string {
  const place = typeof where === 'string' ? { label: where, path: where } : where;
  const read = place.read ?? ((first?: number, last?: number) => readCall(place.path ?? place.label, first, last));
  const lines = [...body(failure, place.label, read)];
  // a suggested call comes last
  const tryCall = lines[lines.length - 1].startsWith('Try: ') ? lines.pop() : undefined;
  if (position && position.count > 1) {
    lines[0] = `Edit ${position.index + 1} of ${position.count}: ${lines[0]}`;
    lines.push(`None of the ${position.count} edits was applied; fix this one and send them all again.`);
  }
  if (tryCall) {
    lines.push(tryCall);
  }
  return lines.join('\n');
}

function body(f: FindFailure, path: string, read: (first?: number, last?: number) => string): string[] {
  switch (f.reason) {
    case 'invalid':
      return [f.message];
    case 'not-found': {
      const out = [`old_string was not found in ${path}.`];
      if (f.hint) {
        out.push(f.hint);
      }
      if (!f.closest) {
        out.push('No line of it is in the file. Read the file (or find the text with fs_grep) and retry with the exact text.', read());
        return out;
      }
      out.push(...closest(f.closest));
      const c = f.closest;
      if (c.current && !c.current.cut) {
        // the whole region is above: reading it again would only repeat it
        out.push(c.uncertain ? "Retry with old_string as the file has it, and new_string in the file's indentation." : 'Retry with the exact text of those lines.');
        return out;
      }
      if (c.current) {
        const next = c.current.startLine + c.current.lines.length;
        out.push('Read the lines not shown and retry with the exact text.', read(next, c.endLine));
        return out;
      }
      out.push(c.lines ? 'Retry with the exact text of those lines.' : 'Re-read those lines and retry with the exact text.', read(c.startLine, c.endLine));
      return out;
    }
    case 'ambiguous': {
      if (f.readings) {
        const { asWritten, withoutPrefixes } = f.readings;
        return [
          `old_string is found in ${path} as written, with its \`L{n}: \` line beginnings (${placeList(asWritten, asWritten.length)}), and also once those are read as fs_read's line-number prefixes and removed (${placeList(withoutPrefixes, withoutPrefixes.length)}), so it is not clear which one to change; nothing was changed.`,
          'If you meant the lines that begin with `L{n}: ` in the file, copy them exactly as they are (fs_read shows them after its own prefix, as `L7: L1: ...`); otherwise add lines around the change so it matches one place.',
        ];
      }
      if (f.cutReading) {
        const { word, line } = f.cutReading;
        return [
          `old_string is in ${path} as written only where it cuts ${JSON.stringify(word)} in two (line ${line}), and${IGNORING[f.level] || ' loosely'} at ${placeList(f.lines, f.count)}, overlapping it; it is not clear which one to change, so nothing was changed.`,
          'Copy old_string exactly from the lines you mean, whole names and numbers included, with a line around the change so it matches one place as written.',
        ];
      }
      if (f.overlapping) {
        return [
          `old_string is found at ${f.count} places in ${path}${IGNORING[f.level]}, and some of them overlap (${placeList(f.lines, f.count)}), so replace_all cannot replace each one. Use a longer old_string, or separate edits.`,
        ];
      }
      const shown = f.previews ?? [];
      return [
        `old_string is found at ${f.count} places in ${path}${IGNORING[f.level]} (${placeList(f.lines, f.count)}), so it is not clear which one to change; nothing was changed.${shown.length ? ` ${shown.length === f.count ? "Each place's" : `The first ${shown.length} places'`} first lines, with the line above:` : ''}`,
        ...shown.flatMap((r, i) => [...(i > 0 ? ['--'] : []), ...r.lines.map((t, j) => `L${r.startLine + j}: ${t}`)]),
        'Add lines around the change to old_string (and new_string) so it matches one place, or set replace_all to true to change every place.',
      ];
    }
    case 'too-broad': {
      const { startLine, endLine } = f.block;
      return [
        `old_string matched only loosely in ${path} (${IGNORING[f.level].trim() || f.level}), at lines ${startLine}-${endLine}: that block is much longer or shorter than old_string, so nothing was changed.`,
        'Re-read it and retry with the exact text.',
        read(startLine, endLine),
      ];
    }
  }
}

function closest(c: ClosestRegion): string[] {
  const range = c.startLine === c.endLine ? `line ${c.startLine}` : `lines ${c.startLine}-${c.endLine}`;
  if (c.uncertain && c.current) {
    const u = c.uncertain;
    const around = [u.after && `after line ${u.after.line} (${u.after.columns} columns)`, u.before && `before line ${u.before.line} (${u.before.columns} columns)`].filter(Boolean).join(' and ');
    return [
      `The same text is at ${range}, indented differently on ${c.differing} of its lines, and new_string's line ${u.newLine}, ${JSON.stringify(u.text.trim())}, added ${around}, has no certain indentation: new_string does not say which of those lines it goes with. The file has there:`,
      ...regionLines(c),
    ];
  }
  if (c.lines && c.difference === 'indentation') {
    const out = [`The same text is at ${range}, but indented differently on ${c.lines.length} of its lines:`];
    for (const d of c.lines) {
      const [expected, actual] = quotePair(d.expected, d.actual);
      out.push(`  line ${d.line}:`, `    old_string: ${expected}`, `    file:       ${actual}`);
    }
    return out;
  }
  if (c.current && c.difference === 'indentation') {
    return [`The same text is at ${range}, but indented differently on ${c.differing} of its lines. The file has there:`, ...regionLines(c)];
  }
  if (c.lines) {
    const out = [`The closest text is at ${range}; ${c.lines.length} of its lines differ:`];
    for (const d of c.lines) {
      const [expected, actual] = quotePair(d.expected, d.actual);
      out.push(`  line ${d.line}:`, `    old_string: ${expected}`, `    file:       ${actual}`);
    }
    return out;
  }
  if (c.current) {
    return [`The closest text is at ${range}, but ${c.differing} of its lines differ from old_string (the first is line ${c.line}). The file has there:`, ...regionLines(c)];
  }
  const what =
    c.difference === 'indentation'
      ? `the same text is at ${range}, but indented differently${c.startLine === c.endLine ? '' : ' relative to its other lines'}; line ${c.line} is:`
      : c.difference === 'whitespace'
        ? `the closest text is at ${range}; line ${c.line} differs in whitespace:`
        : `the closest text is at ${range}; line ${c.line} differs:`;
  const [expected, actual] = quotePair(c.expected, c.actual);
  return [what[0].toUpperCase() + what.slice(1), `  old_string: ${expected}`, `  file:       ${actual}`];
}

/** The region's lines as the file has them (`c.current`), and what is not shown of it. */
function regionLines(c: ClosestRegion): string[] {
  const r = c.current!;
  const last = r.startLine + r.lines.length - 1;
  return [...r.lines.map((t, i) => `L${r.startLine + i}: ${t}`), ...(r.cut ? [`(lines ${last + 1}-${c.endLine} not shown)`] : [])];
}

/** The `Try:` line of the `fs_read` call showing lines first..last (the file from its start when no line is given). */
function readCall(path: string, first?: number, last?: number): string {
  if (first === undefined || last === undefined) {
    return tryLine(callText('fs_read', { path }));
  }
  const limit = Math.min(MAX_READ_LINES, last - first + 1);
  return tryLine(callText('fs_read', { path, offset: first, limit }));
}

/** Two versions of a line as JSON strings (so tabs and trailing spaces show), cut around where they differ. */
function quotePair(a: string, b: string): [string, string] {
  let d = 0;
  while (d < a.length && d < b.length && a[d] === b[d]) {
    d++;
  }
  const from = Math.max(0, Math.min(d - Math.floor(MAX_EDIT_QUOTE_CHARS / 3), Math.max(a.length, b.length) - MAX_EDIT_QUOTE_CHARS));
  const cut = (s: string) => {
    const start = Math.min(from, s.length);
    const piece = s.slice(start, start + MAX_EDIT_QUOTE_CHARS);
    return `${start > 0 ? '...' : ''}${JSON.stringify(piece)}${start + piece.length < s.length ? '...' : ''}`;
  };
  return [cut(a), cut(b)];
}

function placeList(lines: readonly number[], count: number): string {
  const unique = [...new Set(lines)];
  const shown = unique.slice(0, MAX_EDIT_PLACES_LISTED);
  const more = count - lines.filter((l) => shown.includes(l)).length;
  return `line${unique.length === 1 ? '' : 's'} ${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''}`;
}

/**
 * The lines a successful edit adds to the result: for a match that needed tolerance, where
 * and what was forgiven, and the request to check the diff; then any warnings. None for an
 * exact match without warnings. `edit` names the edit of a list (1-based).
 */
export function describeMatch(r: FoundEdit, edit?: number): string[] {
  const out: string[] = [];
  const who = edit === undefined ? 'old_string' : `Edit ${edit}`;
  if (!r.exact) {
    const span = (p: FoundEdit['places'][number]) => (p.startLine === p.endLine ? `line ${p.startLine}` : `lines ${p.startLine}-${p.endLine}`);
    const where = r.places.length === 1 ? span(r.places[0]) : `${r.places.length} places (${r.places.slice(0, MAX_EDIT_PLACES_LISTED).map(span).join(', ')}${r.places.length > MAX_EDIT_PLACES_LISTED ? ', ...' : ''})`;
    const what = r.adjustments.length > 0 ? `: ${r.adjustments.join('; ')}` : '';
    out.push(`${who} matched loosely at ${where}${what}. Check the diff.`);
  }
  out.push(...r.warnings.map((w) => (edit === undefined ? w : `Edit ${edit}: ${w}`)));
  return out;
}
