import { throwIfCancelled, type CancelSignal } from '../cancel';
import { MAX_PATCH_AMBIGUOUS_PLACES, MAX_PATCH_FAILURES_PER_FILE, MAX_PATCH_LOOSE_LINES_SHOWN, MAX_PATCH_SCOPE_STEPS, MAX_PATCH_SCOPE_WINDOW_LINES } from '../limits';
import { anchorsEnd, findAnchors, overlaps, type Anchors } from './anchors';
import { chunkRef, elsewhere, fitChunk, insertionPoint, lastIndex, variantsOf, type Run, type UpdateResult, type UpdateSite, type Variant } from './chunks';
import { PatchVerifyError, somePlaces, type PatchVerifyDetail } from './errors';
import { indexAtMost, ListFits, type Fits } from './fits';
import { closestRegion } from './closest';
import { LineIndex } from './seek';
import { Scopes } from './scope';
import { FileText } from './text';
import { adaptIndentation } from './indent';
import type { Chunk, ChunkMatch, SeekPass } from './types';

export type { UpdateResult, UpdateSite } from './chunks';

interface Placed {
  chunk: number;
  insert: boolean;
  /** 0-based first replaced line, or the line new lines are inserted before. */
  pos: number;
  variant: Variant;
  pass: SeekPass;
  /** Where the pattern fits under `pass` (for an End of File chunk, only at the end). */
  fits: Fits;
  /** Where each `@@` line fits, under the pass that found it. */
  ctxFits: Fits[];
  /** The old lines start with the last `@@` line itself (a model repeating it as a kept line). */
  overlap: boolean;
  /** How the added lines were moved to the file's indentation, when they were. */
  indent?: string;
}

/**
 * Applies the chunks of one `*** Update File` to `text`; a chunk that does not fit is
 * reported in `failures` and left out, the chunks after it placed as if it were not there
 * (so every failure of the hunk is found in one pass).
 *
 * Placement: forward, each chunk at the first fit after the previous one (Codex), then
 * backward, each at the last fit before the next one. The first gives every chunk its
 * earliest possible line, the second its latest; when they differ for some chunk, the
 * patch fits the file in more than one way and is refused as ambiguous.
 */
export function applyChunks(text: string, chunks: readonly Chunk[], site: UpdateSite): UpdateResult {
  const file = new FileText(text);
  const index = new LineIndex(file);
  const run: Run = { ...site, failed: [] };
  const failures: PatchVerifyDetail[] = [];
  const placed = placeForward(index, chunks, run, failures);
  try {
    settleAmbiguity(index, chunks, placed, latestPlaces(placed, file.count), run);
  } catch (e) {
    if (!(e instanceof PatchVerifyError)) {
      throw e;
    }
    run.explain?.();
    failures.push(...e.failures);
  }
  const adapted = fitIndentation(file, chunks, placed, run, failures);
  return { text: assemble(file, adapted, chunks), matches: adapted.map((p) => matchOf(file, site, p)), failures };
}

/** How a chunk was found, for the answer: a loose match with its old lines as written beside the file's. */
function matchOf(file: FileText, site: UpdateSite, p: Placed): ChunkMatch {
  const m: ChunkMatch = { hunk: site.hunk.index, chunk: p.chunk + 1, line: p.pos + 1, pass: p.pass };
  if (p.pass !== 'exact' && !p.insert) {
    m.lines = p.variant.pattern.length;
    const differing: { line: number; written: string; file: string }[] = [];
    p.variant.pattern.forEach((t, j) => {
      const actual = file.line(p.pos + j);
      if (t !== actual && differing.length < MAX_PATCH_LOOSE_LINES_SHOWN) {
        differing.push({ line: p.pos + j + 1, written: t, file: actual });
      }
    });
    m.differing = differing;
    if (p.indent) {
      m.indent = p.indent;
    }
  }
  return m;
}

/**
 * Chunks found with their leading whitespace forgiven write their `+` lines at the file's
 * indentation (indent.ts); a chunk whose added lines have no certain place is refused
 * (recorded in `failures`) and left out.
 */
