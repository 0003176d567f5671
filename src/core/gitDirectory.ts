import type { CancelSignal } from './cancel';
import { FolderGate } from './folderGate';

/**
 * Git directories by what they are, not by name. `git init --bare repo.git`,
 * `--separate-git-dir`, a linked work tree's administrative folder and the common folder
 * it names are git's own data under any name, and their `config` and `hooks` name
 * commands the next git command runs. They are treated as `.git` is: never written,
 * never read, never walked.
 *
 * The rule is git's own (`is_git_directory` in its setup.c): a folder is a repository
 * when it holds `HEAD` and its common folder holds `objects` and `refs`; the common folder
 * is the one `commondir` names, else the folder itself. So:
 * - `objects` and `refs` together make a folder a repository, or the common folder of
 *   linked work trees (whose `config` and `hooks` they run), with or without `HEAD`;
 * - `HEAD` and `commondir` together make a linked work tree's folder.
 * Every folder a `gitdir:` file or a `commondir` file can point git to passes one of the
 * two, so following those files finds no folder this misses. Names are compared without
 * regard to case, as a folding file system would find them; a name that could be either
 * kind (a link) counts: deciding too often is the safe side.
 */
import { foldCase } from './names';

/** The names that make a folder a git directory, as {@link isGitDirectoryBy} asks about them. */
export type GitMark = 'objects' | 'refs' | 'HEAD' | 'commondir';

/** Whether a folder is a git directory, from which of its marks exist (see the rule above). */
export async function isGitDirectoryBy(has: (name: GitMark) => boolean | Promise<boolean>): Promise<boolean> {
  // Most folders have neither `objects` nor `HEAD`: two questions decide them.
  if ((await has('objects')) && (await has('refs'))) {
    return true;
  }
  return (await has('HEAD')) && (await has('commondir'));
}

/**
 * {@link isGitDirectoryBy} answered at once while `has` answers at once (a local disk);
 * from the first mark that must be waited for, the answer is a promise.
 */
export function isGitDirectoryNow(has: (name: GitMark) => boolean | Promise<boolean>): boolean | Promise<boolean> {
  const objects = has('objects');
  if (typeof objects !== 'boolean') {
    return isGitDirectoryBy(has);
  }
  if (objects) {
    const refs = has('refs');
    if (typeof refs !== 'boolean') {
      return isGitDirectoryBy(has);
    }
    if (refs) {
      return true;
    }
  }
  const head = has('HEAD');
  if (typeof head !== 'boolean') {
    return isGitDirectoryBy(has);
  }
  if (!head) {
    return false;
  }
  return has('commondir');
}

/** The same rule on a folder's entries already read (a walk's listing): no further I/O. */
export function isGitDirectoryListing(entries: readonly { name: string }[]): boolean {
  const marks = new Set<string>();
  for (const e of entries) {
    addMark(marks, e.name);
  }
  return hasGitMarks(marks);
}

/** {@link isGitDirectoryListing} on the entries' names alone. */
export function isGitDirectoryNames(names: readonly string[]): boolean {
  const marks = new Set<string>();
  for (let i = 0; i < names.length; i++) {
    addMark(marks, names[i]);
  }
  return hasGitMarks(marks);
}

/** Notes `name` when it is one of the marks, in any case (a folder of a million short names keeps at most four). */
function addMark(marks: Set<string>, name: string): void {
  const n = name.length;
  if (n === 4 || n === 7 || n === 9) {
    const l = foldCase(name);
    if (l === 'refs' || l === 'head' || l === 'objects' || l === 'commondir') {
      marks.add(l);
    }
  }
}

function hasGitMarks(names: Set<string>): boolean {
  return (names.has('objects') && names.has('refs')) || (names.has('head') && names.has('commondir'));
}

/**
 * Finds git directories for one call. Implementations ask the file system a few
 * questions per folder and remember the answers for the call, so a patch of many files in
 * one folder, or a search's many results, costs a few stats per distinct folder.
 */
