import { diffChars, type Change } from 'diff';
import { MAX_EDIT_ALIGN_LINES, MAX_EDIT_CHAR_ALIGN_CHARS, MAX_EDIT_SOURCE_LINES } from '../limits';
import { alignLines } from './align';
import { reindent, type IndentMap } from './indent';
import type { LineTable } from './lines';
import { asciiTypography, isElision, leadingWhitespace } from './normalize';
import type { Replacement } from './types';

/**
 * A matched block and which of its file lines each line of old_string stands for. Most
 * levels pair line j with line s + j; block-anchor skips the file's extra blank lines (and
 * pairs old_string's extra blank lines with nothing); an elision stands for a whole range.
 */
export interface BlockPairing {
  /** First and last file line of the block (0-based, inclusive). */
  s: number;
  e: number;
  /** Per line of old_string: first file line it stands for, or -1 when the file has no such line. */
  from: Int32Array;
  /** Per line of old_string: last file line it stands for (from - 1 for an elision of no lines). */
  to: Int32Array;
}

/** How a changed line of new_string is adapted to the file, from what the match needed. */
export interface LineAdaptation {
  indent: IndentMap;
  /** old_string had trailing whitespace the file does not: drop it from changed lines too. */
  trimTrailing: boolean;
  /** The match forgave typography: a changed line keeps the file's characters where it kept old_string's. */
  typography: boolean;
}

export type Projection = { ok: true; lines: string[] } | { ok: false; problem: 'elision-dropped' | 'elision-added'; line: number };

const ELIDED = '\u0000elided';

/**
 * The block's new lines: every line of old_string that new_string keeps is the file's own
 * line, unchanged; the file lines of the lines it removes go; the lines it adds come in,
 * adapted. File lines no line of old_string stands for (extra blank lines, elided ranges)
 * stay where they are. So only what the model changed changes.
 */
export function projectBlock(
  file: LineTable,
  oldLines: readonly string[],
  newLines: readonly string[],
  pairing: BlockPairing,
  adapt: LineAdaptation,
  elided?: readonly boolean[],
): Projection {
  const oldKeys = oldLines.map((l, j) => (elided?.[j] ? ELIDED : l));
  const newKeys = newLines.map((l) => (elided && isElision(l) ? ELIDED : l));
  const ops = alignLines(oldKeys, newKeys);
  const out: string[] = [];
  let cursor = pairing.s;
  const emitTo = (last: number) => {
    for (; cursor <= last; cursor++) {
      out.push(file.text(cursor));
    }
  };
  let j = 0;
  let k = 0;
  for (let i = 0; i < ops.length; ) {
    if (ops[i].kind === 'equal') {
      for (let c = 0; c < ops[i].count; c++, j++, k++) {
        if (pairing.from[j] >= 0) {
          emitTo(pairing.to[j]);
        }
      }
      i++;
      continue;
    }
    const removed: number[] = [];
    const added: string[] = [];
    for (; i < ops.length && ops[i].kind !== 'equal'; i++) {
      const n = ops[i].count;
      if (ops[i].kind === 'removed') {
        for (let c = 0; c < n; c++) {
          removed.push(j++);
        }
      } else {
        for (let c = 0; c < n; c++) {
          added.push(newLines[k++]);
        }
      }
    }
    // An elision standing for no line loses nothing when dropped.
    const droppedElision = removed.find((r) => oldKeys[r] === ELIDED && pairing.from[r] >= 0 && pairing.to[r] >= pairing.from[r]);
    if (droppedElision !== undefined) {
      return { ok: false, problem: 'elision-dropped', line: droppedElision + 1 };
    }
    const addedElision = added.findIndex((l) => elided && isElision(l));
    if (addedElision >= 0) {
      return { ok: false, problem: 'elision-added', line: k - added.length + addedElision + 1 };
    }
    let first = true;
    for (const r of removed) {
      if (pairing.from[r] < 0) {
        continue;
      }
      if (first) {
        // Extra file lines before the first removed line belong to what is kept.
        emitTo(pairing.from[r] - 1);
        first = false;
      }
      cursor = pairing.to[r] + 1;
    }
    added.forEach((line, a) => {
      out.push(adaptLine(file, oldLines, pairing, adapt, line, a < removed.length ? removed[a] : -1));
    });
  }
  emitTo(pairing.e);
  return { ok: true, lines: out };
}

function adaptLine(file: LineTable, oldLines: readonly string[], pairing: BlockPairing, adapt: LineAdaptation, line: string, partner: number): string {
  let l = reindent(line, adapt.indent);
  if (adapt.trimTrailing) {
    l = l.trimEnd();
  }
  if (adapt.typography) {
    const j = partner >= 0 && pairing.from[partner] === pairing.to[partner] ? partner : likeliestSource(oldLines, pairing, l);
    if (j >= 0) {
      l = keepTypography(oldLines[j], file.text(pairing.from[j]), l);
    }
  }
  return l;
}

