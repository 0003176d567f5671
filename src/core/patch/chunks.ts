import type { CancelSignal } from '../cancel';
import type { ChunkRef, HunkRef, PatchVerifyDetail } from './errors';
import { SEEK_PASSES, type LineIndex } from './seek';
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
 * The chunk as written, then (as Codex retries) without a trailing empty old line and
 * the matching trailing empty new line, repeatedly: a blank line before the next `@@` or
 * the end of the patch is often a separator, not a line of the file.
 */
export function variantsOf(chunk: Chunk): Variant[] {
  const out: Variant[] = [{ pattern: chunk.oldLines, body: chunk.body }];
  let body = chunk.body;
  for (;;) {
    const oldAt = lastIndex(body, (l) => l.op !== '+');
    if (oldAt < 0 || body[oldAt].text !== '') {
      return out;
    }
    const newAt = lastIndex(body, (l) => l.op !== '-');
    body = body.filter((_, i) => i !== oldAt && !(i === newAt && body[newAt].text === ''));
    const pattern = body.filter((l) => l.op !== '+').map((l) => l.text);
    if (pattern.length === 0) {
      return out;
    }
    out.push({ pattern, body });
  }
}

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
