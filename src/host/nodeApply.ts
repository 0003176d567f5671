import * as path from 'node:path';
import { throwIfCancelled } from '../core/cancel';
import { applyTextEdits } from '../core/diff';
import { APPLY_FSYNCS_IN_FLIGHT } from '../core/limits';
import { decodeTextExact, encodeText } from '../core/text/encoding';
import { besideName, codeOf, described, Disk, NODE_APPLY_IO, type ApplyIo, type Before, type Staged, type Undo } from './applyDisk';
import { SyncQueue } from './syncQueue';
import { WINDOWS_PATHS } from './volume';
import { ApplyFailure, StaleError, type ApplyOptions, type ApplyReport, type FileChange, type FileState } from './workspace';

export { NODE_APPLY_IO, type ApplyHandle, type ApplyIo, type ApplyStat } from './applyDisk';
/** Runs `step` once more when it fails: a transient error (an interrupted call, a busy disk) should not leave a file changed. */
async function twice(step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch {
    await step();
  }
}

/** Takes one step back; the state of what it could not take back when it fails. */
async function undoOne(disk: Disk, u: Undo): Promise<FileState[]> {
  const gone = (p: string) =>
    twice(() =>
      disk.unlink(p).catch((e) => {
        if (codeOf(e) !== 'ENOENT') {
          throw e;
        }
      }),
    );
  switch (u.kind) {
    case 'temp':
      return gone(u.path).then(
        () => [],
        () => [{ path: u.path, now: `is a file the change began to write for ${u.of}, left over (it can be deleted)` }],
      );
    case 'folder':
      return twice(() => disk.rmdir(u.path)).then(
        () => [],
        () => [{ path: u.path, now: 'is a folder the change created (it did not exist before)' }],
      );
    case 'created':
      return gone(u.path).then(
        () => [],
        () => [{ path: u.path, now: 'was created by the change and holds its new content (it did not exist before)' }],
      );
    case 'saved':
      if (!u.moved) {
        return gone(u.copy).then(
          () => [],
          () => [{ path: u.copy, now: `is a second copy of ${u.path}, left over (${u.path} is as it was; the copy can be deleted)` }],
        );
      }
      return twice(() => disk.rename(u.copy, u.path)).then(
        () => [],
        () => [{ path: u.path, now: u.now, savedAt: u.copy }],
      );
    case 'rewritten': {
      if (!u.started) {
        return gone(u.copy).then(
          () => [],
          () => [{ path: u.copy, now: `is a second copy of ${u.path}, left over (${u.path} is as it was; the copy can be deleted)` }],
        );
      }
      try {
        await twice(() => disk.overwriteInPlace(u.path, u.bytes));
      } catch {
        // The bytes matter more than the links: the saved copy takes the path back.
        return twice(() => disk.rename(u.copy, u.path)).then(
          () => [{ path: u.path, now: 'has its previous content back from its saved copy, but is no longer one file with its other hard links, which may hold part of the new content' }],
          () => [{ path: u.path, now: 'may hold part of the new content (and so may its other hard links)', savedAt: u.copy }],
        );
      }
      return gone(u.copy).then(
        () => [],
        () => [{ path: u.copy, now: `is a second copy of ${u.path}, left over (${u.path} is as it was; the copy can be deleted)` }],
      );
    }
    case 'renamed':
      return twice(() => disk.rename(u.to, u.from)).then(
        () => [],
        () => [{ path: u.from, now: `was moved to ${u.to}` }],
      );
  }
}

/**
 * Changes on node:fs, all or nothing. Every path is read before the first write; each
 * step keeps what it replaces or deletes at a saved copy beside it and records what it
 * did. A failure (or cancellation) part-way takes the steps back in reverse order, so
 * what a step created is gone before what it replaced comes back, and the previous files
 * come back by renaming their saved copies, which needs no space on a full disk. Only
 * once every step landed are the saved copies removed. When taking a step back fails
 * too, an `ApplyFailure` names what each path holds and where its saved copy is.
 *
 * The new content is on the disk before any file is replaced: every file written whole
 * goes first to its temporary file, and those are synced together (one after another,
 * each sync waited for its own commit of the disk's journal: a patch of 200 files spent
 * seconds there); only then are they renamed over their files, in order, and the folders
 * that got new names synced, once each.
 */
export async function applyOnDisk(changes: readonly FileChange[], opts: ApplyOptions, io: ApplyIo = NODE_APPLY_IO, holdFolders?: boolean): Promise<ApplyReport> {
  throwIfCancelled(opts.signal);
  const disk = new Disk(io, holdFolders);
  try {
    return await applyWith(disk, changes, opts);
  } finally {
    await disk.close();
  }
}

