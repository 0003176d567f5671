import { diffChars, type Change } from 'diff';
import { MAX_EDIT_ALIGN_LINES, MAX_EDIT_CHAR_ALIGN_CHARS, MAX_EDIT_SOURCE_LINES } from '../limits';
import { alignLines } from './align';
import { CLOSES_BLOCK, indentWidth, reindent, renderIndent, TAB_COLUMNS, type IndentMap, type PerLineIndent } from './indent';
import type { LineTable } from './lines';
import { asciiTypography, isBlank, isElision, leadingWhitespace } from './normalize';
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
  /** Indentation differs line by line: kept from the file line by line instead of one map (then `indent` is the identity). */
  perLine?: PerLineIndent;
  /** old_string had trailing whitespace the file does not: drop it from changed lines too. */
  trimTrailing: boolean;
  /** The match forgave typography or runs of spaces inside lines: a changed line keeps the file's characters where it kept old_string's. */
  keepFormat: boolean;
}

/**
 * The block's new lines, or why they cannot be made: an elision dropped or added, or (lines
 * off by different amounts) an added line whose indentation the lines around it do not
 * settle, between the file lines `after` and `before` (0-based, when there are such lines).
 */
export type Projection =
  | { ok: true; lines: string[] }
  | { ok: false; problem: 'elision-dropped' | 'elision-added'; line: number }
  | { ok: false; problem: 'indent-uncertain'; line: number; text: string; after?: number; before?: number };

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
  const per = adapt.perLine ? new PerLineAnchors(adapt.perLine, out) : undefined;
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
          if (per && pairing.from[j] === pairing.to[j] && !isBlank(oldLines[j])) {
            per.anchor(newLines[k], file.text(pairing.from[j]), pairing.from[j]);
          }
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
    if (per) {
      for (let a = 0; a < added.length; a++) {
        const r = a < removed.length ? removed[a] : -1;
        const partner = r >= 0 && pairing.from[r] >= 0 && pairing.from[r] === pairing.to[r] && !isBlank(oldLines[r]) ? r : -1;
        if (partner >= 0) {
          per.change(added[a], oldLines[partner], file.text(pairing.from[partner]), pairing.from[partner], adapt.trimTrailing);
        } else {
          per.add(added[a], k - added.length + a, adapt.trimTrailing);
        }
      }
      continue;
    }
    added.forEach((line, a) => {
      out.push(adaptLine(file, oldLines, pairing, adapt, line, a < removed.length ? removed[a] : -1));
    });
  }
  emitTo(pairing.e);
  const uncertain = per?.resolve();
  if (uncertain) {
    return { ok: false, problem: 'indent-uncertain', ...uncertain };
  }
  return { ok: true, lines: out };
}

/**
 * new_string's changed and added lines placed in a block whose indentation old_string gave
 * by different amounts on different lines. A changed line takes the indentation of the file
 * line it replaces (moved as far as new_string moves it from old_string's line). An added
 * line follows the kept or changed line before it (P), or the one after it (N) at the start:
 * the indentation that line has in the result, moved by as much as new_string moves the
 * added line from it. Where P and N would place it differently (they were copied off by
 * different amounts), the structure decides, or nothing is placed:
 * - P opens a block (N is deeper): the line is in it, placed from N;
 * - P and N are level: placed from P, the line it follows;
 * - P ends a block (N is shallower): placed from P when N closes that block or continues
 *   its statement (`}`, `else:`, `except`) or new_string puts the line no shallower than P,
 *   from N when new_string puts it shallower than P and no deeper than N; level with both
 *   in new_string (an unindented copy), it is uncertain: inside the block, or after it?
 */
class PerLineAnchors {
  /** Kept and changed lines with text, in order: their index in `out`, width in new_string, indentation in the result, file line. */
  private readonly anchors: { at: number; newWidth: number; ws: string; text: string; fileLine: number }[] = [];
  /** Added lines: their index in `out`, their line of new_string and its index. */
  private readonly pending: { at: number; line: string; k: number }[] = [];

  constructor(
    private readonly per: PerLineIndent,
    private readonly out: string[],
  ) {}

  private width(ws: string): number {
    return indentWidth(ws, this.per.tabColumns);
  }

