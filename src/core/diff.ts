import { diffArrays, type ArrayChange } from 'diff';
import { MAX_DIFF_MYERS_EDIT_LINES, MAX_DIFF_MYERS_SPAN_LINES, MAX_DIFF_WORK_LINES, MAX_LINE_CHARS } from './limits';

/** One replacement in a text: `text` takes the place of [start, end) (UTF-16 offsets). */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Lines of context around each change in the unified diffs shown to the model and the CLI. */
const DIFF_CONTEXT_LINES = 3;

/** What one run of a line diff does: lines the same on both sides, removed from the old side, or added on the new one. */
export type LineOp = 'same' | 'removed' | 'added';

/** `count` consecutive lines with the same fate. */
export interface LineRun {
  op: LineOp;
  count: number;
}

/** A text's lines, each with its terminator (the last one may have none), as `diff`'s line diff tokenizes them. */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl + 1;
    out.push(text.slice(pos, end));
    pos = end;
  }
  return out;
}

/** Runs in order, a run of the same op as the one before merged into it. */
class RunList {
  readonly runs: LineRun[] = [];

  add(op: LineOp, count: number): void {
    if (count <= 0) {
      return;
    }
    const last = this.runs[this.runs.length - 1];
    if (last && last.op === op) {
      last.count += count;
    } else {
      this.runs.push({ op, count });
    }
  }
}

/** A part of the diff still to compute: old lines [a0, a1) against new lines [b0, b1); or `same` lines already known to match. */
type Pending = { a0: number; a1: number; b0: number; b1: number } | { same: number };

/**
 * The line diff of two texts' lines, in work bounded by MAX_DIFF_WORK_LINES whatever the
 * texts. A small span goes to Myers' diff (the `diff` package, which gives a minimal
 * script) with its edit length capped; a span too long for it, or with more edits than
 * the cap, is first cut at the lines each side holds once, in the order both keep them
 * (patience), and each piece is diffed the same way. A piece that no longer affords the
 * work, or has no such line, is reported as all removed and all added: coarser than
 * minimal, never wrong. No recursion: pieces wait on an explicit stack, leftmost first.
 * `meter.work` receives the lines visited.
 */
export function lineDiff(a: readonly string[], b: readonly string[], meter?: { work: number }): LineRun[] {
  // numbered in plain loops: Int32Array.from with a mapping function was most of a 200-file preview's time
  const ids = new Map<string, number>();
  const numbered = (lines: readonly string[]): Int32Array => {
    const out = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      let id = ids.get(lines[i]);
      if (id === undefined) {
        id = ids.size;
        ids.set(lines[i], id);
      }
      out[i] = id;
    }
    return out;
  };
  const A = numbered(a);
  const B = numbered(b);
  const out = new RunList();
  // Reading each line once (to number it, or to trim it off a piece's ends) is not counted.
  let work = 0;
  const stack: Pending[] = [{ a0: 0, a1: A.length, b0: 0, b1: B.length }];
  while (stack.length > 0) {
    const p = stack.pop()!;
    if ('same' in p) {
      out.add('same', p.same);
      continue;
    }
    let { a0, a1, b0, b1 } = p;
    const n = a1 - a0;
    const m = b1 - b0;
    if (n + m <= MAX_DIFF_MYERS_SPAN_LINES && n > 0 && m > 0) {
      const runs = myers(A, a0, a1, B, b0, b1, Math.min(MAX_DIFF_MYERS_EDIT_LINES, Math.floor((MAX_DIFF_WORK_LINES - work) / (n + m))));
      work += (n + m) * runs.cost;
      if (runs.parts) {
        for (const r of runs.parts) {
          out.add(r.op, r.count);
        }
        continue;
      }
    }
    while (a0 < a1 && b0 < b1 && A[a0] === B[b0]) {
      a0++;
      b0++;
    }
    out.add('same', a0 - p.a0);
    while (a1 > a0 && b1 > b0 && A[a1 - 1] === B[b1 - 1]) {
      a1--;
      b1--;
    }
    const suffix = p.a1 - a1;
    if (a0 === a1 || b0 === b1 || work + (a1 - a0) + (b1 - b0) > MAX_DIFF_WORK_LINES) {
      out.add('removed', a1 - a0);
      out.add('added', b1 - b0);
      out.add('same', suffix);
      continue;
    }
    work += a1 - a0 + (b1 - b0);
    const anchors = uniqueAnchors(A, a0, a1, B, b0, b1);
    if (anchors.length === 0) {
      out.add('removed', a1 - a0);
      out.add('added', b1 - b0);
      out.add('same', suffix);
      continue;
    }
    // Pushed last piece first, so the leftmost piece comes off the stack next.
    stack.push({ same: suffix });
    let endA = a1;
    let endB = b1;
    for (let k = anchors.length - 1; k >= 0; k--) {
      const [i, j] = anchors[k];
      stack.push({ a0: i + 1, a1: endA, b0: j + 1, b1: endB }, { same: 1 });
      endA = i;
      endB = j;
    }
    stack.push({ a0, a1: endA, b0, b1: endB });
  }
  if (meter) {
    meter.work = work;
  }
  return out.runs;
}

