import * as nodePath from 'node:path';
import type { CancelSignal } from '../cancel';
import { ToolError } from '../errors';
import type { IgnorePolicy } from '../ignore/policy';
import type { Frame } from '../ignore/rules';
import { MAX_GIT_LIST_BYTES } from '../limits';
import { SpawnError, type ProcessHost } from '../process';
import type { ListSource, SourceEntry } from './walk';

/** The part of the workspace seam a file-system listing reads through. */
export interface FolderReader {
  readDirectory(path: string): Promise<{ name: string; type: SourceEntry['type'] }[]>;
  readLink?(path: string): Promise<string | undefined>;
}

function join(base: string, rel: string): string {
  return rel ? nodePath.join(base, ...rel.split('/')) : base;
}

/** Folders as they are on disk (or in the editor's file system), with their ignore files. */
export function fileSystemSource(reader: FolderReader, base: string, policy: IgnorePolicy): ListSource {
  return {
    read: async (rel) => reader.readDirectory(join(base, rel)),
    readLink: async (rel) => (reader.readLink ? reader.readLink(join(base, rel)) : undefined),
    frame: (parent: Frame | undefined, rootRel: string, present: string[]) => policy.frame(parent, rootRel, present),
  };
}

/**
 * The files git tracks under `base` (the index: committed and staged, as Aider lists a
 * repository), with the folders they imply. Ignore files do not apply: a tracked file
 * is listed even if a `.gitignore` names it; the editor's and the call's globs still do.
 */
export async function gitSource(reader: FolderReader, proc: ProcessHost, base: string, signal?: CancelSignal): Promise<ListSource> {
  let result;
  try {
    result = await proc.run('git', ['-c', 'core.quotepath=off', 'ls-files', '-z', '--stage'], { cwd: base, signal, maxOutputBytes: MAX_GIT_LIST_BYTES });
  } catch (e) {
    if (e instanceof SpawnError) {
      throw new ToolError('io', `source="git" needs the git command, and it could not be run (${e.code ?? e.message}). Install git, or list the folder with source="filesystem".`);
    }
    throw e;
  }
  if (result.overflow) {
    throw new ToolError('io', `source="git": the repository tracks too many files to list here. List a subfolder, or use source="filesystem".`);
  }
  if (result.code !== 0) {
    const why = result.stderr.trim().split('\n')[0] ?? '';
    if (/not a git repository/i.test(why)) {
      throw new ToolError('not-found', `source="git": ${base} is not inside a git repository, so there are no tracked files to list. Use source="filesystem" (the default) to list the folder as it is on disk.`);
    }
    throw new ToolError('io', `source="git": git ls-files failed (${why || `exit code ${result.code}`}). Use source="filesystem" to list the folder as it is on disk.`);
  }
  const folders = new Map<string, Map<string, SourceEntry>>();
  const folder = (rel: string) => {
    let m = folders.get(rel);
    if (!m) {
      m = new Map();
      folders.set(rel, m);
    }
    return m;
  };
  folder('');
  for (const record of result.stdout.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) {
      continue;
    }
    const mode = record.slice(0, 6);
    const path = record.slice(tab + 1);
    const parts = path.split('/');
    for (let i = 0; i < parts.length - 1; i++) {
      const dir = parts.slice(0, i).join('/');
      if (!folder(dir).has(parts[i])) {
        folder(dir).set(parts[i], { name: parts[i], type: 'directory' });
      }
    }
    const dir = parts.slice(0, -1).join('/');
    const name = parts[parts.length - 1];
    const entry: SourceEntry = mode === '120000' ? { name, type: 'symlink' } : mode === '160000' ? { name, type: 'directory', submodule: true } : { name, type: 'file' };
    folder(dir).set(name, entry);
  }
  return {
    read: async (rel) => {
      const m = folders.get(rel);
      if (!m) {
        throw Object.assign(new Error(`no tracked folder ${rel}`), { code: 'ENOENT' });
      }
      return [...m.values()];
    },
    readLink: async (rel) => (reader.readLink ? reader.readLink(join(base, rel)) : undefined),
    frame: async (parent) => parent,
  };
}