  /** A line new_string keeps: its file line is already the last of `out`. */
  anchor(newLine: string, fileLine: string, at: number): void {
    this.anchors.push({ at: this.out.length - 1, newWidth: this.width(leadingWhitespace(newLine)), ws: leadingWhitespace(fileLine), text: fileLine, fileLine: at });
  }

  /** A changed line, with the old_string line it replaces and that line's file line. */
  change(line: string, oldLine: string, fileLine: string, at: number, trimTrailing: boolean): void {
    const text = trimTrailing ? line.trimEnd() : line;
    if (text.trim().length === 0) {
      this.out.push('');
      return;
    }
    const lead = leadingWhitespace(text);
    const oldWs = leadingWhitespace(oldLine);
    const fileWs = leadingWhitespace(fileLine);
    // As copied: the file's; already the file's: as written; else moved as new_string moves it from old_string's line.
    const ws = lead === oldWs ? fileWs : lead === fileWs ? lead : renderIndent(indentWidth(fileWs) + this.width(lead) - this.width(oldWs), this.per.tabs);
    this.out.push(ws + text.slice(lead.length));
    this.anchors.push({ at: this.out.length - 1, newWidth: this.width(lead), ws, text: ws + text.slice(lead.length), fileLine: at });
  }

  /** An added line (new_string's line `k`, 0-based): placed by `resolve`. */
  add(line: string, k: number, trimTrailing: boolean): void {
    const text = trimTrailing ? line.trimEnd() : line;
    if (text.trim().length > 0) {
      this.pending.push({ at: this.out.length, line: text, k });
    }
    this.out.push(text.trim().length > 0 ? text : '');
  }

  /** Places every added line; the first that cannot be placed, when one cannot. */
  resolve(): { line: number; text: string; after?: number; before?: number } | undefined {
    let n = 0;
    for (const p of this.pending) {
      while (n < this.anchors.length && this.anchors[n].at < p.at) {
        n++;
      }
      const prev = this.anchors[n - 1];
      const next = this.anchors[n];
      const lead = leadingWhitespace(p.line);
      const ws = this.place(this.width(lead), prev, next);
      if (ws === undefined) {
        return { line: p.k + 1, text: p.line, after: prev?.fileLine, before: next?.fileLine };
      }
      this.out[p.at] = ws + p.line.slice(lead.length);
    }
    return undefined;
  }

  private place(w: number, prev: PerLineAnchors['anchors'][number] | undefined, next: PerLineAnchors['anchors'][number] | undefined): string | undefined {
    const from = (a: typeof prev) => {
      if (!a) {
        return undefined;
      }
      const width = indentWidth(a.ws, TAB_COLUMNS) + w - a.newWidth;
      return width < 0 ? undefined : { width, ws: width === indentWidth(a.ws, TAB_COLUMNS) ? a.ws : renderIndent(width, this.per.tabs) };
    };
    const p = from(prev);
    const q = from(next);
    if (!prev || !next || (p && q && p.width === q.width)) {
      return (p ?? q)?.ws;
    }
    const pw = indentWidth(prev.ws, TAB_COLUMNS);
    const nw = indentWidth(next.ws, TAB_COLUMNS);
    const rp = w - prev.newWidth;
    const rn = w - next.newWidth;
    if (pw < nw) {
      // after a line that opens a block, before its first line: in the block
      return rn >= 0 ? q?.ws : rp > 0 ? p?.ws : undefined;
    }
    if (pw === nw) {
      return p?.ws;
    }
    // P ends a block: the line is in it when N closes it or continues its statement, or when new_string puts it no shallower than P
    if (CLOSES_BLOCK.test(next.text.trim())) {
      return rp >= 0 || rn > 0 ? p?.ws : undefined;
    }
    if (rp === 0 && rn === 0) {
      return undefined;
    }
    return rp >= 0 ? p?.ws : rn <= 0 ? q?.ws : undefined;
  }
}