/**
 * Myers' diff of one span, giving up past `maxEdits` edits. `cost` is the edit length
 * the search reached: its work is at most about that many passes over the span.
 */
function myers(A: Int32Array, a0: number, a1: number, B: Int32Array, b0: number, b1: number, maxEdits: number): { parts?: LineRun[]; cost: number } {
  if (maxEdits <= 0) {
    return { cost: 0 };
  }
  const parts = diffArrays(Array.from(A.subarray(a0, a1)), Array.from(B.subarray(b0, b1)), { maxEditLength: maxEdits }) as ArrayChange<number>[] | undefined;
  if (!parts) {
    return { cost: maxEdits };
  }
  let edits = 0;
  const runs = parts.map((part): LineRun => {
    const count = part.count ?? part.value.length;
    if (part.added || part.removed) {
      edits += count;
    }
    return { op: part.added ? 'added' : part.removed ? 'removed' : 'same', count };
  });
  return { parts: runs, cost: Math.max(1, edits) };
}

/**
 * The lines that occur once in A[a0, a1) and once in B[b0, b1), as [i, j] pairs, the
 * longest chain of them in the same order on both sides (patience sorting), ascending.
 */
function uniqueAnchors(A: Int32Array, a0: number, a1: number, B: Int32Array, b0: number, b1: number): [number, number][] {
  // For each line id: where it is on each side, or -2 once it is seen twice there.
  const inA = new Map<number, number>();
  for (let i = a0; i < a1; i++) {
    inA.set(A[i], inA.has(A[i]) ? -2 : i);
  }
  const inB = new Map<number, number>();
  for (let j = b0; j < b1; j++) {
    const id = B[j];
    if (inA.has(id)) {
      inB.set(id, inB.has(id) ? -2 : j);
    }
  }
  const pairs: [number, number][] = [];
  for (let i = a0; i < a1; i++) {
    const j = inB.get(A[i]);
    if (inA.get(A[i]) === i && j !== undefined && j >= 0) {
      pairs.push([i, j]);
    }
  }
  // Longest increasing run of j over pairs (ascending i): tails[k] ends the best chain of length k + 1.
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let k = 0; k < pairs.length; k++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]][1] < pairs[k][1]) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    prev[k] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = k;
  }
  const chain: [number, number][] = [];
  for (let k = tails.length ? tails[tails.length - 1] : -1; k >= 0; k = prev[k]) {
    chain.push(pairs[k]);
  }
  return chain.reverse();
}

/** A unified diff's cut: lines and bytes (UTF-8) it shows at most. */
export interface DiffBounds {
  maxLines: number;
  maxBytes: number;
}

/** One hunk: its header's numbers and the runs it shows, with the first line of each side. */
interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  parts: { op: LineOp; a: number; b: number; count: number }[];
}

