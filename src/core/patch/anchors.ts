import { throwIfCancelled } from '../cancel';
import { MAX_PATCH_AMBIGUOUS_PLACES, MAX_PATCH_PREFIX_LINES } from '../limits';
import { chunkRef, elsewhere, fitChunk, insertionPoint, type Run } from './chunks';
import { mostSimilarLine } from './closest';
import { PatchVerifyError } from './errors';
import { ListFits, type Fits } from './fits';
import { firstFit, normaliseLine, SEEK_PASSES, type LineIndex } from './seek';
import type { Chunk } from './types';

// Where a chunk's `@@` lines are: each a whole line of the file, or the start of one.

/** Where the `@@` lines of chunk `k` are found, from line `s`: each the first after the one before. */
export interface Anchors {
  ctxFits: Fits[];
  /** 0-based line of the last `@@` line, -1 when there is none. */
  lastAt: number;
  /** The last `@@` line was found as the start of a line, not the whole of it. */
  byPrefix: boolean;
}

/**
 * The `@@` lines of chunk `k`, each at its first fit after the one before: a whole line
 * of the file wins; failing that, the first line that starts with it (trimmed, with a
 * letter or digit in it: models write `@@ def save`). When several lines start with it
 * and the chunk would go to a different place under each, it is refused, naming them.
 */
export function findAnchors(index: LineIndex, chunks: readonly Chunk[], k: number, s: number, run: Run): Anchors {
  const contexts = chunks[k].contexts;
  const ctxFits: Fits[] = [];
  let lastAt = -1;
  let byPrefix = false;
  for (let r = 0; r < contexts.length; r++) {
    const ctx = contexts[r];
    const hit = firstFit(index, [ctx], s, false);
    if (hit) {
      ctxFits.push(hit.fits);
      lastAt = hit.at;
      byPrefix = false;
      s = hit.at + 1;
      continue;
    }
    const all = prefixLines(index, ctx);
    const candidates = all.filter((q) => q >= s);
    if (candidates.length === 0) {
      throw contextNotFound(index, chunks, k, ctx, s, run);
    }
    const q = candidates.length === 1 ? candidates[0] : choosePrefixLine(index, chunks, k, r, candidates, all.length > MAX_PATCH_PREFIX_LINES, s, run);
    ctxFits.push(new ListFits(all));
    lastAt = q;
    byPrefix = true;
    s = q + 1;
  }
  return { ctxFits, lastAt, byPrefix };
}

/** The lines that start with `ctx` (a prefix with a letter or digit in it), at most MAX_PATCH_PREFIX_LINES + 1. */
function prefixLines(index: LineIndex, ctx: string): number[] {
  const want = normaliseLine(ctx);
  return /[\p{L}\p{N}]/u.test(want) ? index.linesStartingWith(want, MAX_PATCH_PREFIX_LINES) : [];
}

/**
 * Of several lines that start with the `@@` text `contexts[r]` of chunk `k`, the first
 * after which the chunk fits; refused when the chunk would go to another place after
 * another of them (or there are too many to tell).
 */
function choosePrefixLine(index: LineIndex, chunks: readonly Chunk[], k: number, r: number, candidates: readonly number[], tooMany: boolean, s: number, run: Run): number {
  const ctx = chunks[k].contexts[r];
  const distinct: { q: number; landing: number }[] = [];
  let skipBelow = -1;
  if (!tooMany) {
    for (const q of candidates) {
      throwIfCancelled(run.signal);
      if (q < skipBelow) {
        continue; // from here the rest of the chunk is found where it was found from the line before
      }
      const rest = landingAfter(index, chunks, k, r, q);
      if (!rest) {
        continue;
      }
      skipBelow = rest.next;
      if (!distinct.some((d) => d.landing === rest.landing)) {
        distinct.push({ q, landing: rest.landing });
        if (distinct.length > MAX_PATCH_AMBIGUOUS_PLACES) {
          break;
        }
      }
    }
    if (distinct.length <= 1) {
      return distinct.length === 1 ? distinct[0].q : candidates[0];
    }
  }
  const shown = tooMany ? candidates.slice(0, MAX_PATCH_AMBIGUOUS_PLACES) : distinct.slice(0, MAX_PATCH_AMBIGUOUS_PLACES).map((d) => d.q);
  throw new PatchVerifyError({
    code: 'context-ambiguous',
    hunk: run.hunk,
    path: run.path,
    chunk: chunkRef(chunks, k, run),
    context: ctx,
    searchFrom: s + 1,
    candidates: shown.map((q) => ({ line: q + 1, text: index.source.line(q) })),
    more: tooMany || distinct.length > MAX_PATCH_AMBIGUOUS_PLACES,
    textAfterHunk: run.textAfterHunk,
  });
}