function fitIndentation(file: FileText, chunks: readonly Chunk[], placed: readonly Placed[], run: Run, failures: PatchVerifyDetail[]): Placed[] {
  const out: Placed[] = [];
  let tabs: boolean | undefined;
  for (const p of placed) {
    const habit = p.variant.body.some((l) => l.bare);
    if (p.insert || (p.pass !== 'trim' && p.pass !== 'unicode' && !habit)) {
      out.push(p);
      continue;
    }
    const len = p.variant.pattern.length;
    const lines = Array.from({ length: len }, (_, j) => file.line(p.pos + j));
    const near = (from: number, step: number): string | undefined => {
      for (let i = from; i >= 0 && i < file.count; i += step) {
        if (file.line(i).trim() !== '') {
          return file.line(i);
        }
      }
      return undefined;
    };
    const usesTabs = () => (tabs ??= file.all().some((l) => l.startsWith('\t')));
    const r = adaptIndentation(p.variant.body, { lines, before: near(p.pos - 1, -1), after: near(p.pos + len, 1), usesTabs }, habit);
    if (r.kind === 'same') {
      out.push(p);
    } else if (r.kind === 'adapted') {
      out.push({ ...p, variant: { pattern: p.variant.pattern, body: r.body }, indent: r.how });
    } else {
      run.explain?.();
      const from = Math.max(0, p.pos - 1);
      const to = Math.min(file.count, p.pos + len + 1);
      failures.push({
        code: 'indent-uncertain',
        hunk: run.hunk,
        path: run.path,
        chunk: chunkRef(chunks, p.chunk, run),
        line: r.line,
        width: r.width,
        region: { startLine: from + 1, lines: Array.from({ length: to - from }, (_, i) => file.line(from + i)) },
        textAfterHunk: run.textAfterHunk,
      });
      run.failed.push(p.chunk + 1);
    }
  }
  return out;
}

/** Each chunk at its first fit after the chunk before it (and its `@@` lines); a chunk that fails is recorded and skipped. */
function placeForward(index: LineIndex, chunks: readonly Chunk[], run: Run, failures: PatchVerifyDetail[]): Placed[] {
  const placed: Placed[] = [];
  // Chunks of only `+` lines go at the end, so none may come before a chunk that changes lines.
  const lastChanging = lastIndex(chunks, (c) => c.oldLines.length > 0);
  let s = 0;
  for (let k = 0; k < chunks.length; k++) {
    throwIfCancelled(run.signal);
    try {
      const p = placeChunk(index, chunks, k, s, lastChanging, run);
      placed.push(p);
      s = p.insert ? (chunks[k].contexts.length > 0 ? p.pos : s) : p.pos + p.variant.pattern.length;
    } catch (e) {
      if (!(e instanceof PatchVerifyError)) {
        throw e;
      }
      if (e.code !== 'no-match' && e.code !== 'context-not-found') {
        run.explain?.(); // those two asked when they were made
      }
      failures.push(...e.failures);
      run.failed.push(k + 1);
    }
  }
  return placed;
}

/** One chunk at its first place from line `s`, or a `PatchVerifyError`. */
function placeChunk(index: LineIndex, chunks: readonly Chunk[], k: number, s: number, lastChanging: number, run: Run): Placed {
  const chunk = chunks[k];
  const anchors = findAnchors(index, chunks, k, s, run);
  if (chunk.oldLines.length === 0) {
    if (lastChanging > k) {
      const later = chunks.findIndex((c, j) => j > k && c.oldLines.length > 0);
      throw new PatchVerifyError({ code: 'insertion-not-last', hunk: run.hunk, path: run.path, chunk: chunkRef(chunks, k, run), later: later + 1 });
    }
    return placeInsertion(index, chunks, k, anchors, run);
  }
  return placeReplacement(index, chunks, k, anchors, anchors.lastAt >= 0 ? anchors.lastAt + 1 : s, run);
}
/** A chunk of only `+` lines: at the end of the file, right after its `@@` line when it has one. */
function placeInsertion(index: LineIndex, chunks: readonly Chunk[], k: number, anchors: Anchors, run: Run): Placed {
  const chunk = chunks[k];
  const ip = insertionPoint(index.source);
  if (chunk.contexts.length > 0 && (ip - 1 < anchors.lastAt || !anchorsEnd(index, chunk, ip, anchors.byPrefix))) {
    throw new PatchVerifyError({ code: 'insertion-unanchored', hunk: run.hunk, path: run.path, chunk: chunkRef(chunks, k, run) });
  }
  return { chunk: k, insert: true, pos: ip, variant: { pattern: [], body: chunk.body }, pass: 'exact', fits: new ListFits([ip]), ctxFits: anchors.ctxFits, overlap: false };
}