/** The hunks of a diff with `context` lines around each change, as git and the `diff` package join them. */
function hunksOf(runs: readonly LineRun[], context: number): Hunk[] {
  const hunks: Hunk[] = [];
  let open: Hunk | undefined;
  let a = 0;
  let b = 0;
  for (let k = 0; k < runs.length; k++) {
    const r = runs[k];
    if (r.op !== 'same') {
      if (!open) {
        const prev = k > 0 ? runs[k - 1] : undefined;
        const lead = prev ? Math.min(context, prev.count) : 0;
        open = { oldStart: a - lead + 1, newStart: b - lead + 1, oldLines: 0, newLines: 0, parts: lead ? [{ op: 'same', a: a - lead, b: b - lead, count: lead }] : [] };
      }
      open.parts.push({ op: r.op, a, b, count: r.count });
      if (r.op === 'removed') {
        a += r.count;
      } else {
        b += r.count;
      }
      continue;
    }
    if (open) {
      if (r.count <= context * 2 && k < runs.length - 1) {
        open.parts.push({ op: 'same', a, b, count: r.count });
      } else {
        const tail = Math.min(r.count, context);
        if (tail) {
          open.parts.push({ op: 'same', a, b, count: tail });
        }
        hunks.push(close(open, a + tail, b + tail));
        open = undefined;
      }
    }
    a += r.count;
    b += r.count;
  }
  if (open) {
    hunks.push(close(open, a, b));
  }
  return hunks;
}

function close(h: Hunk, a: number, b: number): Hunk {
  h.oldLines = a - (h.oldStart - 1);
  h.newLines = b - (h.newStart - 1);
  return h;
}

/**
 * A unified diff in git's form (`--- a/path`, `+++ b/path`, `/dev/null` for a side that
 * does not exist), without the tool's headers or trailing tabs. Empty when nothing changed.
 * With `bounds`, the diff stops at whichever of its lines or bytes comes first and says
 * how many lines it left out; a line longer than MAX_LINE_CHARS shows its start. Only
 * the lines shown are built, so a cut diff costs what it shows.
 */
