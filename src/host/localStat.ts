import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import type { EntryType, FileStat } from './workspace';

function typeOf(s: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryType {
  return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : s.isSymbolicLink() ? 'symlink' : 'other';
}

/**
 * A local path's stat as the workspace gives it: the target's type and size for a link
 * ("symlink" only when it dangles), undefined when nothing is there. Straight from the
 * disk, never through the window.
 */
export async function localStat(p: string): Promise<FileStat | undefined> {
  let l;
  try {
    l = await fs.lstat(p);
  } catch {
    return undefined;
  }
  if (!l.isSymbolicLink()) {
    return { type: typeOf(l), size: l.size, mtimeMs: l.mtimeMs, isSymlink: false };
  }
  try {
    const s = await fs.stat(p);
    return { type: typeOf(s), size: s.size, mtimeMs: s.mtimeMs, isSymlink: true };
  } catch {
    return { type: 'symlink', size: l.size, mtimeMs: l.mtimeMs, isSymlink: true };
  }
}

/** {@link localStat} through node's synchronous calls, the same answers: for the CLI (see openLocalFileNow). */
export async function localStatNow(p: string): Promise<FileStat | undefined> {
  let l;
  try {
    l = fsSync.lstatSync(p);
  } catch {
    return undefined;
  }
  if (!l.isSymbolicLink()) {
    return { type: typeOf(l), size: l.size, mtimeMs: l.mtimeMs, isSymlink: false };
  }
  try {
    const s = fsSync.statSync(p);
    return { type: typeOf(s), size: s.size, mtimeMs: s.mtimeMs, isSymlink: true };
  } catch {
    return { type: 'symlink', size: l.size, mtimeMs: l.mtimeMs, isSymlink: true };
  }
}
