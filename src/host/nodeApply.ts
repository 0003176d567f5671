import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { throwIfCancelled } from '../core/cancel';
import { ToolError } from '../core/errors';
import { applyTextEdits } from '../core/diff';
import { decodeTextExact, encodeText } from '../core/text/encoding';
import { StaleError, type ApplyOptions, type ApplyReport, type FileChange } from './workspace';

/** What a path held before the changes: its bytes and mode, or nothing. */
type Snapshot = { path: string; bytes: Uint8Array; mode: number } | { path: string; bytes: undefined };

function changedFolder(dir: string): ToolError {
  return new ToolError('changed', `${dir} changed while the change was applied (it, or a folder on its path, became a link), so nothing was written there. Read the files again, then redo the change.`);
}

/**
 * Runs `use` with a path that names the folder `dir` (a real path, as the policy decided
 * on it) and nothing else, whatever happens to `dir` meanwhile: on Linux the folder is
 * held open, its descriptor's path must be `dir`, and `use` works through
 * `/proc/self/fd/N`, so a folder swapped for a link (to outside the workspace, into
 * `.git`) after the decision is never written through. Elsewhere `dir` must still resolve
 * to itself just before `use`. Undefined (and `use` not run) when `dir` does not exist.
 */
async function inFolder<T>(dir: string, use: (held: string) => Promise<T>): Promise<T | undefined> {
  if (process.platform === 'linux') {
    let fh: fs.FileHandle | undefined;
    try {
      fh = await fs.open(dir, fsConstants.O_RDONLY | fsConstants.O_DIRECTORY | fsConstants.O_NOFOLLOW);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        return undefined;
      }
      if (code === 'ELOOP' || code === 'ENOTDIR') {
        throw changedFolder(dir);
      }
      throw e;
    }
    try {
      const held = `/proc/self/fd/${fh.fd}`;
      const real = await fs.readlink(held).catch(() => undefined);
      if (real !== undefined) {
        if (real !== dir) {
          throw changedFolder(dir);
        }
        return await use(held);
      }
    } finally {
      await fh.close();
    }
  }
  let real: string;
  try {
    real = await fs.realpath(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    throw e;
  }
  if (real !== dir) {
    throw changedFolder(dir);
  }
  return use(dir);
}

/** Runs `use` on the file `p` through its held folder (see inFolder): the folder's path and the name in it. */
function atPath<T>(p: string, use: (file: string, held: string) => Promise<T>): Promise<T | undefined> {
  const name = path.basename(p);
  return inFolder(path.dirname(p), (held) => use(path.join(held, name), held));
}

/** A regular file's bytes and mode, read through a descriptor that follows no final link and never waits on a FIFO. */
async function readRegular(file: string, display: string): Promise<{ bytes: Uint8Array; mode: number } | undefined> {
  let fh: fs.FileHandle;
  try {
    fh = await fs.open(file, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | (fsConstants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      return undefined;
    }
    if (code === 'ELOOP') {
      throw new Error(`${display} is not a regular file`);
    }
    throw e;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) {
      throw new Error(`${display} is not a regular file`);
    }
    return { bytes: await fh.readFile(), mode: st.mode & 0o7777 };
  } finally {
    await fh.close();
  }
}

async function snapshot(p: string): Promise<Snapshot> {
  let st;
  try {
    st = await fs.lstat(p);
  } catch {
    return { path: p, bytes: undefined };
  }
  if (!st.isFile()) {
    throw new Error(`${p} is not a regular file`);
  }
  const got = await atPath(p, (file) => readRegular(file, p));
  return got ? { path: p, ...got } : { path: p, bytes: undefined };
}

/**
 * Writes a file so that a reader sees the old bytes or the new ones, never a part: a
 * temporary file beside it, then a rename over it (which replaces a link rather than
 * writing through it). The file keeps its permissions. `p` is written in its held
 * folder (see inFolder).
 */
async function writeAtomic(p: string, bytes: Uint8Array, mode: number | undefined): Promise<void> {
  const done = await atPath(p, async (file, held) => {
    const tmp = path.join(held, `.${path.basename(p)}.${process.pid}.${Date.now().toString(36)}.tmp`);
    try {
      await fs.writeFile(tmp, bytes, { flag: 'wx', mode: mode ?? 0o666 });
      if (mode !== undefined) {
        await fs.chmod(tmp, mode);
      }
      await fs.rename(tmp, file);
    } catch (e) {
      await fs.rm(tmp, { force: true });
      throw e;
    }
    return true;
  });
  if (!done) {
    throw Object.assign(new Error(`ENOENT: no such folder, ${path.dirname(p)}`), { code: 'ENOENT' });
  }
}

