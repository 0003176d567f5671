import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { throwIfCancelled } from '../core/cancel';
import { applyTextEdits } from '../core/diff';
import { decodeTextExact, encodeText } from '../core/text/encoding';
import { StaleError, type ApplyOptions, type ApplyReport, type FileChange } from './workspace';

/** What a path held before the changes: its bytes and mode, or nothing. */
type Snapshot = { path: string; bytes: Uint8Array; mode: number } | { path: string; bytes: undefined };

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
  return { path: p, bytes: await fs.readFile(p), mode: st.mode & 0o7777 };
}

/**
 * Writes a file so that a reader sees the old bytes or the new ones, never a part: a
 * temporary file beside it, then a rename over it. The file keeps its permissions.
 */
async function writeAtomic(p: string, bytes: Uint8Array, mode: number | undefined): Promise<void> {
  const tmp = path.join(path.dirname(p), `.${path.basename(p)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  try {
    await fs.writeFile(tmp, bytes, { flag: 'wx', mode: mode ?? 0o666 });
    if (mode !== undefined) {
      await fs.chmod(tmp, mode);
    }
    await fs.rename(tmp, p);
  } catch (e) {
    await fs.rm(tmp, { force: true });
    throw e;
  }
}

/** Creates the missing folders above `p`, deepest last; returns those it created. */
async function makeParents(p: string): Promise<string[]> {
  const made: string[] = [];
  let dir = path.dirname(p);
  const missing: string[] = [];
  for (;;) {
    try {
      const st = await fs.stat(dir);
      if (!st.isDirectory()) {
        throw new Error(`${dir} is not a folder`);
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
    await fs.mkdir(d);
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
          const current = snap.bytes && (await fs.readFile(c.path));
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
          await fs.unlink(c.path);
          break;
        case 'rename': {
          if (!c.overwrite && (await exists(c.to))) {
            throw new Error(`${c.to} already exists`);
          }
          madeDirs.push(...(await makeParents(c.to)));
          await fs.rename(c.from, c.to);
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
        await fs.rm(s.path, { force: true });
      }
    } catch {
      // keep restoring the others
    }
  }
  for (const d of [...madeDirs].reverse()) {
    await fs.rmdir(d).catch(() => undefined);
  }
}
