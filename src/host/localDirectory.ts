import * as fs from 'node:fs/promises';
import type { DirEntry, EntryType } from './workspace';

/** Entries of a local folder through opendir, so a caller that stops early never reads the rest. */
export async function* iterateLocalDirectory(p: string): AsyncIterable<DirEntry> {
  const dir = await fs.opendir(p, { bufferSize: 256 });
  for await (const e of dir) {
    const type: EntryType = e.isFile() ? 'file' : e.isDirectory() ? 'directory' : e.isSymbolicLink() ? 'symlink' : 'other';
    yield { name: e.name, type };
  }
}