/** A chunk with old lines: at the first fit of its first variant that fits, from line `s`. */
function placeReplacement(index: LineIndex, chunks: readonly Chunk[], k: number, anchors: Anchors, s: number, run: Run): Placed {
  const chunk = chunks[k];
  const overlap = overlaps(index, chunk, anchors.lastAt, anchors.byPrefix);
  const from = overlap ? anchors.lastAt : s;
  const fit = fitChunk(index, chunk, from);
  if (fit && 'twoPlaces' in fit) {
    // kept lines read with and without their leading space fit at two places: two meanings
    const places = fit.twoPlaces.map((h) => h + 1);
    throw new PatchVerifyError({ code: 'ambiguous', hunk: run.hunk, path: run.path, chunk: chunkRef(chunks, k, run), places, count: 2, readings: true, textAfterHunk: run.textAfterHunk });
  }
  if (fit) {
    return { chunk: k, insert: false, pos: fit.hit.at, variant: fit.variant, pass: fit.hit.pass, fits: fit.hit.fits, ctxFits: anchors.ctxFits, overlap };
  }
  throw noMatch(index, chunks, k, from, run);
}

/**
 * Backward: the latest place of each chunk that leaves room for its `@@` lines and for
 * the chunks before it, from the end of the file (`n` lines).
 */
function latestPlaces(placed: readonly Placed[], n: number): number[] {
  const latest: number[] = new Array(placed.length);
  let limit = n;
  for (let i = placed.length - 1; i >= 0; i--) {
    const p = placed[i];
    if (p.insert) {
      latest[i] = p.pos;
      if (p.ctxFits.length > 0) {
        let bound = p.pos - 1;
        for (let r = p.ctxFits.length - 2; r >= 0; r--) {
          bound = p.ctxFits[r].last(bound - 1);
        }
        limit = Math.min(limit, bound);
      }
      continue;
    }
    const len = p.variant.pattern.length;
    let chosen = -1;
    for (let h = p.fits.last(limit - len); h >= 0; h = p.fits.last(h - 1)) {
      let bound = h;
      for (let r = p.ctxFits.length - 1; r >= 0 && bound >= 0; r--) {
        bound = p.ctxFits[r].last(r === p.ctxFits.length - 1 && p.overlap ? bound : bound - 1);
      }
      if (bound >= 0) {
        chosen = h;
        limit = bound;
        break;
      }
    }
    if (chosen < p.pos) {
      throw new Error(`patch placement: chunk ${p.chunk + 1} has no latest place at or after ${p.pos}`);
    }
    latest[i] = chosen;
  }
  return latest;
}

/**
 * Where the earliest and latest placements differ, the `@@` lines read as blocks may
 * still leave each chunk one place (then `placed` moves there); otherwise the patch is
 * refused as ambiguous, naming the places.
 */
function settleAmbiguity(index: LineIndex, chunks: readonly Chunk[], placed: Placed[], latest: readonly number[], site: Run): void {
  const ambiguous = placed.findIndex((p, i) => latest[i] !== p.pos);
  if (ambiguous < 0) {
    return;
  }
  const scoped = placeInScopes(index, placed, latest, site.signal);
  if (scoped?.kind === 'placed') {
    scoped.lines.forEach((pos, i) => {
      placed[i].pos = pos;
    });
    return;
  }
  // every chunk that fits in more than one way, in one answer; the places of those shown
  // (the first few) counted in full, the others' only named: listing them costs a search each
  const failures: PatchVerifyDetail[] = [];
  placed.forEach((p, i) => {
    if (latest[i] === p.pos) {
      return;
    }
    const all = failures.length < MAX_PATCH_FAILURES_PER_FILE ? p.fits.between(p.pos, latest[i]) : [p.pos, latest[i]];
    failures.push({
      code: 'ambiguous',
      hunk: site.hunk,
      path: site.path,
      chunk: chunkRef(chunks, p.chunk, site),
      places: somePlaces(all).map((h) => h + 1),
      count: all.length,
      inBlocks: scoped?.kind === 'ambiguous' && scoped.at === i ? scoped.places.map((h) => h + 1) : undefined,
      textAfterHunk: site.textAfterHunk,
    });
  });
  throw new PatchVerifyError(failures);
}

/** The scoped search ran out of steps: the chunk stays refused. */
class OutOfSteps extends Error {}

/** One chunk of a hunk as the scoped reading sees it. */
interface ScopeWindow {
  /** Its index in `placed`. */
  at: number;
  len: number;
  /** No line of it (`@@` lines included) may come before this one: the earliest end of the chunk before it. */
  lo: number;
  /** Where its old lines fit, between its earliest and latest place in the plain reading. */
  fits: number[];
  /** Where each of its `@@` lines fits, from `lo` to its latest place. */
  ctx: number[][];
  overlap: boolean;
}

