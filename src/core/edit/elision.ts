/**
 * The context-aware level: old_string leaves lines out with elision lines (`// ... existing
 * code ...`). Its parts (the runs of lines between elisions) are found as the line levels
 * find a block; one way to chain a block for every part, in order, each elision standing
 * for lines inside the block it is shown in, must exist, and the left-out lines are kept.
 */
import { MAX_EDIT_ELIDED_LINES, MAX_EDIT_ELISION_PIECES, MAX_EDIT_ELISION_PLACES, MAX_EDIT_ELISION_SCAN_LINES, MAX_EDIT_ELISION_STEPS, MAX_EDIT_PLACES } from '../limits';
import { partitionPoint } from '../sorted';
import { foundBlocks, indentationMismatch, lineLevels, tolerances, type Placed } from './blocks';
import { indentWidth, type IndentMap } from './indent';
import { isBlank, isElision, leadingWhitespace, substanceKey } from './normalize';
import { findSequence } from './search';
import type { BlockPairing } from './project';
import { ambiguous, plural } from './result';
import type { Subject } from './subject';
import { substring, type Cut } from './substring';
import type { FindFailure, FindResult } from './types';
import { coreOf, type Variant } from './variant';

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

export function elided(subject: Subject, v: Variant, all: boolean, cuts: Cut[]): FindResult | undefined {
  const core = coreOf(v.old, v.new);
  if (!core) {
    return undefined;
  }
  // Elisions at either end stand for nothing old_string would change: drop them.
  // `kept`: the elisions dropped from old_string that new_string has at the same end too.
  // Indices, not shift(): thousands of elision lines cost one pass.
  let dropped = 0;
  let kept = 0;
  const { old: o, new: nw } = core;
  let oi = 0;
  let ni = 0;
  while (oi < o.length && (isElision(o[oi]) || isBlank(o[oi]))) {
    if (ni < nw.length && isElision(nw[ni]) && isElision(o[oi])) {
      ni++;
      kept++;
    }
    dropped += isElision(o[oi]) ? 1 : 0;
    oi++;
  }
  let oe = o.length;
  let ne = nw.length;
  while (oe > oi && (isElision(o[oe - 1]) || isBlank(o[oe - 1]))) {
    if (ne > ni && isElision(nw[ne - 1]) && isElision(o[oe - 1])) {
      ne--;
      kept++;
    }
    dropped += isElision(o[oe - 1]) ? 1 : 0;
    oe--;
  }
  core.old = o.slice(oi, oe);
  core.new = nw.slice(ni, ne);
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
  const parts = findParts(subject, core.old, elisions);
  if (!Array.isArray(parts)) {
    return parts;
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

/**
 * Each run of lines with text between elisions, with the blocks of the file it may be;
 * undefined when one is nowhere. The work is bounded: at most {@link MAX_EDIT_ELISION_PIECES}
 * runs, each searched through the file's lines once ({@link MAX_EDIT_ELISION_SCAN_LINES} in
 * all), holding at most {@link MAX_EDIT_ELISION_PLACES} places; past a bound, a refusal.
 */
function findParts(subject: Subject, old: readonly string[], elisions: readonly boolean[]): Part[] | FindFailure | undefined {
  const runs: { from: number; to: number; keys: string[] }[] = [];
  for (let j = 0; j < old.length; ) {
    if (elisions[j]) {
      j++;
      continue;
    }
    let k = j;
    while (k < old.length && !elisions[k]) {
      k++;
    }
    const keys = old.slice(j, k).filter((l) => !isBlank(l)).map(substanceKey);
    if (keys.length > 0) {
      runs.push({ from: j, to: k - 1, keys });
    }
    j = k;
  }
  const refuse = (why: string): FindFailure => ({ ok: false, reason: 'invalid', message: `old_string leaves lines out with "..." ${why}. Give the full text of a smaller region, with fewer "..." lines.` });
  if (runs.length > MAX_EDIT_ELISION_PIECES) {
    return refuse(`between ${runs.length} pieces of text; at most ${MAX_EDIT_ELISION_PIECES} pieces are matched in one edit`);
  }
  const fileLines = subject.index.lines;
  if (runs.length * fileLines.length > MAX_EDIT_ELISION_SCAN_LINES) {
    return refuse(`between ${runs.length} pieces of text, each searched through the file's ${fileLines.length} lines with text; at most ${MAX_EDIT_ELISION_SCAN_LINES} lines are searched in one edit`);
  }
  // One pass over the file gives every piece's lines their ids.
  const { ids, wanted, present } = subject.encode(runs.flatMap((r) => r.keys));
  if (!present.every(Boolean)) {
    return undefined;
  }
  const parts: Part[] = [];
  let held = 0;
  let w = 0;
  for (const run of runs) {
    const want = wanted.slice(w, (w += run.keys.length));
    const room = MAX_EDIT_ELISION_PLACES - held;
    const starts = findSequence(ids, want, Math.min(MAX_EDIT_PLACES, room + 1), subject.signal);
    if (starts.length === 0) {
      return undefined;
    }
    if (starts.length > room) {
      return refuse(`between pieces of text found at more than ${MAX_EDIT_ELISION_PLACES} places in all, too many to tell apart`);
    }
    held += starts.length;
    const cands = starts.map((at) => ({ at, s: fileLines[at], e: fileLines[at + want.length - 1] }));
    parts.push({ from: run.from, to: run.to, cands });
  }
  return parts;
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
  return partitionPoint(0, cands.length, (i) => cands[i].s > line);
}
