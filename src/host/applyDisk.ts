import { constants as fsConstants } from 'node:fs';
import * as path from 'node:path';
import { CancelledError, ToolError } from '../core/errors';
import { APPLY_HELD_FOLDERS, MAX_FILE_NAME_BYTES } from '../core/limits';
import type { SyncQueue } from './syncQueue';
import { retryTransient } from './transient';
import { WINDOWS_PATHS } from './volume';
import { PROC_FD_PATHS } from './procfs';
import { ApplyFailure, StaleError } from './workspace';
import { holdsBytes, type ApplyHandle, type ApplyIo, type ApplyStat } from './applyIo';

export { NODE_APPLY_IO, type ApplyHandle, type ApplyIo, type ApplyStat } from './applyIo';

// The disk as a change uses it: the folders held open while it lasts (the operations
// themselves, a seam a test can fail one by one, are in applyIo.ts), and what every step
// records so that it can be undone.


/**
 * A regular file as it was before the change: its bytes, and what of it a write must keep
 * or check. `size`, `mtimeMs` and `ctimeMs` are from the descriptor its bytes were read
 * through (its stat taken before the read, so a write racing the read shows as a change).
 */
export type Before = { bytes: Uint8Array } & Pick<ApplyStat, 'mode' | 'uid' | 'gid' | 'nlink' | 'ino' | 'dev' | 'size' | 'mtimeMs' | 'ctimeMs'>;

/**
 * Whether `st` is still the file `before` describes, unwritten since: the same inode, and
 * the same size and times. A file the change renames over or links as its saved copy
 * must be the one it read (a save in an editor meanwhile would be lost: replaced, and its
 * only copy removed once the change lands); the change time catches a write that keeps
 * the size and sets the modification time back.
 */
export function sameFile(st: ApplyStat, before: Pick<Before, 'ino' | 'dev' | 'size' | 'mtimeMs' | 'ctimeMs'>): boolean {
  return st.isFile() && st.ino === before.ino && st.dev === before.dev && st.size === before.size && st.mtimeMs === before.mtimeMs && st.ctimeMs === before.ctimeMs;
}

/**
 * One thing the change did that is not yet known to stay, and how to take it back. Every
 * step that puts something on disk records it the moment it succeeds, so a failure at any
 * later point knows exactly what to undo.
 */
export type Undo =
  /** A file of ours beside the target (a temporary file, a copy being written): removed. */
  | { kind: 'temp'; path: string; of: string }
  /** A folder the change made: removed (it is empty once what the change put in it is gone). */
  | { kind: 'folder'; path: string }
  /** A file the change created where there was none: removed. */
  | { kind: 'created'; path: string }
  /**
   * The previous file kept at `copy` (a hard link to it, or a copy of its bytes); once
   * `moved`, `path` no longer holds it (it was replaced or deleted), and putting it back
   * is a rename, which needs no space on a full disk.
   */
  | { kind: 'saved'; path: string; copy: string; moved: boolean; now: string }
  /** Written in place (the file has other hard links); `copy` holds the previous bytes. */
  | { kind: 'rewritten'; path: string; copy: string; bytes: Uint8Array; started: boolean }
  /** A file renamed from `from` to `to`. */
  | { kind: 'renamed'; from: string; to: string };

/** Error codes of a file system that cannot make hard links: a saved copy is then written as bytes. */
export const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK']);

