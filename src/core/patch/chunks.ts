import type { CancelSignal } from '../cancel';
import type { ChunkRef, HunkRef, PatchVerifyDetail } from './errors';
import { firstFit, SEEK_PASSES, type LineIndex } from './seek';
import type { LineSource } from './text';
import type { Chunk, ChunkLine, ChunkMatch } from './types';

// What placing the chunks of one update shares: who is patched, a chunk's variants, its name in errors.

/** Who is being patched, for errors and match records. */
export interface UpdateSite {
  hunk: HunkRef;
  /** The path as errors name it. */
  path: string;
  /** Set when an earlier hunk of the patch already changed this file: its index. */
  textAfterHunk?: number;
  signal?: CancelSignal;
  /**
   * Called once for each failure: whether to explain it in full (the closest region, a
   * similar line), which costs a search of the file. Without it, every one is explained.
   */
  explain?: () => boolean;
}

/** The site as one hunk's placement goes: the chunks that failed so far (1-based). */
export interface Run extends UpdateSite {
  failed: number[];
}

export interface UpdateResult {
  /** The new text; the chunks that failed are left out of it. */
  text: string;
  matches: ChunkMatch[];
  /** Every chunk that does not fit, in order; the others were placed as if those were not there. */
  failures: PatchVerifyDetail[];
}

/** A chunk's lines to find and its body, possibly without trailing empty lines (see `variantsOf`). */
export interface Variant {
  pattern: string[];
  body: ChunkLine[];
}

/**
 * The chunk's lines as the format reads them, then, in a chunk with a bare kept line (one
 * written without its leading space), with every kept line that starts with a space taken
 * whole: a model that leaves the space out of some kept lines leaves it out of all of them,
 * and its indented kept lines then start with their own indentation. That reading comes
 * first; `fitChunk` keeps the one that fits most strictly.
 */
export function readingsOf(chunk: Chunk): ChunkLine[][] {
  if (!chunk.body.some((l) => l.bare)) {
    return [chunk.body];
  }
  const whole = chunk.body.map((l): ChunkLine => (l.op === ' ' && !l.bare && l.text.trim() !== '' ? { op: ' ', text: ` ${l.text}`, bare: true } : l));
  return whole.some((l, i) => l !== chunk.body[i]) ? [whole, chunk.body] : [chunk.body];
}

/**
 * Each reading of the chunk (see `readingsOf`) as written, then (as Codex retries) without
 * a trailing empty old line and the matching trailing empty new line, repeatedly: a blank
 * line before the next `@@` or the end of the patch is often a separator, not a line of
 * the file. Grouped by how many such lines were dropped, fewest first.
 */
export function variantGroups(chunk: Chunk): Variant[][] {
  const groups: Variant[][] = [];
  readingsOf(chunk).forEach((reading) => {
    trailingVariants(reading).forEach((v, level) => {
      (groups[level] ??= []).push(v);
    });
  });
  return groups;
}

/** Every variant of the chunk, in the order `variantGroups` tries them. */
export function variantsOf(chunk: Chunk): Variant[] {
  return variantGroups(chunk).flat();
}

function trailingVariants(first: ChunkLine[]): Variant[] {
  const patternOf = (body: readonly ChunkLine[]) => body.filter((l) => l.op !== '+').map((l) => l.text);
  const out: Variant[] = [{ pattern: patternOf(first), body: first }];
  let body = first;
  for (;;) {
    const oldAt = lastIndex(body, (l) => l.op !== '+');
    if (oldAt < 0 || body[oldAt].text !== '') {
      return out;
    }
    const newAt = lastIndex(body, (l) => l.op !== '-');
    body = body.filter((_, i) => i !== oldAt && !(i === newAt && body[newAt].text === ''));
    const pattern = patternOf(body);
    if (pattern.length === 0) {
      return out;
    }
    out.push({ pattern, body });
  }
}

/**
 * The first variant that fits from line `from` (see `fitGroups`). Blank lines that end the
 * chunk (`Chunk.separators`) and fit the file are empty kept lines only where that is the
 * one reading: without them the chunk must fit nowhere else, or `twoPlaces` names both.
 */