/**
 * Where chunk `k` goes when its `@@` line `r` is the line `q`: its later `@@` lines each
 * at their first fit (a prefix at its first line), then its old lines (or, for `+` lines
 * only, the end of the file). `next`: the line the search after `q` found first; any line
 * between `q` and it leads to the same place. Undefined when the chunk does not fit there.
 */
function landingAfter(index: LineIndex, chunks: readonly Chunk[], k: number, r: number, q: number): { landing: number; next: number } | undefined {
  const chunk = chunks[k];
  let at = q;
  let byPrefix = true;
  let next: number | undefined;
  for (let t = r + 1; t < chunk.contexts.length; t++) {
    const hit = firstFit(index, [chunk.contexts[t]], at + 1, false);
    const found = hit ? hit.at : prefixLines(index, chunk.contexts[t]).find((x) => x > at);
    if (found === undefined) {
      return undefined;
    }
    byPrefix = !hit;
    at = found;
    next ??= found;
  }
  if (chunk.oldLines.length === 0) {
    const ip = insertionPoint(index.source);
    return at === ip - 1 && anchorsEnd(index, chunk, ip, byPrefix) ? { landing: ip, next: next ?? ip } : undefined;
  }
  const from = overlaps(index, chunk, at, byPrefix) ? at : at + 1;
  const fit = fitChunk(index, chunk, from);
  return fit && 'hit' in fit ? { landing: fit.hit.at, next: next ?? fit.hit.at } : undefined;
}

/**
 * `@@ def f():` followed by the kept line ` def f():` names that line twice: the old
 * lines may then start on the `@@` line itself (for a prefix, `@@ def f` then ` def f():`
 * where the file's line is `def f():`).
 */
export function overlaps(index: LineIndex, chunk: Chunk, lastAt: number, byPrefix: boolean): boolean {
  if (lastAt < 0) {
    return false;
  }
  const first = normaliseLine(chunk.oldLines[0]);
  return first === normaliseLine(chunk.contexts[chunk.contexts.length - 1]) || (byPrefix && first === normaliseLine(index.source.line(lastAt)));
}

/** Whether a `+`-only chunk's last `@@` line names the line before the insertion point `ip`. */
export function anchorsEnd(index: LineIndex, chunk: Chunk, ip: number, byPrefix: boolean): boolean {
  const anchor = chunk.contexts[chunk.contexts.length - 1];
  return SEEK_PASSES.some((p) => index.matchesAt([anchor], p, ip - 1)) || (byPrefix && ip >= 1 && normaliseLine(index.source.line(ip - 1)).startsWith(normaliseLine(anchor)));
}

export function contextNotFound(index: LineIndex, chunks: readonly Chunk[], k: number, ctx: string, start: number, run: Run): PatchVerifyError {
  const explain = run.explain?.() ?? true;
  const other = explain ? elsewhere(index, { ...chunks[k], isEndOfFile: false }, [[ctx]], start) : undefined;
  const best = other || !explain ? undefined : mostSimilarLine(index.source.all(), normaliseLine(ctx));
  return new PatchVerifyError({
    code: 'context-not-found',
    hunk: run.hunk,
    path: run.path,
    chunk: chunkRef(chunks, k, run),
    context: ctx,
    searchFrom: start + 1,
    earlier: other?.line,
    closest: best === undefined ? undefined : { line: best + 1, text: index.source.line(best) },
    textAfterHunk: run.textAfterHunk,
  });
}