function adaptLine(file: LineTable, oldLines: readonly string[], pairing: BlockPairing, adapt: LineAdaptation, line: string, partner: number): string {
  let l = reindent(line, adapt.indent);
  if (adapt.trimTrailing) {
    l = l.trimEnd();
  }
  if (adapt.keepFormat) {
    const j = partner >= 0 && pairing.from[partner] === pairing.to[partner] ? partner : likeliestSource(oldLines, pairing, l);
    if (j >= 0) {
      l = keepLineFormat(oldLines[j], file.text(pairing.from[j]), l);
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
 * A changed line with the file's formatting where it kept old_string's text: when old_string's
 * line is the file's with ASCII quotes for typographic ones or other runs of spaces, the parts
 * new_string did not change keep the file's quotes and spacing; what it added is taken as written.
 */
function keepLineFormat(oldLine: string, fileLine: string, newLine: string): string {
  const oc = oldLine.slice(leadingWhitespace(oldLine).length).trimEnd();
  const fc = fileLine.slice(leadingWhitespace(fileLine).length).trimEnd();
  if (oc === fc) {
    return newLine;
  }
  const lead = leadingWhitespace(newLine);
  return lead + keepFormat(oc, fc, newLine.slice(lead.length));
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\t';

/**
 * `next` (an edit of `old`) with `file`'s characters where it kept `old`'s. `file` says what
 * `old` says, with typographic characters where `old` has ASCII ones and other runs of
 * spaces; `next` is returned as it is when it does not, or when the texts are too long to
 * align cheaply. A kept piece of `old` that could have been aligned with another place of
 * `old` (one `'` of several) keeps `next`'s characters: a quote is never moved.
 */
export function keepFormat(old: string, file: string, next: string): string {
  if (old.length + next.length > MAX_EDIT_CHAR_ALIGN_CHARS || file.length > MAX_EDIT_CHAR_ALIGN_CHARS) {
    return next;
  }
  // What each character of `old` is in `file`: a character, or for a run of spaces the file's whole run (at its first character).
  const mapped = new Array<string>(old.length);
  const runStart = new Int32Array(old.length);
  const runEnd = new Int32Array(old.length);
  let k = 0;
  for (let i = 0; i < old.length; ) {
    if (isSpace(old[i]) && isSpace(file[k])) {
      let ie = i;
      while (isSpace(old[ie])) {
        ie++;
      }
      let ke = k;
      while (isSpace(file[ke])) {
        ke++;
      }
      for (let j = i; j < ie; j++) {
        mapped[j] = j === i ? file.slice(k, ke) : '';
        runStart[j] = i;
        runEnd[j] = ie;
      }
      i = ie;
      k = ke;
    } else if (k < file.length && !isSpace(old[i]) && asciiTypography(old[i]) === asciiTypography(file[k])) {
      mapped[i] = file[k];
      runStart[i] = i;
      runEnd[i] = i + 1;
      i++;
      k++;
    } else {
      return next;
    }
  }
  if (k !== file.length) {
    return next;
  }
  // With maxEditLength the diff is undefined when the edit is larger.
  const changes = diffChars(old, next, { maxEditLength: MAX_EDIT_ALIGN_LINES }) as Change[] | undefined;
  if (!changes) {
    return next;
  }
  // The kept pieces with their place in `old`, to tell whether each could have been aligned elsewhere.
  const kept: { from: number; to: number; at: number }[] = [];
  let pos = 0;
  changes.forEach((c, at) => {
    if (!c.added) {
      if (!c.removed) {
        kept.push({ from: pos, to: pos + c.value.length, at });
      }
      pos += c.value.length;
    }
  });
  const out: string[] = changes.map((c) => (c.added ? c.value : ''));
  kept.forEach(({ from, to, at }, n) => {
    const piece = old.slice(from, to);
    const lo = n > 0 ? kept[n - 1].to : 0;
    const hi = n + 1 < kept.length ? kept[n + 1].from : old.length;
    const window = old.slice(lo, hi);
    if (window.indexOf(piece) !== window.lastIndexOf(piece)) {
      out[at] = piece;
      return;
    }
    let text = '';
    for (let i = from; i < to; i++) {
      // A run of spaces takes the file's spacing only when it is kept whole.
      text += !isSpace(old[i]) || (runStart[i] >= from && runEnd[i] <= to) ? mapped[i] : old[i];
    }
    out[at] = text;
  });
  return out.join('');
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