/**
 * Creates the missing folders above `p`, deepest last, each in its held parent; returns
 * those it created. A link on the way is not a folder: the paths are real, so one that
 * is a link now was swapped after the decision.
 */
async function makeParents(p: string): Promise<string[]> {
  const made: string[] = [];
  let dir = path.dirname(p);
  const missing: string[] = [];
  for (;;) {
    try {
      const st = await fs.lstat(dir);
      if (!st.isDirectory()) {
        throw st.isSymbolicLink() ? changedFolder(dir) : new Error(`${dir} is not a folder`);
      }
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw e;
      }
      missing.push(dir);
      const up = path.dirname(dir);
      if (up === dir) {
        break;
      }
      dir = up;
    }
  }
  for (const d of missing.reverse()) {
    const done = await atPath(d, (folder) => fs.mkdir(folder).then(() => true));
    if (!done) {
      throw Object.assign(new Error(`ENOENT: no such folder, ${path.dirname(d)}`), { code: 'ENOENT' });
    }
    made.push(d);
  }
  return made;
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Changes on node:fs, all or nothing: every path is read before the first write, and a
 * failure (or cancellation) part-way writes those bytes back, removes what was created
 * and the folders made for it, then rethrows.
 */
export async function applyOnDisk(changes: readonly FileChange[], opts: ApplyOptions): Promise<ApplyReport> {
  throwIfCancelled(opts.signal);
  const snaps = new Map<string, Snapshot>();
  for (const c of changes) {
    for (const p of c.kind === 'rename' ? [c.from, c.to] : [c.path]) {
      if (!snaps.has(p)) {
        snaps.set(p, await snapshot(p));
      }
    }
  }
  const madeDirs: string[] = [];
  try {
    for (const c of changes) {
      throwIfCancelled(opts.signal);
      switch (c.kind) {
        case 'edit': {
          const snap = snaps.get(c.path)!;
          const current = snap.bytes && (await atPath(c.path, (file) => readRegular(file, c.path)))?.bytes;
          if (!current) {
            throw new StaleError(c.path);
          }
          const { text, encoding } = decodeTextExact(current);
          if (text !== c.base) {
            throw new StaleError(c.path);
          }
          await writeAtomic(c.path, encodeText(applyTextEdits(text, c.edits), encoding), snap.bytes ? snap.mode : undefined);
          break;
        }
        case 'create': {
          if (!c.overwrite && (await exists(c.path))) {
            throw new Error(`${c.path} already exists`);
          }
          madeDirs.push(...(await makeParents(c.path)));
          const snap = snaps.get(c.path)!;
          await writeAtomic(c.path, c.bytes, snap.bytes ? snap.mode : undefined);
          break;
        }
        case 'delete':
          if (!(await atPath(c.path, (file) => fs.unlink(file).then(() => true)))) {
            throw Object.assign(new Error(`ENOENT: no such file, ${c.path}`), { code: 'ENOENT' });
          }
          break;
        case 'rename': {
          if (!c.overwrite && (await exists(c.to))) {
            throw new Error(`${c.to} already exists`);
          }
          madeDirs.push(...(await makeParents(c.to)));
          const moved = await atPath(c.from, (from) => atPath(c.to, (to) => fs.rename(from, to).then(() => true)));
          if (!moved) {
            throw Object.assign(new Error(`ENOENT: no such file, ${c.from}`), { code: 'ENOENT' });
          }
          break;
        }
      }
    }
    throwIfCancelled(opts.signal);
  } catch (e) {
    await restore([...snaps.values()], madeDirs);
    throw e;
  }
  return { unsaved: [] };
}

/** Puts every path back as its snapshot holds it; best effort, so one failure does not stop the rest. */
async function restore(snaps: readonly Snapshot[], madeDirs: readonly string[]): Promise<void> {
  for (const s of snaps) {
    try {
      if (s.bytes) {
        await makeParents(s.path);
        await writeAtomic(s.path, s.bytes, s.mode);
      } else {
        await atPath(s.path, (file) => fs.rm(file, { force: true }));
      }
    } catch {
      // keep restoring the others
    }
  }
  for (const d of [...madeDirs].reverse()) {
    await atPath(d, (folder) => fs.rmdir(folder)).catch(() => undefined);
  }
}
