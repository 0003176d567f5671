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

/** The folders of a "/" relative path below its base, shallow first: `a/b/c` gives `a`, `a/b`, `a/b/c`. */
function foldersOf(rel: string): string[] {
  const out: string[] = [];
  for (let i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) {
    out.push(rel.slice(0, i));
  }
  out.push(rel);
  return out;
}

/**
 * Of the files a walk that cannot tell git directories apart returned (ripgrep), those
 * not inside one: each folder below `baseRel` on their paths is asked once. Paths are
 * "/" relative to `rootPath`; `join` makes them absolute for `dirs`.
 */
export async function outsideGitDirectories(
  rels: readonly string[],
  baseRel: string,
  join: (rel: string) => string,
  dirs: GitDirectories,
): Promise<Set<string>> {
  const inside = new Map<string, boolean>();
  const below = baseRel ? baseRel.length + 1 : 0;
  const folderInside = async (folder: string): Promise<boolean> => {
    let v = inside.get(folder);
    if (v === undefined) {
      v = false;
      for (const f of foldersOf(folder.slice(below))) {
        const rel = below ? `${baseRel}/${f}` : f;
        let known = inside.get(rel);
        if (known === undefined) {
          known = await dirs.isGitDirectory(join(rel));
          inside.set(rel, known);
        }
        if (known) {
          v = true;
          break;
        }
      }
      inside.set(folder, v);
    }
    return v;
  };
  const kept = new Set<string>();
  for (const rel of rels) {
    const cut = rel.lastIndexOf('/');
    const folder = cut < 0 ? '' : rel.slice(0, cut);
    if (folder.length <= baseRel.length || !(await folderInside(folder))) {
      kept.add(rel);
    }
  }
  return kept;
}