/** What the scoped reading found: one place per chunk, or a chunk (index in `placed`) with several places in its blocks (the first few). */
type ScopedPlacement = { kind: 'placed'; lines: number[] } | { kind: 'ambiguous'; at: number; places: number[] };

/**
 * A second reading of a patch that fits in several ways, for chunks under `@@` lines: a
 * `@@` line that opens a block (a function, a class) holds the chunk inside that block,
 * not anywhere below it (see scope.ts), so `@@ def a():` says which of two functions with
 * the same body lines is meant. The places are those the plain reading allows (between
 * `placed` and `latest`, same passes), so this only ever removes places; the chunks are
 * placed earliest and latest again, and the answer is kept only when each chunk has one
 * place. Returns every chunk's line, or the first chunk that still has several places,
 * or undefined when the reading does not apply (no chunk has a `@@` line, a chunk of only
 * `+` lines sits under `@@` lines, the search would be too long, or it leaves no place).
 */
function placeInScopes(index: LineIndex, placed: readonly Placed[], latest: readonly number[], signal: CancelSignal | undefined): ScopedPlacement | undefined {
  if (placed.some((p) => p.insert && p.ctxFits.length > 0) || !placed.some((p) => !p.insert && p.ctxFits.length > 0)) {
    return undefined;
  }
  const windows: ScopeWindow[] = [];
  let lo = 0;
  let cost = 0;
  for (let i = 0; i < placed.length; i++) {
    const p = placed[i];
    if (p.insert) {
      continue;
    }
    const len = p.variant.pattern.length;
    cost += (latest[i] + len - lo + 1) * (1 + p.ctxFits.length);
    if (cost > MAX_PATCH_SCOPE_WINDOW_LINES) {
      return undefined;
    }
    windows.push({ at: i, len, lo, fits: p.fits.between(p.pos, latest[i]), ctx: p.ctxFits.map((f) => f.between(lo, latest[i])), overlap: p.overlap });
    lo = p.pos + len;
  }
  const scopes = new Scopes(index.source);
  let steps = MAX_PATCH_SCOPE_STEPS;
  const step = (): void => {
    throwIfCancelled(signal);
    if (--steps < 0) {
      throw new OutOfSteps();
    }
  };
  /**
   * The latest first `@@` line of the chains that hold the chunk at `h`: one fit of each
   * `@@` line, in order, each in the scope of the one before, the last holding `h`, none
   * before `from`. -1 when there is none; `h` itself for a chunk without `@@` lines.
   */
  const chain = (w: ScopeWindow, h: number, from: number): number => {
    const last = w.ctx.length - 1;
    const down = (r: number, parent: number): number => {
      const list = w.ctx[r];
      for (let j = indexAtMost(list, r === last && w.overlap ? h : h - 1); j >= 0 && list[j] >= from && list[j] > parent; j--) {
        step();
        const q = list[j];
        if (parent >= 0 && !scopes.contains(parent, q)) {
          continue;
        }
        if (r === last ? scopes.contains(q, h) || (w.overlap && q === h) : down(r + 1, q) >= 0) {
          return q;
        }
      }
      return -1;
    };
    return last < 0 ? h : down(0, -1);
  };
  try {
    // Earliest: each chunk at its first place with a chain, after the chunk before it.
    const first: number[] = placed.map((p) => p.pos);
    let from = 0;
    for (const w of windows) {
      let found = -1;
      for (let j = indexAtMost(w.fits, from - 1) + 1; j < w.fits.length && found < 0; j++) {
        step();
        if (chain(w, w.fits[j], from) >= 0) {
          found = w.fits[j];
        }
      }
      if (found < 0) {
        return undefined;
      }
      first[w.at] = found;
      from = found + w.len;
    }
    // Latest: each chunk at its last place with a chain that ends before every line the
    // chunk after it may use (the first `@@` line of any of its places, which need not
    // be that of its latest place: a lower place may sit under a nearer `@@` line).
    let limit = index.source.count;
    for (let k = windows.length - 1; k >= 0; k--) {
      const w = windows[k];
      let found = -1;
      let bound = -1;
      for (let j = indexAtMost(w.fits, limit - w.len); j >= 0 && w.fits[j] >= first[w.at] && w.fits[j] > bound; j--) {
        step();
        const start = chain(w, w.fits[j], w.lo);
        if (start >= 0) {
          found = found < 0 ? w.fits[j] : found;
          bound = Math.max(bound, start);
        }
      }
      if (found !== first[w.at]) {
        if (found < 0) {
          return undefined;
        }
        // Still more than one place inside the blocks: say where, for the error.
        const places: number[] = [];
        for (const h of w.fits) {
          if (h >= first[w.at] && h <= found && places.length < MAX_PATCH_AMBIGUOUS_PLACES + 1) {
            step();
            if (chain(w, h, w.lo) >= 0) {
              places.push(h);
            }
          }
        }
        return { kind: 'ambiguous', at: w.at, places };
      }
      limit = bound;
    }
    return { kind: 'placed', lines: first };
  } catch (e) {
    if (e instanceof OutOfSteps) {
      return undefined;
    }
    throw e;
  }
}