async function applyWith(disk: Disk, changes: readonly FileChange[], opts: ApplyOptions): Promise<ApplyReport> {
  const snaps = new Map<string, Before | undefined>();
  for (const c of changes) {
    for (const p of c.kind === 'rename' ? [c.from, c.to] : [c.path]) {
      if (!snaps.has(p)) {
        snaps.set(p, await disk.read(p));
      }
    }
  }
  throwIfCancelled(opts.signal);
  refuseReadOnly(changes, snaps);
  await opts.beforeWrite?.();
  const journal: Undo[] = [];
  const readOnly: string[] = [];
  const syncs = new SyncQueue(APPLY_FSYNCS_IN_FLIGHT, described);
  try {
    const staged = new Map<FileChange, Staged>();
    const touched = new Touched();
    for (const c of changes) {
      throwIfCancelled(opts.signal);
      syncs.throwIfFailed();
      const paths = c.kind === 'rename' ? [c.from, c.to] : [c.path];
      // a path (or a folder above or below it) an earlier step changes is written in its turn, on what that step left
      if ((c.kind === 'edit' || c.kind === 'create') && !touched.near(c.path)) {
        staged.set(c, await stageOne(disk, c, snaps, journal, syncs));
      }
      paths.forEach((p) => touched.add(p));
    }
    await syncs.drain();
    for (const c of changes) {
      throwIfCancelled(opts.signal);
      await applyOne(disk, c, snaps, journal, readOnly, staged.get(c));
    }
    throwIfCancelled(opts.signal);
  } catch (e) {
    await syncs.drain().catch(() => undefined);
    const left: FileState[] = [];
    for (const u of [...journal].reverse()) {
      left.push(...(await undoOne(disk, u)));
    }
    if (left.length) {
      throw new ApplyFailure(e instanceof Error ? e.message : String(e), left);
    }
    throw e;
  }
  // Once every file is renamed the change has landed, and a reader sees it whole: a sync
  // of the folders that fails is not a reason to take it back (that would be no more
  // durable), and their files' bytes were synced before the first rename.
  const folderSyncs = new SyncQueue(APPLY_FSYNCS_IN_FLIGHT, described);
  for (const dir of foldersNamedIn(changes, journal)) {
    await disk.syncFolder(dir, folderSyncs).catch(() => undefined);
  }
  await folderSyncs.drain().catch(() => undefined);
  const savedCopiesLeft: string[] = [];
  for (const u of journal) {
    if (u.kind === 'saved' || u.kind === 'rewritten') {
      await twice(() => disk.unlink(u.copy)).catch(() => savedCopiesLeft.push(u.copy));
    }
  }
  return { unsaved: [], readOnly, savedCopiesLeft };
}

/**
 * Where a file's read-only attribute is the platform's word (Windows: replacing, moving
 * over or deleting such a file is refused there, or silently allowed by node, which clears
 * it), a change to one is refused before anything is written, saying so; elsewhere mode
 * bits are the file's owner's to set, and the file is written keeping them (the result
 * says it was read-only).
 */
export function refuseReadOnly(changes: readonly FileChange[], snaps: ReadonlyMap<string, Pick<Before, 'mode'> | undefined>, windows = WINDOWS_PATHS): void {
  if (!windows) {
    return;
  }
  for (const c of changes) {
    for (const p of c.kind === 'rename' ? [c.from, c.to] : [c.path]) {
      const before = snaps.get(p);
      if (before && (before.mode & 0o222) === 0) {
        throw new Error(`${p} is read-only (its read-only attribute is set); ask the user to clear it if the file should change`);
      }
    }
  }
}

/** Paths earlier steps of a change touch, and the folders above them. */
class Touched {
  private readonly paths = new Set<string>();
  private readonly above = new Set<string>();

  add(p: string): void {
    this.paths.add(p);
    for (let d = path.dirname(p); !this.above.has(d); d = path.dirname(d)) {
      this.above.add(d);
      if (path.dirname(d) === d) {
        break;
      }
    }
  }

  /** Whether `p`, a folder above it, or something inside it was touched. */
  near(p: string): boolean {
    if (this.above.has(p)) {
      return true;
    }
    for (let q = p; ; q = path.dirname(q)) {
      if (this.paths.has(q)) {
        return true;
      }
      if (path.dirname(q) === q) {
        return false;
      }
    }
  }
}

/** The folders whose names the change altered: where it renamed or created a file or folder. */
function foldersNamedIn(changes: readonly FileChange[], journal: readonly Undo[]): Set<string> {
  const out = new Set<string>();
  for (const c of changes) {
    for (const p of c.kind === 'rename' ? [c.from, c.to] : [c.path]) {
      out.add(path.dirname(p));
    }
  }
  for (const u of journal) {
    if (u.kind === 'folder') {
      out.add(path.dirname(u.path));
    }
  }
  return out;
}

