import { CASE_FOLDING_NAMES, nameKey } from '../core/names';
import { lstatSync } from 'node:fs';
import * as path from 'node:path';
import { isGitDirectoryBy, isGitDirectoryNow, type GitDirectories, type GitMark } from '../core/gitDirectory';

/**
 * {@link GitDirectories} over a file system that answers "is anything there?" (a stat
 * that follows links: a dangling link counts as there). One per call: answers are
 * remembered, so each folder costs at most four stats, most folders two.
 */
export class GitDirectoryProbe implements GitDirectories {
  /** Whether something is at a path: known, or being asked. */
  private readonly present = new Map<string, boolean | Promise<boolean>>();
  private readonly folders = new Map<string, boolean | Promise<boolean>>();
  /** Paths a change will create, and the folders on their way. */
  private readonly planned = new Set<string>();

  /**
   * `exists`: whether anything is at a path, a link included (answered at once where it
   * can be, a local disk). `isFile`, where it is cheap: whether a path is a regular file
   * (not a link, not a folder), which holds no marks; it spares asking for marks inside a
   * file, each an error the system makes (ENOTDIR).
   */
  constructor(
    private readonly exists: (p: string) => boolean | Promise<boolean>,
    private readonly isFile?: (p: string) => boolean,
  ) {}

  private has(folder: string, name: string): boolean | Promise<boolean> {
    // the folder is absolute and normal: a join without normalizing again
    const p = folder.endsWith(path.sep) ? folder + name : folder + path.sep + name;
    if (this.planned.has(p)) {
      return true;
    }
    let v = this.present.get(p);
    if (v === undefined) {
      // a name that cannot be looked at counts as there (see localEntryExists)
      try {
        v = this.exists(p);
      } catch {
        v = true;
      }
      if (typeof v !== 'boolean') {
        v = v.catch(() => true);
      }
      this.present.set(p, v);
    }
    return v;
  }

  isGitDirectory(folder: string): Promise<boolean> {
    const v = this.isGitDirectoryNow(folder);
    return v === undefined ? (this.folders.get(folder) as Promise<boolean>) : Promise.resolve(v);
  }

  /** The answer at once where every mark it needs can be asked at once (a local disk); else undefined, and {@link isGitDirectory} waits for it. */
  isGitDirectoryNow(folder: string): boolean | undefined {
    let v = this.folders.get(folder);
    if (v === undefined) {
      v = isGitDirectoryNow((name) => this.has(folder, name));
      this.folders.set(folder, v);
    }
    return typeof v === 'boolean' ? v : undefined;
  }

  plan(paths: readonly string[]): void {
    for (const p of paths) {
      for (let cur = path.normalize(p); !this.planned.has(cur); cur = path.dirname(cur)) {
        this.planned.add(cur);
        if (path.dirname(cur) === cur) {
          break;
        }
      }
    }
    // verdicts given before may change now
    this.folders.clear();
  }

  async enclosing(p: string): Promise<string | undefined> {
    // From the path up to the file system's root: a workspace opened on a bare
    // repository, or a file allowed outside it, is no less git's data. The segment on the
    // path below each folder counts as present there (it exists, or is about to).
    let child: string | undefined;
    let cur = path.normalize(p);
    if (!this.planned.has(cur) && this.isFile?.(cur) && path.dirname(cur) !== cur) {
      // a regular file is no git directory: its folder is the first to ask
      child = path.basename(cur);
      cur = path.dirname(cur);
    }
    for (;;) {
      const on = child;
      const here = on === undefined ? this.isGitDirectory(cur) : isGitDirectoryBy((name: GitMark) => sameName(name, on) || this.has(cur, name));
      if (await here) {
        return cur;
      }
      const parent = path.dirname(cur);
      if (parent === cur) {
        return undefined;
      }
      child = path.basename(cur);
      cur = parent;
    }
  }
}

/** Names as a case-folding file system would compare them, on every volume: elsewhere a false match only asks too often. */
function sameName(mark: GitMark, name: string): boolean {
  return mark.length === name.length && nameKey(CASE_FOLDING_NAMES, mark) === nameKey(CASE_FOLDING_NAMES, name);
}

/**
 * Whether anything is at a local path, a link included, without following it. Only "not
 * there" is an answer of no: a path that cannot be looked at (a permission, a loop) counts
 * as there, so a folder that hides its parts is taken for a git directory, never the reverse.
 */
/** Whether a local path is a regular file, not following a link; false when it cannot be looked at. */
export function localIsFile(p: string): boolean {
  try {
    return lstatSync(p, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

export function localEntryExists(p: string): boolean {
  // Asked of a few names in each folder above every path a call touches, most of them
  // absent: one synchronous lstat that returns nothing for an absent name takes
  // microseconds, where an await is a round trip through the thread pool and an error
  // object with its stack for each absent name (about 0.3 ms a call in the extension host).
  try {
    return lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}
