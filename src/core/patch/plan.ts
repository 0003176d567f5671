import { throwIfCancelled, type CancelSignal } from '../cancel';
import { MAX_PATCH_FAILED_FILES_SHOWN, MAX_PATCH_FAILURES_PER_FILE, MAX_PATCH_PATHS, PATCH_PROBE_CONCURRENCY } from '../limits';
import { failurePath, PatchVerifyError, type HunkRef, type PatchVerifyDetail } from './errors';
import { applyChunks } from './place';
import type { ChunkMatch, FileProbe, Hunk, ParsedPatch, PatchPlan, PlannedChange } from './types';

/** One file (one identity) as the hunks so far have left it. */
interface FileState {
  key: string;
  /** The first spelling of the path in the patch. */
  path: string;
  origin: FileProbe;
  kind: FileProbe['kind'];
  text?: string;
  /** Hunks that touched this identity, in order. */
  refs: HunkRef[];
  /** The last hunk that changed the text, when one did. */
  changedBy?: number;
  /** It was deleted, or overwritten by an add: the net effect replaces the file rather than editing it. */
  replaced: boolean;
  /** Why it is missing now, when a hunk of the patch removed it. */
  removedBy?: { hunk: HunkRef; how: 'deleted' | 'moved' };
  /** Source of a move: the destination's key and the hunk. */
  movedOut?: { to: string; hunk: HunkRef };
  /** Destination of a move (or a rename onto the same identity): the hunk. */
  movedIn?: HunkRef;
  /** A rename onto the same identity (another spelling, e.g. a change of case). */
  renamedTo?: string;
  matches: ChunkMatch[];
}

function hunkRef(h: Hunk, index: number): HunkRef {
  const ref: HunkRef = { index, kind: h.kind, path: h.path, patchLine: h.patchLine };
  if (h.kind === 'update' && h.movePath !== undefined) {
    ref.movePath = h.movePath;
  }
  return ref;
}

/** Probes every path, a few at a time; each path once. */
async function probeAll(paths: readonly string[], probe: (path: string) => Promise<FileProbe>, signal: CancelSignal | undefined): Promise<Map<string, FileProbe>> {
  const out = new Map<string, FileProbe>();
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < paths.length) {
      throwIfCancelled(signal);
      const path = paths[next++];
      try {
        out.set(path, await probe(path));
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PATCH_PROBE_CONCURRENCY, paths.length) }, worker));
  throwIfCancelled(signal);
  return out;
}

/**
 * Verifies every hunk against the files (read through `probe`, each path at most once)
 * and computes every new text. Returns the complete plan, one change per file, or throws
 * `PatchVerifyError` (or `CancelledError`); nothing is ever partly planned. The grammar
 * comment of parse.ts states what a sequence of hunks on one path means.
 */
export async function planPatch(patch: ParsedPatch, probe: (path: string) => Promise<FileProbe>, signal?: CancelSignal): Promise<PatchPlan> {
  if (patch.hunks.length === 0) {
    throw new PatchVerifyError({ code: 'empty' });
  }
  const paths: string[] = [];
  const seen = new Set<string>();
  for (const h of patch.hunks) {
    for (const p of h.kind === 'update' && h.movePath !== undefined ? [h.path, h.movePath] : [h.path]) {
      if (!seen.has(p)) {
        seen.add(p);
        paths.push(p);
      }
    }
  }
  if (paths.length > MAX_PATCH_PATHS) {
    throw new PatchVerifyError({ code: 'too-many-paths', count: paths.length, max: MAX_PATCH_PATHS });
  }
  const probes = await probeAll(paths, probe, signal);

  const states = new Map<string, FileState>();
  const stateOf = (path: string): FileState => {
    const origin = probes.get(path) as FileProbe;
    const key = origin.key === undefined ? `path:${path}` : `key:${origin.key}`;
    let s = states.get(key);
    if (!s) {
      s = { key, path, origin, kind: origin.kind, text: origin.kind === 'file' ? origin.text : undefined, refs: [], replaced: false, matches: [] };
      states.set(key, s);
    }
    return s;
  };

  // Every hunk is verified, not only those up to the first that fails: one answer names every failure.
  const failures: PatchVerifyDetail[] = [];
  const budget = new FailureBudget();
  patch.hunks.forEach((h, i) => {
    throwIfCancelled(signal);
    try {
      verifyHunk(h, i);
    } catch (e) {
      if (!(e instanceof PatchVerifyError)) {
        throw e;
      }
      for (const d of e.failures) {
        budget.take(failurePath(d) ?? '');
        failures.push(d);
      }
    }
  });
  if (failures.length > 0) {
    throw new PatchVerifyError(failures);
  }

  return { changes: netChanges(states) };

  function verifyHunk(h: Hunk, i: number): void {
    const ref = hunkRef(h, i + 1);
    const s = stateOf(h.path);
    const dest = h.kind === 'update' && h.movePath !== undefined ? stateOf(h.movePath) : undefined;
    checkMoves(h, ref, s, dest);
    s.refs.push(ref);
    if (h.kind === 'add') {
      if (s.kind === 'directory') {
        throw new PatchVerifyError({ code: 'directory', hunk: ref, path: h.path });
      }
      s.replaced ||= s.kind === 'file';
      s.kind = 'file';
      s.text = h.contents;
      s.changedBy = ref.index;
      s.removedBy = undefined;
      return;
    }
    if (s.kind === 'missing') {
      throw new PatchVerifyError({ code: 'missing', hunk: ref, path: h.path, earlier: s.removedBy });
    }
    if (s.kind === 'directory') {
      throw new PatchVerifyError({ code: 'directory', hunk: ref, path: h.path });
    }
    if (h.kind === 'delete') {
      s.kind = 'missing';
      s.text = undefined;
      s.replaced = true;
      s.removedBy = { hunk: ref, how: 'deleted' };
      s.changedBy = ref.index;
      return;
    }
    const result = applyChunks(s.text as string, h.chunks, { hunk: ref, path: h.path, textAfterHunk: s.changedBy, signal, explain: () => budget.take(h.path) });
    // One push per match: spreading a chunk-sized list as arguments overflows the stack.
    for (const m of result.matches) {
      s.matches.push(m);
    }
    // Its failed chunks were left out: later hunks of this file are verified against the rest of its change.
    for (const f of result.failures) {
      failures.push(f);
    }
    if (!dest || dest === s) {
      s.text = result.text;
      s.changedBy = ref.index;
      if (dest && h.movePath !== h.path) {
        s.renamedTo = h.movePath;
        s.movedIn = ref;
      }
      return;
    }
    if (dest.kind === 'directory') {
      throw new PatchVerifyError({ code: 'directory', hunk: ref, path: dest.path });
    }
    dest.refs.push(ref);
    dest.kind = 'file';
    dest.text = result.text;
    dest.changedBy = ref.index;
    dest.movedIn = ref;
    dest.matches = s.matches;
    s.kind = 'missing';
    s.text = undefined;
    s.movedOut = { to: dest.key, hunk: ref };
    s.removedBy = { hunk: ref, how: 'moved' };
  }
}