export function fitChunk(index: LineIndex, chunk: Chunk, from: number): { variant: Variant; hit: Hit } | { twoPlaces: [number, number] } | undefined {
  const groups = variantGroups(chunk);
  const found = fitGroups(index, chunk, groups, from);
  // Blank lines right before the next `@@` or header that fit as empty kept lines: without
  // them, the chunk must fit only there too, or the two readings are two places.
  const sep = chunk.separators ?? 0;
  if (found && 'hit' in found && sep > 0 && groups[0].includes(found.variant) && groups[sep]) {
    const without = fitGroups(index, chunk, [groups[sep]], from);
    if (without && 'hit' in without) {
      const other = without.hit.fits.between(from, index.source.count).find((h) => h !== found.hit.at);
      if (other !== undefined) {
        return { twoPlaces: [Math.min(other, found.hit.at), Math.max(other, found.hit.at)] };
      }
    } else if (without) {
      return without;
    }
  }
  return found;
}

/**
 * The first variant that fits from line `from`: within a group, the reading found by the
 * strictest pass. Two readings found by one pass are two meanings (`twoPlaces` names their
 * places), at different places, and at one place when that pass forgives indentation and the
 * chunk adds lines: their indentation would follow each reading differently. Otherwise the
 * first of two found alike at one place.
 */
function fitGroups(index: LineIndex, chunk: Chunk, groups: readonly Variant[][], from: number): { variant: Variant; hit: Hit } | { twoPlaces: [number, number] } | undefined {
  for (const group of groups) {
    let best: { variant: Variant; hit: Hit } | undefined;
    for (const variant of group) {
      const hit = firstFit(index, variant.pattern, from, chunk.isEndOfFile);
      if (!hit) {
        continue;
      }
      if (!best || SEEK_PASSES.indexOf(hit.pass) < SEEK_PASSES.indexOf(best.hit.pass)) {
        best = { variant, hit };
      } else if (hit.pass === best.hit.pass && (hit.at !== best.hit.at || (LEADING_FORGIVEN.has(hit.pass) && variant.body.some((l) => l.op === '+' && l.text.trim() !== '')))) {
        return { twoPlaces: [Math.min(hit.at, best.hit.at), Math.max(hit.at, best.hit.at)] };
      }
    }
    if (best) {
      return best;
    }
  }
  return undefined;
}

type Hit = NonNullable<ReturnType<typeof firstFit>>;

/** The passes that forgive leading whitespace. */
const LEADING_FORGIVEN: ReadonlySet<string> = new Set(['trim', 'unicode']);

export function lastIndex<T>(xs: readonly T[], f: (x: T) => boolean): number {
  for (let i = xs.length - 1; i >= 0; i--) {
    if (f(xs[i])) {
      return i;
    }
  }
  return -1;
}

/** Where a chunk without old lines goes: the end, before a final empty line (Codex). */
export function insertionPoint(file: LineSource): number {
  return file.count > 0 && file.line(file.count - 1) === '' ? file.count - 1 : file.count;
}

export function chunkRef(chunks: readonly Chunk[], k: number, run: Run): ChunkRef {
  const c = chunks[k];
  const ref: ChunkRef = { index: k + 1, count: chunks.length, contexts: c.contexts, patchLine: c.patchLine, oldBody: c.body.filter((l) => l.op !== '+') };
  const before = run.failed.filter((f) => f < k + 1);
  if (before.length > 0) {
    ref.afterFailed = before;
  }
  return ref;
}

/** Where the pattern fits in the file although not where the chunk may go: before `start`, or (End of File chunks) not at the end. */
export function elsewhere(index: LineIndex, chunk: Chunk, patterns: readonly (readonly string[])[], start: number): { line: number; why: 'before-previous' | 'not-at-end' } | undefined {
  for (const pattern of patterns) {
    for (const pass of SEEK_PASSES) {
      const fits = index.fits(pattern, pass);
      if (chunk.isEndOfFile) {
        const after = fits.first(start);
        if (after >= 0) {
          return { line: after + 1, why: 'not-at-end' };
        }
      }
      const before = fits.last(start - 1);
      if (before >= 0) {
        return { line: before + 1, why: 'before-previous' };
      }
    }
  }
  return undefined;
}
