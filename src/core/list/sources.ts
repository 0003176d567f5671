import * as nodePath from 'node:path';
import type { CancelSignal } from '../cancel';
import { ToolError } from '../errors';
import type { IgnorePolicy } from '../ignore/policy';
import type { Frame } from '../ignore/rules';
import { CHILD_STALL_MS, MAX_CHILD_MEMORY_BYTES, MAX_CHILD_RUN_MS, MAX_GIT_LIST_BYTES } from '../limits';
import { ProcessStopped, SpawnError, stoppedError, type ProcessHost } from '../process';
import { readIndexEntries, UnsupportedIndex, type IndexEntry, type RepoHost, type Repository } from './gitIndex';
import { trackedPaths, type ListSource, type NamedItems, type SourceEntry, type TrackedPaths } from './walk';

/** The part of the workspace seam a listing reads through. */
export interface FolderReader extends RepoHost {
  readDirectory(path: string): Promise<{ name: string; type: SourceEntry['type'] }[]>;
  /** A large folder by name alone, when the reader can (see NamedItems). */
  readDirectoryNames?(path: string): Promise<{ name: string; type: SourceEntry['type'] }[] | NamedItems>;
  readLink?(path: string): Promise<string | undefined>;
}

function join(base: string, rel: string): string {
  return rel ? nodePath.join(base, ...rel.split('/')) : base;
}

/**
 * Folders as they are on disk (or in the editor's file system), with their ignore files.
 * `tracked` gives the files git tracks under `base` (see {@link trackedUnder}), asked only
 * when an ignore file leaves something out: an ignore file does not leave those out, as git's does not.
 */
export function fileSystemSource(reader: FolderReader, base: string, policy: IgnorePolicy, tracked?: () => Promise<TrackedPaths | undefined>): ListSource {
  return {
    read: async (rel) => (reader.readDirectoryNames ? reader.readDirectoryNames(join(base, rel)) : reader.readDirectory(join(base, rel))),
    readLink: async (rel) => (reader.readLink ? reader.readLink(join(base, rel)) : undefined),
    frame: (parent: Frame | undefined, rootRel: string, present: string[]) => policy.frame(parent, rootRel, present),
    ...(tracked ? { tracked } : {}),
  };
}

/**
 * The files git tracks under `base`, from the index as this reader reads it; undefined when
 * it cannot (a split or sparse index, one too large): git is not run for it, and the files
 * an ignore file names are then left out, and named, as before.
 */
export async function trackedUnder(reader: FolderReader, repo: Repository, base: string): Promise<TrackedPaths | undefined> {
  try {
    return trackedPaths((await readIndexEntries(reader, repo, base)).map((e) => e.path));
  } catch (e) {
    if (e instanceof UnsupportedIndex) {
      return undefined;
    }
    throw e;
  }
}

/**
 * Settings that keep a git run from executing anything the repository names, whatever
 * its config says: `-c` overrides every config file. `ls-files` reads the index; of what
 * a repository can configure, the file-system monitor hook is what it runs.
 */
export const SAFE_GIT_CONFIG: readonly string[] = [
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.hooksPath=/dev/null',
  'core.sshCommand=false',
  'core.pager=cat',
  'core.askPass=false',
  'credential.helper=',
  'protocol.allow=never',
  'diff.external=',
  'core.quotepath=off',
];

/** The environment of such a run: nothing inherited may redirect git or add config, and it never writes or prompts. */
export const SAFE_GIT_ENV: Readonly<Record<string, string | undefined>> = {
  GIT_DIR: undefined,
  GIT_WORK_TREE: undefined,
  GIT_INDEX_FILE: undefined,
  GIT_COMMON_DIR: undefined,
  GIT_CONFIG: undefined,
  GIT_CONFIG_PARAMETERS: undefined,
  GIT_CONFIG_COUNT: undefined,
  GIT_EXTERNAL_DIFF: undefined,
  GIT_SSH: undefined,
  GIT_SSH_COMMAND: undefined,
  GIT_ASKPASS: undefined,
  GIT_PAGER: 'cat',
  GIT_OPTIONAL_LOCKS: '0',
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_NOSYSTEM: '1',
};