export function codeOf(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

/** Nothing is at the path: it, or a folder on its way, is missing (ENOTDIR: a file where a folder would be). */
export function isAbsent(e: unknown): boolean {
  const code = codeOf(e);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export function changedFolder(dir: string): ToolError {
  return new ToolError('changed', `${dir} changed while the change was applied (it, or a folder on its path, became a link), so nothing was written there. Read the files again, then redo the change.`);
}

/** A file system error named by the path the change meant, not the descriptor path it went through. */
export function described(e: unknown, doing: string): Error {
  if (e instanceof ToolError || e instanceof StaleError || e instanceof CancelledError || e instanceof ApplyFailure) {
    return e;
  }
  const code = codeOf(e);
  if (code === undefined || !(e instanceof Error)) {
    return e instanceof Error ? e : new Error(String(e));
  }
  // node's message ends in the path it was given, here a descriptor's (/proc/self/fd/N/...)
  return Object.assign(new Error(`${e.message.split(', ')[0]} (${doing})`), { code });
}

/** `s` cut to at most `maxBytes` of UTF-8, never inside a character. */
export function cutToBytes(s: string, maxBytes: number): string {
  if (Buffer.byteLength(s) <= maxBytes) {
    return s;
  }
  let out = '';
  let n = 0;
  for (const ch of s) {
    n += Buffer.byteLength(ch);
    if (n > maxBytes) {
      break;
    }
    out += ch;
  }
  return out;
}

let sideCount = 0;

/**
 * A file replace() has written beside its target, not yet renamed over it (see
 * Disk.stage), or the bytes to write into the target itself (see Disk.rewrite).
 */
export type Staged = { tmp: string; temp: Undo; like: Before | undefined } | { rewrite: Uint8Array; like: Before };

/**
 * A hidden name beside `p` for a temporary file or a saved copy, unique to this process
 * and call, that fits the file system's name limit however long `p`'s name is (a
 * 255-byte name plus a suffix would not).
 */
export function besideName(p: string, kind: 'tmp' | 'saved'): string {
  const tag = `.${process.pid.toString(36)}-${(++sideCount).toString(36)}.${kind}`;
  const room = MAX_FILE_NAME_BYTES - 1 - Buffer.byteLength(tag);
  return path.join(path.dirname(p), `.${cutToBytes(path.basename(p), room)}${tag}`);
}

/**
 * The disk as one change uses it: every operation goes through `io`, and every file is
 * reached through its held folder (see inFolder). Call close once the change is done.
 */
export class Disk {
  /** Folders opened for this change, by path, least recently used first (see inFolder). */
  private readonly held = new Map<string, ApplyHandle>();

  constructor(
    private readonly io: ApplyIo,
    /** Folders are held open and used through `/proc/self/fd` (see PROC_FD_PATHS); a test turns it off to check the other way. */
    private readonly holdFolders: boolean = PROC_FD_PATHS,
  ) {}

  /**
   * Runs `use` with a path that names the folder `dir` (a real path, as the policy decided
   * on it) and nothing else, whatever happens to `dir` meanwhile: on Linux the folder is
   * held open, its descriptor's path must be `dir`, and `use` works through
   * `/proc/self/fd/N`, so a folder swapped for a link (to outside the workspace, into
   * `.git`) after the decision is never written through. Elsewhere `dir` must still resolve
   * to itself just before `use`. Undefined (and `use` not run) when `dir` does not exist.
   *
   * A folder stays held for the rest of the change (at most APPLY_HELD_FOLDERS of them),
   * and its descriptor's path is asked again before every use: one that no longer names
   * `dir` (the folder was moved or removed) is let go, and `dir` opened afresh.
   */
  async inFolder<T>(dir: string, use: (held: string) => Promise<T>): Promise<T | undefined> {
    if (this.holdFolders) {
      const kept = this.held.get(dir);
      if (kept) {
        const real = await this.io.readlink(`/proc/self/fd/${kept.fd}`).catch(() => undefined);
        if (real === dir) {
          // the most recently used last
          this.held.delete(dir);
          this.held.set(dir, kept);
          return use(`/proc/self/fd/${kept.fd}`);
        }
        await this.letGo(dir);
      }
      let fh: ApplyHandle;
      try {
        fh = await this.io.open(dir, fsConstants.O_RDONLY | fsConstants.O_DIRECTORY | fsConstants.O_NOFOLLOW);
      } catch (e) {
        const code = codeOf(e);
        if (code === 'ENOENT') {
          return undefined;
        }
        if (code === 'ELOOP' || code === 'ENOTDIR') {
          throw changedFolder(dir);
        }
        throw e;
      }
      const held = `/proc/self/fd/${fh.fd}`;
      const real = await this.io.readlink(held).catch(() => undefined);
      if (real === undefined) {
        await fh.close();
      } else {
        if (real !== dir) {
          await fh.close();
          throw changedFolder(dir);
        }
        this.held.set(dir, fh);
        while (this.held.size > APPLY_HELD_FOLDERS) {
          await this.letGo(this.held.keys().next().value as string);
        }
        return use(held);
      }
    }
    let real: string;
    try {
      real = await this.io.realpath(dir);
    } catch (e) {
      if (codeOf(e) === 'ENOENT') {
        return undefined;
      }
      throw e;
    }
    if (real !== dir) {
      throw changedFolder(dir);
    }
    return use(dir);
  }

  /** Closes the folder held for `dir`, if one is; a folder opened only to be read cannot fail to close in a way that matters. */
  private async letGo(dir: string): Promise<void> {
    const fh = this.held.get(dir);
    this.held.delete(dir);
    await fh?.close().catch(() => undefined);
  }

  /** Lets go of every folder held. */
  async close(): Promise<void> {
    for (const dir of [...this.held.keys()]) {
      await this.letGo(dir);
    }
  }

  /** Runs `use` on the file `p` through its held folder: the name in it, and the folder. */
  async at<T>(p: string, use: (file: string, held: string) => Promise<T>): Promise<T> {
    const name = path.basename(p);
    const done = await this.inFolder(path.dirname(p), async (held) => ({ value: await use(path.join(held, name), held) }));
    if (!done) {
      throw Object.assign(new Error(`ENOENT: no such folder, ${path.dirname(p)}`), { code: 'ENOENT' });
    }
    return done.value;
  }

  /** Two paths, each through its held folder (a rename). */
  async at2<T>(a: string, b: string, use: (fileA: string, fileB: string) => Promise<T>): Promise<T> {
    return this.at(a, (fa) => this.at(b, (fb) => use(fa, fb)));
  }

  /** A regular file's bytes and identity, read through a descriptor that follows no final link and never waits on a FIFO. */
  async read(p: string): Promise<Before | undefined> {
    let st: ApplyStat;
    try {
      st = await this.io.lstat(p);
    } catch (e) {
      if (isAbsent(e)) {
        return undefined;
      }
      throw e;
    }
    if (!st.isFile()) {
      throw new Error(`${p} is not a regular file`);
    }
    const got = await this.inFolder(path.dirname(p), async (held) => {
      let fh: ApplyHandle;
      try {
        fh = await this.io.open(path.join(held, path.basename(p)), fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | (fsConstants.O_NONBLOCK ?? 0));
      } catch (e) {
        const code = codeOf(e);
        if (code === 'ENOENT') {
          return undefined;
        }
        if (code === 'ELOOP') {
          throw new Error(`${p} is not a regular file`);
        }
        throw e;
      }
      try {
        const s = await fh.stat();
        if (!s.isFile()) {
          throw new Error(`${p} is not a regular file`);
        }
        return { bytes: await fh.readFile(), mode: s.mode & 0o7777, uid: s.uid, gid: s.gid, nlink: s.nlink, ino: s.ino, dev: s.dev, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs };
      } finally {
        await fh.close();
      }
    });
    return got;
  }

  async exists(p: string): Promise<boolean> {
    try {
      await this.io.lstat(p);
      return true;
    } catch (e) {
      if (isAbsent(e)) {
        return false;
      }
      throw e;
    }
  }

  /**
   * Writes a new file at `target` (which must not exist) with `bytes`, synced to the disk,
   * recorded in `journal` from the moment it exists. With `like`, it gets that file's mode
   * and owner; when the owner cannot be given (not permitted), false and nothing left if
   * `ownerRequired`, else the file is ours. With `syncs`, its sync is left to them (and
   * its descriptor with it), so that it is on the disk once they are drained.
   */
  async writeNew(target: string, of: string, bytes: Uint8Array, like: Before | undefined, journal: Undo[], ownerRequired: boolean, syncs?: SyncQueue): Promise<boolean> {
    return this.at(target, async (file) => {
      const fh = await this.io.open(file, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW, like ? 0o600 : 0o666);
      const entry: Undo = { kind: 'temp', path: target, of };
      journal.push(entry);
      let ownerKept = true;
      let handedOver = false;
      try {
        // owner and mode bits only where files have them: on Windows a mode is one read-only attribute
        if (like && !WINDOWS_PATHS) {
          const mine = await fh.stat();
          if (mine.uid !== like.uid || mine.gid !== like.gid) {
            try {
              await fh.chown(like.uid, like.gid);
            } catch (e) {
              if (codeOf(e) !== 'EPERM') {
                throw e;
              }
              ownerKept = !ownerRequired;
            }
          }
          if (ownerKept) {
            // after chown, which clears set-id bits
            await fh.chmod(like.mode);
          }
        }
        if (ownerKept) {
          await fh.writeFile(bytes);
          if (syncs) {
            handedOver = true;
            await syncs.add(fh, `writing ${of}`);
          } else {
            await fh.sync();
          }
        }
      } finally {
        if (!handedOver) {
          await fh.close();
        }
      }
      if (!ownerKept) {
        await this.io.unlink(file);
        journal.splice(journal.indexOf(entry), 1);
      }
      return ownerKept;
    });
  }

  /**
   * Keeps the file at `p` (as `before`) at `copy`: a hard link, which costs no space and
   * keeps the very file (owner, mode, links); on a file system without links, a copy of
   * its bytes. A StaleError, and nothing kept, when `p` is no longer `before` (see
   * sameFile). Whether it linked: the caller then checks the link (see kept).
   */
  async keep(p: string, copy: string, before: Before, journal: Undo[]): Promise<boolean> {
    try {
      await this.at2(p, copy, async (file, to) => {
        await this.unchanged(file, p, before);
        await this.io.link(file, to);
      });
      return true;
    } catch (e) {
      if (!NO_LINKS.has(codeOf(e) ?? '')) {
        throw e;
      }
    }
    await this.writeNew(copy, p, before.bytes, before, journal, false);
    journal.pop();
    return false;
  }

  /**
   * What `p` must look like when it is replaced, once keep put `before` at `copy`: a link
   * takes whatever the name holds at that moment, so the copy must be the file that was
   * read (a StaleError if not); linking moved the file's change time, which is taken from
   * the copy.
   */
  async kept(p: string, copy: string, before: Before, linked: boolean): Promise<Before> {
    if (!linked) {
      return before;
    }
    const st = await this.io.lstat(copy);
    if (!sameFile(st, { ...before, ctimeMs: st.ctimeMs })) {
      throw new StaleError(p);
    }
    return { ...before, ctimeMs: st.ctimeMs };
  }

  /** Throws a StaleError when `file` (the path `p` through its held folder) is not `before` any more. */
  private async unchanged(file: string, p: string, before: Before): Promise<void> {
    let st: ApplyStat;
    try {
      st = await this.io.lstat(file);
    } catch (e) {
      if (isAbsent(e)) {
        throw new StaleError(p);
      }
      throw e;
    }
    if (!sameFile(st, before) && !(st.isFile() && (await holdsBytes(this.io, file, before.bytes)))) {
      throw new StaleError(p);
    }
  }

  /**
   * Puts `bytes` at `p`, as one step a reader sees whole: a temporary file beside it
   * (mode and owner of the file it replaces), then a rename over it, the previous file
   * kept at a saved copy until the change is known to stay. A file with other hard links,
   * or whose owner cannot be given to a new file, is written in place instead, so that
   * the links keep sharing it and its owner stays; a copy of its bytes is saved first.
   */
  async replace(p: string, bytes: Uint8Array, before: Before | undefined, journal: Undo[]): Promise<void> {
    return this.commit(p, await this.stage(p, bytes, before, journal), journal);
  }

  /**
   * The first half of replace: the temporary file written (its sync left to `syncs` when
   * given), or, for a file that is written in place, nothing yet. A change writes all its
   * files this way and syncs them together before it renames the first one.
   */
  async stage(p: string, bytes: Uint8Array, before: Before | undefined, journal: Undo[], syncs?: SyncQueue): Promise<Staged> {
    if (before && before.nlink > 1) {
      return { rewrite: bytes, like: before };
    }
    const tmp = besideName(p, 'tmp');
    if (!(await this.writeNew(tmp, p, bytes, before, journal, true, syncs))) {
      return { rewrite: bytes, like: before! };
    }
    return { tmp, temp: journal[journal.length - 1], like: before };
  }

  /**
   * The second half of replace: the previous file kept at its saved copy, then the
   * temporary file renamed over it. The file must still be the one stage was given: a
   * change stages all its files before it renames the first, seconds for a few hundred,
   * and one saved meanwhile is not the file that was read; it is checked just before the
   * link and again just before the rename, and a StaleError takes the change back.
   */
  async commit(p: string, staged: Staged, journal: Undo[]): Promise<void> {
    if ('rewrite' in staged) {
      return this.rewrite(p, staged.rewrite, staged.like, journal);
    }
    const { tmp, temp, like: before } = staged;
    let saved: Extract<Undo, { kind: 'saved' }> | undefined;
    let now: Before | undefined;
    if (before) {
      saved = { kind: 'saved', path: p, copy: besideName(p, 'saved'), moved: false, now: 'holds the new content' };
      const linked = await this.keep(p, saved.copy, before, journal);
      journal.push(saved);
      now = await this.kept(p, saved.copy, before, linked);
    } else if (await this.exists(p)) {
      // created by someone else since the change was prepared: theirs is kept
      throw new StaleError(p);
    }
    await this.at2(tmp, p, async (from, to) => {
      if (now) {
        await this.unchanged(to, p, now);
      }
      await retryTransient(() => this.io.rename(from, to));
    });
    journal.splice(journal.indexOf(temp), 1);
    if (saved) {
      saved.moved = true;
    } else {
      journal.push({ kind: 'created', path: p });
    }
  }

  /** Writes `bytes` into the file `p` itself (see replace), which must still be the file `before` describes. */
  async rewrite(p: string, bytes: Uint8Array, before: Before, journal: Undo[]): Promise<void> {
    const copy = besideName(p, 'saved');
    await this.writeNew(copy, p, before.bytes, before, journal, false);
    const entry: Extract<Undo, { kind: 'rewritten' }> = { kind: 'rewritten', path: p, copy, bytes: before.bytes, started: false };
    journal[journal.length - 1] = entry;
    await this.at(p, async (file) => {
      const fh = await this.io.open(file, fsConstants.O_WRONLY | fsConstants.O_NOFOLLOW | (fsConstants.O_NONBLOCK ?? 0));
      try {
        const st = await fh.stat();
        if (!sameFile(st, before)) {
          throw new StaleError(p);
        }
        entry.started = true;
        await writeOver(fh, bytes);
      } finally {
        await fh.close();
      }
    });
  }

  /** Writes `bytes` over the file `p` in place (see writeOver). */
  async overwriteInPlace(p: string, bytes: Uint8Array): Promise<void> {
    await this.at(p, async (file) => {
      const fh = await this.io.open(file, fsConstants.O_WRONLY | fsConstants.O_NOFOLLOW | (fsConstants.O_NONBLOCK ?? 0));
      try {
        await writeOver(fh, bytes);
      } finally {
        await fh.close();
      }
    });
  }

  /**
   * Creates the missing folders above `p`, deepest last, each in its held parent, each
   * recorded in `journal`. A link on the way is not a folder: the paths are real, so one
   * that is a link now was swapped after the decision.
   */
  async makeParents(p: string, journal: Undo[]): Promise<void> {
    let dir = path.dirname(p);
    const missing: string[] = [];
    for (;;) {
      let st: ApplyStat;
      try {
        st = await this.io.lstat(dir);
      } catch (e) {
        if (!isAbsent(e)) {
          throw e;
        }
        missing.push(dir);
        const up = path.dirname(dir);
        if (up === dir) {
          break;
        }
        dir = up;
        continue;
      }
      if (!st.isDirectory()) {
        throw st.isSymbolicLink() ? changedFolder(dir) : new Error(`${dir} is not a folder`);
      }
      break;
    }
    for (const d of missing.reverse()) {
      try {
        await this.at(d, (folder) => this.io.mkdir(folder));
      } catch (e) {
        // another change (a lock covers a file, not its folders) made it meanwhile: it is theirs
        if (codeOf(e) === 'EEXIST' && (await this.io.lstat(d)).isDirectory()) {
          continue;
        }
        throw e;
      }
      journal.push({ kind: 'folder', path: d });
    }
  }

  /**
   * Leaves the sync of the folder `dir` (its names: what a rename or a new file changed in
   * it) to `syncs`. Not on Windows, where a folder cannot be opened as a file and NTFS
   * journals its names itself.
   */
  async syncFolder(dir: string, syncs: SyncQueue): Promise<void> {
    if (WINDOWS_PATHS) {
      return;
    }
    const fh = await this.io.open(dir, fsConstants.O_RDONLY | fsConstants.O_DIRECTORY);
    await syncs.add(fh, `saving the names in ${dir}`);
  }

  // renames and deletes are tried again while another program holds the file for a moment (see retryTransient)
  async unlink(p: string): Promise<void> {
    await this.at(p, (file) => retryTransient(() => this.io.unlink(file)));
  }

  async rename(from: string, to: string): Promise<void> {
    await this.at2(from, to, (a, b) => retryTransient(() => this.io.rename(a, b)));
  }

  async rmdir(p: string): Promise<void> {
    await this.at(p, (folder) => retryTransient(() => this.io.rmdir(folder)));
    await this.letGo(p);
  }
}

/**
 * Writes `bytes` from the start of an open file, then cuts what follows: blocks the file
 * already has are overwritten, not freed first, so writing the previous bytes back over
 * a failed write needs no new space on a full disk (they fit in what the file held).
 */
export async function writeOver(fh: ApplyHandle, bytes: Uint8Array): Promise<void> {
  await fh.writeFile(bytes);
  await fh.truncate(bytes.length);
  await fh.sync();
}