export interface GitDirectories {
  /** Whether the folder (an absolute path) is a git directory. */
  isGitDirectory(folder: string): Promise<boolean>;
  /** The same at once, where it can be had without waiting (a local disk); else undefined. */
  isGitDirectoryNow?(folder: string): boolean | undefined;
  /**
   * The git directory that holds `path` or is it (an absolute, resolved path), the
   * nearest first; undefined when there is none. The path itself counts as present: a
   * file about to be created as `refs/x` in a folder that holds `objects` would make it one.
   */
  enclosing(path: string): Promise<string | undefined>;
  /**
   * Counts these paths as present from now on (the files one change creates together): a
   * patch that adds `HEAD`, `objects/...` and `refs/...` at once makes a repository.
   */
  plan(paths: readonly string[]): void;
}

/**
 * Whether the folders of a walk that cannot tell git directories apart (ripgrep) lie in
 * one: each folder below the base asked once, it and those above it. Folders are "/"
 * relative to the root; `join` makes them absolute for `dirs`.
 */
export class GitDirectoryFolders {
  /** Folder (root-relative, below the base) -> inside a git directory: asked, or being asked. */
  private readonly inside = new Map<string, boolean | Promise<boolean>>();
  private readonly below: number;

  constructor(
    private readonly baseRel: string,
    private readonly join: (rel: string) => string,
    private readonly dirs: GitDirectories,
  ) {
    this.below = baseRel ? baseRel.length + 1 : 0;
  }

  /** Whether a folder's files lie outside every git directory: at once where the answers are (see GitDirectories.isGitDirectoryNow). */
  outside(folder: string): boolean | Promise<boolean> {
    if (folder.length <= this.baseRel.length) {
      // the base's own files (the base was decided before the walk)
      return true;
    }
    const v = this.folderInside(folder);
    return typeof v === 'boolean' ? !v : v.then((x) => !x);
  }

  /** Whether a folder (below the base) lies in a git directory: it or one above it, up to the base. */
  private folderInside(folder: string): boolean | Promise<boolean> {
    const known = this.inside.get(folder);
    if (known !== undefined) {
      return known;
    }
    const cut = folder.lastIndexOf('/');
    const above = cut >= this.below ? this.folderInside(folder.slice(0, cut)) : false;
    if (above === true) {
      this.inside.set(folder, true);
      return true;
    }
    if (above === false) {
      const now = this.dirs.isGitDirectoryNow?.(this.join(folder));
      if (now !== undefined) {
        this.inside.set(folder, now);
        return now;
      }
    }
    const p = (async () => {
      const v = (await above) || (await this.dirs.isGitDirectory(this.join(folder)));
      this.inside.set(folder, v);
      return v;
    })();
    this.inside.set(folder, p);
    return p;
  }
}

/**
 * Of the files such a walk returns, as it returns them, those not inside a git directory
 * (see {@link GitDirectoryFolders} and {@link FolderGate}).
 */
export class OutsideGitDirectories<T = undefined> {
  private readonly gate: FolderGate<T>;

  constructor(
    baseRel: string,
    join: (rel: string) => string,
    dirs: GitDirectories,
    /** Called with each path that lies in no git directory. */
    keep: (rel: string, value: T) => void,
    signal?: CancelSignal,
  ) {
    const folders = new GitDirectoryFolders(baseRel, join, dirs);
    this.gate = new FolderGate<T>((folder) => folders.outside(folder), (rel, value) => keep(rel, value), signal);
  }

  push(rel: string, value: T): void {
    this.gate.push(rel, value);
  }

  /** Resolves once every path pushed so far has been kept or dropped. */
  done(): Promise<void> {
    return this.gate.done();
  }
}

/** {@link OutsideGitDirectories} over a list: the paths kept. */
export async function outsideGitDirectories(
  rels: readonly string[],
  baseRel: string,
  join: (rel: string) => string,
  dirs: GitDirectories,
): Promise<Set<string>> {
  const kept = new Set<string>();
  const filter = new OutsideGitDirectories(baseRel, join, dirs, (rel) => kept.add(rel));
  for (const rel of rels) {
    filter.push(rel, undefined);
  }
  await filter.done();
  return kept;
}
