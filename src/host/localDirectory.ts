import { constants as fsConstants, lstatSync, statSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { throwIfCancelled, type CancelSignal } from '../core/cancel';
import { ToolError } from '../core/errors';
import { LAZY_TYPE_FOLDER_BYTES, STAT_BATCH_FILES } from '../core/limits';
import type { DirEntry, EntryType, NamedEntries } from './workspace';
import { PROC_FD_PATHS } from './procfs';

function typeOf(e: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryType {
  return e.isFile() ? 'file' : e.isDirectory() ? 'directory' : e.isSymbolicLink() ? 'symlink' : 'other';
}

function changed(p: string): ToolError {
  return new ToolError('changed', `${p} changed while it was read (it became a link, or a folder on its path did), so it was not read. Call the tool again to see it as it is now.`);
}

/**
 * Reads a local folder that is `p` itself, whatever happens to the path meanwhile. The
 * tools read folders by their real path once the policy decided on it; on Linux the
 * folder is opened without following a final link, the descriptor's path must be `p`,
 * and the entries are read through the descriptor (`/proc/self/fd/N`), so a folder
 * swapped for a link to another one is never listed. Elsewhere the path is read as is.
 */
async function withCheckedFolder<T>(p: string, read: (path: string) => Promise<T>): Promise<T> {
  const held = await holdCheckedFolder(p);
  try {
    return await read(held.path);
  } finally {
    await held.release();
  }
}

/**
 * The checked folder of {@link withCheckedFolder}, held until `release`: a reader that looks
 * entries' types up after the listing (readdir on a volume that gives no types looks each up
 * by the listed path) needs the descriptor's path to stay valid that long.
 */
async function holdCheckedFolder(p: string): Promise<{ path: string; release(): Promise<void> }> {
  if (!PROC_FD_PATHS) {
    return { path: p, release: async () => undefined };
  }
  let fh: fs.FileHandle;
  try {
    fh = await fs.open(p, fsConstants.O_RDONLY | fsConstants.O_DIRECTORY | fsConstants.O_NOFOLLOW);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') {
      throw changed(p);
    }
    throw e;
  }
  const release = () => fh.close();
  try {
    const held = `/proc/self/fd/${fh.fd}`;
    const real = await fs.readlink(held).catch(() => undefined);
    if (real === undefined) {
      return { path: p, release };
    }
    if (real !== p) {
      throw changed(p);
    }
    return { path: held, release };
  } catch (e) {
    await release();
    throw e;
  }
}

/**
 * Entries of a large folder read by name: each type is looked up (one lstat, never
 * following a link) when something asks for it, and kept. A listing that shows a
 * hundred entries of a million asks for a hundred types. Each entry holds its name
 * alone (the folder is its class's, the type is added only once looked up): a million of
 * them are a million small objects, beside the million names readdir gave.
 */
function namedEntries(names: readonly string[], folder: string): DirEntry[] {
  class NamedEntry implements DirEntry {
    declare private known?: EntryType;

    constructor(readonly name: string) {}

    get type(): EntryType {
      if (this.known === undefined) {
        // gone since the folder was read: not a file or folder any more
        const st = lstatSync(`${folder}/${this.name}`, { throwIfNoEntry: false });
        this.known = st ? typeOf(st) : 'other';
      }
      return this.known;
    }
  }
  const entries = new Array<DirEntry>(names.length);
  for (let i = 0; i < names.length; i++) {
    entries[i] = new NamedEntry(names[i]);
  }
  return entries;
}

/**
 * The types of a large local folder's entries looked up by index, each (one lstat, never
 * following a link) when first asked and then kept; an entry gone since the folder was
 * read is "other", not a file or folder any more.
 */
function namedFolder(names: readonly string[], folder: string): NamedEntries {
  const known = new Map<number, EntryType>();
  return {
    names,
    type(i: number): EntryType {
      let t = known.get(i);
      if (t === undefined) {
        const st = lstatSync(`${folder}/${names[i]}`, { throwIfNoEntry: false });
        t = st ? typeOf(st) : 'other';
        known.set(i, t);
      }
      return t;
    },
  };
}

/** Whether a folder's own size says it is large: its entries are then read by name only. */
function large(path: string, byNameAboveBytes: number): boolean {
  return (statSync(path, { throwIfNoEntry: false })?.size ?? 0) > byNameAboveBytes;
}

async function typedEntries(path: string): Promise<DirEntry[]> {
  const entries = await fs.readdir(path, { withFileTypes: true });
  return entries.map((e) => ({ name: e.name, type: typeOf(e) }));
}

/**
 * The entries of a local folder (see withCheckedFolder), symlinks as themselves. A
 * folder whose own size says it is large is read by name only (see NamedEntry): the
 * types of a million entries, as a million objects, would take twice the time and
 * memory of reading their names.
 */
export async function readLocalDirectory(p: string, byNameAboveBytes = LAZY_TYPE_FOLDER_BYTES): Promise<DirEntry[]> {
  return withCheckedFolder(p, async (path) => (large(path, byNameAboveBytes) ? namedEntries(await fs.readdir(path), p) : typedEntries(path)));
}

/**
 * {@link readLocalDirectory} for a walk that looks at a few entries of a large folder: its
 * names as readdir gave them and a type lookup by index (see namedFolder), with no object
 * per entry, so a million of them cost what reading the names costs.
 */
export async function readLocalNames(p: string, byNameAboveBytes = LAZY_TYPE_FOLDER_BYTES): Promise<DirEntry[] | NamedEntries> {
  return withCheckedFolder(p, async (path) => (large(path, byNameAboveBytes) ? namedFolder(await fs.readdir(path), p) : typedEntries(path)));
}

/** Entries of a local folder through opendir, so a caller that stops early never reads the rest (see withCheckedFolder). */
export async function* iterateLocalDirectory(p: string): AsyncIterable<DirEntry> {
  // Held until the last entry: opendir takes a descriptor of its own, but on a volume that
  // gives no entry types node looks each up by the folder's path as listed (the held one).
  const held = await holdCheckedFolder(p);
  try {
    const dir = await fs.opendir(held.path, { bufferSize: 256 });
    for await (const e of dir) {
      yield { name: e.name, type: typeOf(e) };
    }
  } finally {
    await held.release();
  }
}

/**
 * Modification times of local files, in synchronous batches: a stat is microseconds,
 * and an await per file costs more than the stat (200,000 files: seconds, not 16).
 */
export async function localMtimes(paths: readonly string[], signal?: CancelSignal): Promise<number[]> {
  const out = new Array<number>(paths.length);
  for (let i = 0; i < paths.length; i += STAT_BATCH_FILES) {
    throwIfCancelled(signal);
    for (let k = i; k < Math.min(paths.length, i + STAT_BATCH_FILES); k++) {
      out[k] = statSync(paths[k], { throwIfNoEntry: false })?.mtimeMs ?? 0;
    }
    await new Promise((r) => setImmediate(r));
  }
  return out;
}