/** The first half of an edit or a create (see Disk.stage): checked and written beside its file, the sync left to `syncs`. */
async function stageOne(disk: Disk, c: Extract<FileChange, { kind: 'edit' | 'create' }>, snaps: ReadonlyMap<string, Before | undefined>, journal: Undo[], syncs: SyncQueue): Promise<Staged> {
  const before = snaps.get(c.path);
  if (c.kind === 'edit') {
    // a path's first step starts from its snapshot, read moments ago; a write to the file since
    // is caught when it is linked as its saved copy and again just before the rename (Disk.commit)
    const current = before;
    const decoded = current && decodeTextExact(current.bytes);
    if (!current || !decoded || decoded.text !== c.base) {
      throw new StaleError(c.path);
    }
    // the file is written whole: the text the edits make, when the change carries it, spares reading its edits (a line diff)
    const bytes = encodeText(c.text ?? applyTextEdits(decoded.text, c.edits), decoded.encoding);
    return disk.stage(c.path, bytes, current, journal, syncs).catch((e) => Promise.reject(described(e, `writing ${c.path}`)));
  }
  if (!c.overwrite && (before || (await disk.exists(c.path)))) {
    throw new Error(`${c.path} already exists`);
  }
  try {
    await disk.makeParents(c.path, journal);
    return await disk.stage(c.path, c.bytes, before, journal, syncs);
  } catch (e) {
    throw described(e, `writing ${c.path}`);
  }
}

async function applyOne(disk: Disk, c: FileChange, snaps: ReadonlyMap<string, Before | undefined>, journal: Undo[], readOnly: string[], staged?: Staged): Promise<void> {
  const wrote = (p: string) => {
    const before = snaps.get(p);
    if (before && (before.mode & 0o222) === 0) {
      readOnly.push(p);
    }
  };
  if (staged && (c.kind === 'edit' || c.kind === 'create')) {
    await disk.commit(c.path, staged, journal).catch((e) => Promise.reject(described(e, `writing ${c.path}`)));
    wrote(c.path);
    return;
  }
  switch (c.kind) {
    case 'edit': {
      const before = snaps.get(c.path);
      const current = before && (await disk.read(c.path).catch((e) => Promise.reject(described(e, `reading ${c.path}`))));
      const decoded = current && decodeTextExact(current.bytes);
      if (!current || !decoded || decoded.text !== c.base) {
        throw new StaleError(c.path);
      }
      // the file is written whole: the text the edits make, when the change carries it, spares reading its edits (a line diff)
      await disk.replace(c.path, encodeText(c.text ?? applyTextEdits(decoded.text, c.edits), decoded.encoding), current, journal).catch((e) => Promise.reject(described(e, `writing ${c.path}`)));
      wrote(c.path);
      return;
    }
    case 'create': {
      const before = snaps.get(c.path);
      if (!c.overwrite && (before || (await disk.exists(c.path)))) {
        throw new Error(`${c.path} already exists`);
      }
      try {
        await disk.makeParents(c.path, journal);
        await disk.replace(c.path, c.bytes, before && (await disk.read(c.path)), journal);
      } catch (e) {
        throw described(e, `writing ${c.path}`);
      }
      wrote(c.path);
      return;
    }
    case 'delete': {
      const saved: Undo = { kind: 'saved', path: c.path, copy: besideName(c.path, 'saved'), moved: true, now: 'is deleted' };
      await disk.rename(c.path, saved.copy).catch((e) => Promise.reject(described(e, `deleting ${c.path}`)));
      journal.push(saved);
      return;
    }
    case 'rename': {
      if (c.respell) {
        await respell(disk, c.from, c.to, journal);
        return;
      }
      const before = snaps.get(c.to);
      const there = await disk.exists(c.to);
      if (there && !c.overwrite) {
        throw new Error(`${c.to} already exists`);
      }
      if (there && !before) {
        throw new StaleError(c.to);
      }
      try {
        await disk.makeParents(c.to, journal);
        let saved: Extract<Undo, { kind: 'saved' }> | undefined;
        const now = there && before ? await disk.read(c.to) : undefined;
        if (now) {
          saved = { kind: 'saved', path: c.to, copy: besideName(c.to, 'saved'), moved: false, now: `holds the file moved from ${c.from}` };
          const linked = await disk.keep(c.to, saved.copy, now, journal);
          journal.push(saved);
          await disk.kept(c.to, saved.copy, now, linked);
        }
        await disk.rename(c.from, c.to);
        journal.push({ kind: 'renamed', from: c.from, to: c.to });
        if (saved) {
          saved.moved = true;
        }
      } catch (e) {
        throw described(e, `moving ${c.from} to ${c.to}`);
      }
      return;
    }
  }
}

/**
 * Gives one file another spelling of its name (`App.ts` to `app.ts`) on a volume that
 * folds names: through a temporary name beside it, as such a volume may take a rename of
 * a file onto itself as nothing to do (Linux over a folding FUSE volume, Wine), and a
 * name it finds under `to` is the file itself. Each rename is recorded, so a failure puts
 * the old name back.
 */
async function respell(disk: Disk, from: string, to: string, journal: Undo[]): Promise<void> {
  const tmp = besideName(to, 'tmp');
  try {
    await disk.rename(from, tmp);
    journal.push({ kind: 'renamed', from, to: tmp });
    await disk.rename(tmp, to);
    journal.push({ kind: 'renamed', from: tmp, to });
  } catch (e) {
    throw described(e, `renaming ${from} to ${to}`);
  }
}