/** `git ls-files --stage` with {@link SAFE_GIT_CONFIG}: for the indexes the reader does not read, in a trusted workspace. */
async function lsFiles(proc: ProcessHost, base: string, signal?: CancelSignal): Promise<IndexEntry[]> {
  let result;
  try {
    result = await proc.run('git', [...SAFE_GIT_CONFIG.flatMap((c) => ['-c', c]), 'ls-files', '-z', '--stage'], {
      cwd: base,
      signal,
      maxOutputBytes: MAX_GIT_LIST_BYTES,
      env: SAFE_GIT_ENV,
      maxMemoryBytes: MAX_CHILD_MEMORY_BYTES,
      stallMs: CHILD_STALL_MS,
      deadlineMs: MAX_CHILD_RUN_MS,
    });
  } catch (e) {
    if (e instanceof ProcessStopped) {
      throw stoppedError('git ls-files', e);
    }
    if (e instanceof SpawnError) {
      throw new ToolError('io', `source="git": this repository's index needs the git command to be read, and git could not be run (${e.code ?? e.message}). Install git, or list the folder with source="filesystem".`);
    }
    throw e;
  }
  if (result.overflow) {
    throw new ToolError('io', `source="git": the repository tracks too many files to list here. List a subfolder, or use source="filesystem".`);
  }
  if (result.code !== 0) {
    const why = result.stderr.trim().split('\n')[0] ?? '';
    throw new ToolError('io', `source="git": git ls-files failed (${why || `exit code ${result.code}`}). Use source="filesystem" to list the folder as it is on disk.`);
  }
  const out: IndexEntry[] = [];
  for (const record of result.stdout.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab >= 0) {
      out.push({ mode: parseInt(record.slice(0, 6), 8), path: record.slice(tab + 1) });
    }
  }
  return out;
}

export interface GitSourceOptions {
  /** The repository holding `base` (see {@link findRepository}). */
  repo: Repository | undefined;
  /** A trusted workspace may run git for an index the reader does not read; an untrusted one never runs it. */
  trusted: boolean;
  signal?: CancelSignal;
}

/**
 * The files git tracks under `base` (the index: committed and staged, as Aider lists a
 * repository), with the folders they imply. Ignore files do not apply: a tracked file
 * is listed even if a `.gitignore` names it; the editor's and the call's globs still do.
 * The index is read here, not by git (see gitIndex.ts); only a split or sparse index
 * needs git, and git is run only in a trusted workspace, with its hooks disarmed.
 */
export async function gitSource(reader: FolderReader, proc: ProcessHost, base: string, o: GitSourceOptions): Promise<ListSource> {
  if (!o.repo) {
    throw new ToolError('not-found', `source="git": ${base} is not inside a git repository, so there are no tracked files to list. Use source="filesystem" (the default) to list the folder as it is on disk.`);
  }
  let tracked: IndexEntry[];
  try {
    tracked = await readIndexEntries(reader, o.repo, base);
  } catch (e) {
    if (!(e instanceof UnsupportedIndex)) {
      throw e;
    }
    if (!o.trusted) {
      throw new ToolError(
        'io',
        `source="git": this repository's index uses ${e.feature}, which fs_list reads only by running git, and git is not run in an untrusted workspace (the repository's config could make it run commands). Use source="filesystem", or trust the workspace.`,
      );
    }
    tracked = await lsFiles(proc, base, o.signal);
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
  for (const { mode, path } of tracked) {
    const parts = path.split('/');
    for (let i = 0; i < parts.length - 1; i++) {
      const dir = parts.slice(0, i).join('/');
      if (!folder(dir).has(parts[i])) {
        folder(dir).set(parts[i], { name: parts[i], type: 'directory' });
      }
    }
    const dir = parts.slice(0, -1).join('/');
    const name = parts[parts.length - 1];
    const kind = mode & 0o170000;
    const entry: SourceEntry = kind === 0o120000 ? { name, type: 'symlink' } : kind === 0o160000 ? { name, type: 'directory', submodule: true } : { name, type: 'file' };
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