export function unifiedDiff(oldPath: string | undefined, newPath: string | undefined, oldText: string | undefined, newText: string | undefined, bounds?: DiffBounds): string {
  if (oldText === newText) {
    return '';
  }
  const a = splitLines(oldText ?? '');
  const b = splitLines(newText ?? '');
  const hunks = hunksOf(lineDiff(a, b), DIFF_CONTEXT_LINES);
  const out = [`--- ${oldText === undefined ? '/dev/null' : `a/${oldPath}`}`, `+++ ${newText === undefined ? '/dev/null' : `b/${newPath}`}`];
  const maxLines = bounds?.maxLines ?? Infinity;
  const maxBytes = bounds?.maxBytes ?? Infinity;
  // The two header lines count towards the cut, as everything else a result prints does.
  let lines = out.length;
  let bytes = bounds ? Buffer.byteLength(out.join('\n'), 'utf8') + 1 : 0;
  let left = 0;
  const emit = (line: string): void => {
    if (left > 0) {
      left++;
      return;
    }
    const shown = bounds && line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut: characters 1-${MAX_LINE_CHARS} of ${line.length} shown]` : line;
    const size = bounds ? Buffer.byteLength(shown, 'utf8') + 1 : 0;
    if (lines + 1 > maxLines || bytes + size > maxBytes) {
      left = 1;
      return;
    }
    lines++;
    bytes += size;
    out.push(shown);
  };
  for (const h of hunks) {
    // An empty side starts at the line before it, as git prints it.
    emit(`@@ -${h.oldLines ? h.oldStart : h.oldStart - 1},${h.oldLines} +${h.newLines ? h.newStart : h.newStart - 1},${h.newLines} @@`);
    for (const part of h.parts) {
      const [mark, side, from] = part.op === 'added' ? ['+', b, part.b] : [part.op === 'removed' ? '-' : ' ', a, part.a];
      const to = from + part.count;
      if (left > 0) {
        // Cut already: count what is left without building it.
        const last = side[side.length - 1];
        left += part.count + (to === side.length && !last.endsWith('\n') ? 1 : 0);
        continue;
      }
      for (let i = from; i < to; i++) {
        const line = side[i];
        if (line.endsWith('\n')) {
          emit(mark + line.slice(0, -1));
        } else {
          emit(mark + line);
          emit('\\ No newline at end of file');
        }
      }
    }
  }
  if (left > 0) {
    out.push(`[diff cut: ${left} more lines; read the file to see the rest]`);
  }
  return out.join('\n');
}

/** Lines added and removed between two texts (`+a -b`), as the bounded line diff counts them. */
export function lineStats(oldText: string, newText: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const r of lineDiff(splitLines(oldText), splitLines(newText))) {
    if (r.op === 'added') {
      added += r.count;
    } else if (r.op === 'removed') {
      removed += r.count;
    }
  }
  return { added, removed };
}

/**
 * The smallest set of replacements that turns `base` into `next`, line by line, so an
 * editor keeps its cursor, folds and undo steps outside what changed. Adjacent changes
 * merge; past the line diff's work bound, a piece is replaced whole (see lineDiff).
 */
export function textEdits(base: string, next: string): TextEdit[] {
  if (base === next) {
    return [];
  }
  let prefix = 0;
  const max = Math.min(base.length, next.length);
  while (prefix < max && base.charCodeAt(prefix) === next.charCodeAt(prefix)) {
    prefix++;
  }
  let suffix = 0;
  while (suffix < max - prefix && base.charCodeAt(base.length - 1 - suffix) === next.charCodeAt(next.length - 1 - suffix)) {
    suffix++;
  }
  // Work on whole lines of the changed span so the line diff cannot split a CRLF.
  const start = prefix === 0 ? 0 : base.lastIndexOf('\n', prefix - 1) + 1;
  const endOld = lineEnd(base, base.length - suffix);
  const endNew = next.length - (base.length - endOld);
  const a = base.slice(start, endOld);
  const b = next.slice(start, endNew);
  const linesA = splitLines(a);
  const linesB = splitLines(b);
  const edits: TextEdit[] = [];
  let pos = start;
  let ia = 0;
  let ib = 0;
  let bPos = 0;
  for (const run of lineDiff(linesA, linesB)) {
    let len = 0;
    const lines = run.op === 'added' ? linesB : linesA;
    const from = run.op === 'added' ? ib : ia;
    for (let i = from; i < from + run.count; i++) {
      len += lines[i].length;
    }
    if (run.op === 'removed') {
      const last = edits[edits.length - 1];
      if (last && last.end === pos) {
        last.end += len;
      } else {
        edits.push({ start: pos, end: pos + len, text: '' });
      }
      pos += len;
      ia += run.count;
    } else if (run.op === 'added') {
      const text = b.slice(bPos, bPos + len);
      const last = edits[edits.length - 1];
      if (last && last.end === pos) {
        last.text += text;
      } else {
        edits.push({ start: pos, end: pos, text });
      }
      bPos += len;
      ib += run.count;
    } else {
      pos += len;
      bPos += len;
      ia += run.count;
      ib += run.count;
    }
  }
  return edits;
}

/** The offset just past the line holding `offset` (after its "\n"), or the text's end. */
function lineEnd(text: string, offset: number): number {
  if (offset > 0 && text[offset - 1] === '\n') {
    return offset;
  }
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl + 1;
}

/** Applies non-overlapping replacements, given in any order. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((x, y) => x.start - y.start);
  let out = '';
  let pos = 0;
  for (const e of sorted) {
    if (e.start < pos || e.end < e.start || e.end > text.length) {
      throw new RangeError(`overlapping or out-of-range edit at ${e.start}-${e.end}`);
    }
    out += text.slice(pos, e.start) + e.text;
    pos = e.end;
  }
  return out + text.slice(pos);
}