/**
 * Which failures are worth explaining in full (a closest region, a similar line: each a
 * search of the file): those the answer shows, the first few of the first few files.
 * The rest are only counted, so a patch of 2,000 failing chunks costs no more to refuse.
 */
class FailureBudget {
  /** Per path: its place among the paths that failed, and its failures so far. */
  private readonly seen = new Map<string, { order: number; count: number }>();

  /** Counts one failure of `path`; whether it is among those shown. */
  take(path: string): boolean {
    let s = this.seen.get(path);
    if (!s) {
      s = { order: this.seen.size, count: 0 };
      this.seen.set(path, s);
    }
    s.count++;
    return s.order < MAX_PATCH_FAILED_FILES_SHOWN && s.count <= MAX_PATCH_FAILURES_PER_FILE;
  }
}

/**
 * Refuses what one patch cannot express as net changes without guessing: a second use of
 * a move's source after the move (other than the natural "missing" error of an update or
 * delete), any use of a destination other than plain updates after the move, and a move
 * onto a path an earlier hunk touched.
 */
function checkMoves(h: Hunk, ref: HunkRef, s: FileState, dest: FileState | undefined): void {
  const refuse = (path: string, other: HunkRef): never => {
    throw new PatchVerifyError({ code: 'move-sequence', hunk: ref, path, other });
  };
  if (s.movedOut && h.kind === 'add') {
    refuse(h.path, s.movedOut.hunk);
  }
  if (s.movedIn && !(h.kind === 'update' && (dest === undefined || dest === s))) {
    refuse(h.path, s.movedIn);
  }
  if (s.movedIn && dest === s && h.kind === 'update' && h.movePath !== undefined && h.movePath !== h.path) {
    refuse(h.path, s.movedIn);
  }
  if (dest && dest !== s && dest.refs.length > 0) {
    refuse(dest.path, dest.refs[0]);
  }
  if (dest === s && h.kind === 'update' && h.movePath !== h.path && s.refs.length > 0) {
    refuse(h.path, s.refs[0]);
  }
}

function numbers(refs: readonly HunkRef[]): number[] {
  return [...new Set(refs.map((r) => r.index))].sort((a, b) => a - b);
}

function originText(p: FileProbe): string | undefined {
  return p.kind === 'file' ? p.text : undefined;
}

/** The net change of each file, in the order the patch first names it. */
function netChanges(states: ReadonlyMap<string, FileState>): PlannedChange[] {
  const changes: PlannedChange[] = [];
  for (const s of states.values()) {
    if (s.movedOut) {
      const d = states.get(s.movedOut.to) as FileState;
      const hunks = numbers([...s.refs, ...d.refs]);
      const overwritten = originText(d.origin);
      if (s.origin.kind === 'file') {
        const change: PlannedChange = { kind: 'update', path: s.path, movePath: d.path, oldText: s.origin.text, newText: d.text as string, moveOverwrites: overwritten !== undefined, matches: d.matches, hunks };
        if (overwritten !== undefined) {
          change.overwrittenText = overwritten;
        }
        changes.push(change);
      } else {
        changes.push(addChange(d.path, d.text as string, overwritten, hunks));
      }
      continue;
    }
    if (s.movedIn && !s.renamedTo) {
      continue; // reported with its source
    }
    const before = originText(s.origin);
    if (s.kind === 'file') {
      if (before === undefined || s.replaced) {
        changes.push(addChange(s.path, s.text as string, before, numbers(s.refs)));
      } else {
        const change: PlannedChange = { kind: 'update', path: s.path, oldText: before, newText: s.text as string, matches: s.matches, hunks: numbers(s.refs) };
        if (s.renamedTo !== undefined) {
          change.movePath = s.renamedTo;
          change.moveOverwrites = false;
        }
        changes.push(change);
      }
    } else if (before !== undefined) {
      changes.push({ kind: 'delete', path: s.path, oldText: before, hunks: numbers(s.refs) });
    }
  }
  return changes;
}

function addChange(path: string, newText: string, oldText: string | undefined, hunks: number[]): PlannedChange {
  return oldText === undefined ? { kind: 'add', path, newText, overwrites: false, hunks } : { kind: 'add', path, newText, overwrites: true, oldText, hunks };
}