/**
 * Writes the new text: untouched and kept lines copied from the file with their own
 * terminators, added lines with the terminators of the lines they replace (in order),
 * then the dominant one. A line without a terminator (the old last line) gets the
 * dominant one, and then the result's last line loses its own when the file ended without
 * one (see `endsBare`): byte-faithful where Codex ends every file with a line ending.
 */
function assemble(file: FileText, placed: readonly Placed[], chunks: readonly Chunk[]): string {
  // A chunk without old lines inside another chunk's replaced lines goes after them.
  // Replacements do not overlap, so the last one starting before it is the only one that can hold it.
  const edits = placed.map((p) => ({ ...p }));
  const replaced = edits.filter((r) => !r.insert).sort((x, y) => x.pos - y.pos);
  const starts = replaced.map((r) => r.pos);
  for (const e of edits) {
    if (e.insert) {
      const r = replaced[indexAtMost(starts, e.pos - 1)];
      if (r && e.pos < r.pos + r.variant.pattern.length) {
        e.pos = r.pos + r.variant.pattern.length;
      }
    }
  }
  edits.sort((a, b) => a.pos - b.pos || Number(b.insert) - Number(a.insert) || a.chunk - b.chunk);
  const out: string[] = [];
  const copy = (from: number, to: number): void => {
    if (to > from) {
      out.push(file.slice(from, to));
      if (file.eol(to - 1) === '') {
        out.push(file.dominant);
      }
    }
  };
  let cur = 0;
  for (const e of edits) {
    copy(cur, e.pos);
    cur = Math.max(cur, e.pos);
    if (e.insert) {
      for (const l of e.variant.body) {
        if (l.op === '+') {
          out.push(l.text, file.dominant);
        }
      }
      continue;
    }
    let removed: string[] = [];
    let added: string[] = [];
    const flush = (): void => {
      added.forEach((t, i) => out.push(t, removed[i] || file.dominant));
      removed = [];
      added = [];
    };
    for (const l of e.variant.body) {
      if (l.op === ' ') {
        flush();
        copy(cur, cur + 1);
        cur++;
      } else if (l.op === '-') {
        removed.push(file.eol(cur));
        cur++;
      } else {
        added.push(l.text);
      }
    }
    flush();
  }
  copy(cur, file.count);
  const text = out.join('');
  return endsBare(file, placed, chunks) ? text.replace(/\r?\n$/, '') : text;
}

/**
 * Whether the result ends without a line break: as the file did, unless the chunk that
 * reaches the file's end says otherwise with `\ No newline at end of file` (see parse.ts).
 */
function endsBare(file: FileText, placed: readonly Placed[], chunks: readonly Chunk[]): boolean {
  const atEnd = placed.filter((p) => (p.insert ? p.pos : p.pos + p.variant.pattern.length) === file.count);
  const last = atEnd.find((p) => p.insert) ?? atEnd[0];
  const said = last ? chunks[last.chunk].noNewline : undefined;
  if (said) {
    return said.new;
  }
  return file.count > 0 && file.eol(file.count - 1) === '';
}

function noMatch(index: LineIndex, chunks: readonly Chunk[], k: number, start: number, run: Run): PatchVerifyError {
  const chunk = chunks[k];
  // what the file holds near it costs a search: only for the failures the answer shows
  const explain = run.explain?.() ?? true;
  const other = explain ? elsewhere(index, chunk, variantsOf(chunk).map((v) => v.pattern), start) : undefined;
  return new PatchVerifyError({
    code: 'no-match',
    hunk: run.hunk,
    path: run.path,
    chunk: chunkRef(chunks, k, run),
    searchFrom: start + 1,
    elsewhere: other,
    closest: other || !explain ? undefined : closestRegion(index, chunk.oldLines, start),
    textAfterHunk: run.textAfterHunk,
  });
}