/**
 * The line of old_string an added line was most likely made from (the longest common
 * start and end), when the alignment paired it with none; -1 when none shares anything.
 */
function likeliestSource(oldLines: readonly string[], pairing: BlockPairing, line: string): number {
  if (oldLines.length > MAX_EDIT_SOURCE_LINES) {
    return -1;
  }
  const text = line.trim();
  let best = -1;
  let bestScore = 0;
  oldLines.forEach((o, j) => {
    if (pairing.from[j] < 0 || pairing.from[j] !== pairing.to[j]) {
      return;
    }
    const t = o.trim();
    let p = 0;
    while (p < t.length && p < text.length && t[p] === text[p]) {
      p++;
    }
    let q = 0;
    while (q < t.length - p && q < text.length - p && t[t.length - 1 - q] === text[text.length - 1 - q]) {
      q++;
    }
    if (p + q > bestScore) {
      best = j;
      bestScore = p + q;
    }
  });
  return best;
}

/**
 * A changed line with the file's characters where it kept old_string's: when old_string's
 * line is the file's with ASCII quotes for typographic ones, the parts new_string did not
 * change keep the file's quotes; what it added is taken as written.
 */
function keepTypography(oldLine: string, fileLine: string, newLine: string): string {
  const oc = oldLine.slice(leadingWhitespace(oldLine).length).trimEnd();
  const fc = fileLine.slice(leadingWhitespace(fileLine).length).trimEnd();
  if (oc === fc || oc.length !== fc.length || oc.length > MAX_EDIT_CHAR_ALIGN_CHARS || asciiTypography(oc) !== asciiTypography(fc)) {
    return newLine;
  }
  const lead = leadingWhitespace(newLine);
  return lead + keepChars(oc, fc, newLine.slice(lead.length));
}

/**
 * `next` (an edit of `old`) with `file`'s characters (same length as `old`) where it kept
 * `old`'s; `next` as it is when the two differ too much to align cheaply.
 */
export function keepChars(old: string, file: string, next: string): string {
  if (next.length > MAX_EDIT_CHAR_ALIGN_CHARS) {
    return next;
  }
  // With maxEditLength the diff is undefined when the edit is larger.
  const changes = diffChars(old, next, { maxEditLength: MAX_EDIT_ALIGN_LINES }) as Change[] | undefined;
  if (!changes) {
    return next;
  }
  let pos = 0;
  let out = '';
  for (const c of changes) {
    if (c.added) {
      out += c.value;
    } else if (c.removed) {
      pos += c.value.length;
    } else {
      out += file.slice(pos, pos + c.value.length);
      pos += c.value.length;
    }
  }
  return out;
}

/**
 * The replacement that turns file lines s..e into `lines`, narrowed to the lines that
 * change (so kept lines keep their exact bytes, line endings included), or undefined when
 * nothing changes. New line breaks use `eol`.
 */
export function blockReplacement(file: LineTable, s: number, e: number, lines: readonly string[], eol: string): Replacement | undefined {
  const total = e - s + 1;
  let p = 0;
  while (p < total && p < lines.length && lines[p] === file.text(s + p)) {
    p++;
  }
  let q = 0;
  while (q < total - p && q < lines.length - p && lines[lines.length - 1 - q] === file.text(e - q)) {
    q++;
  }
  const mid = lines.slice(p, lines.length - q);
  const first = s + p;
  const last = e - q;
  let start: number;
  let end: number;
  let text: string;
  if (first > last && mid.length === 0) {
    return undefined;
  }
  if (first > last) {
    // Pure insertion between file lines first - 1 and first.
    if (p > 0) {
      start = end = file.ends[first - 1];
      text = eol + mid.join(eol);
    } else {
      start = end = file.starts[first];
      text = mid.join(eol) + eol;
    }
  } else if (mid.length === 0) {
    // Pure deletion of whole lines first..last, with one line break.
    text = '';
    if (p > 0) {
      start = file.ends[first - 1];
      end = file.ends[last];
    } else if (file.hasBreak(last)) {
      start = file.starts[first];
      end = file.nextStart(last);
    } else if (first > 0) {
      start = file.ends[first - 1];
      end = file.ends[last];
    } else {
      start = file.starts[first];
      end = file.ends[last];
    }
  } else {
    start = file.starts[first];
    end = file.ends[last];
    text = mid.join(eol);
  }
  return { start, end, text, line: file.lineOf(start) + 1, endLine: file.lineOf(Math.max(start, end - 1)) + 1 };
}
