import * as nodePath from 'node:path';
import { EXACT_NAMES, isWithinAs, type NameComparison, type PathApi } from './names';
import { printable } from './contract';

/** A workspace folder: its name (as VS Code shows it) and its absolute, real path. */
export interface Root {
  name: string;
  path: string;
  /** How the folder's volume compares names (see core/names.ts). @default EXACT_NAMES */
  names?: NameComparison;
}

const p = nodePath;

/** Whether the model's path is absolute where paths read as `api` does: a drive letter is absolute only on Windows. */
export function isAbsoluteInput(input: string, api: PathApi = p): boolean {
  return api.isAbsolute(input) || (api.sep === '\\' && /^[a-zA-Z]:[\\/]/.test(input));
}

/** Is `child` the same as or below `parent`? Both absolute and normalised; names compared as written. */
export function isWithin(parent: string, child: string): boolean {
  return isWithinAs(EXACT_NAMES, parent, child, p);
}

/**
 * Turns the model's path into an absolute, normalised one (symlinks not yet resolved), as
 * paths read where `api` is the platform's. Relative paths resolve against a workspace
 * folder: in a multi-root workspace a first segment naming a folder picks that folder
 * (`asRelativePath` form), else the first. On Windows either separator separates. On a
 * POSIX volume a backslash can be part of a name: with `literalBackslash` it is kept so,
 * else read as a separator (the caller takes the literal reading when such an entry
 * exists, see services/target.ts).
 */
export function resolveInputPath(input: string, roots: readonly Root[], api: PathApi = p, literalBackslash = false): string {
  const trimmed = input.trim();
  if (isAbsoluteInput(trimmed, api)) {
    return api.normalize(literalBackslash ? trimmed : trimmed.replace(/\\/g, api.sep));
  }
  const rel = (literalBackslash ? trimmed : trimmed.replace(/\\/g, '/')).replace(/^\.\/+/, '');
  if (roots.length === 0) {
    return api.resolve(rel);
  }
  if (roots.length > 1) {
    const first = rel.split('/')[0];
    const named = roots.find((r) => r.name === first);
    if (named) {
      return api.resolve(named.path, rel.slice(first.length + 1));
    }
  }
  return api.resolve(roots[0].path, rel);
}

export interface Located {
  /** What tools print: workspace-relative with "/", or absolute outside; escaped as every name is printed (see printable). */
  display: string;
  root: Root | undefined;
  /** Relative to its root with "/" ('' for the root itself); undefined outside. */
  relative: string | undefined;
}

/** An absolute path as tools print it: with "/" on Windows too (either separator reads back the same there). */
export function printedPath(abs: string, api: PathApi = p): string {
  return api.sep === '\\' ? abs.split(api.sep).join('/') : abs;
}

/** How a real absolute path is shown (with "/", whatever the platform), and which folder holds it; `api` reads the paths as the platform does. */
export function locate(abs: string, roots: readonly Root[], api: PathApi = p): Located {
  // the deepest root wins when folders nest
  let best: Root | undefined;
  for (const r of roots) {
    if (isWithinAs(r.names ?? EXACT_NAMES, r.path, abs, api) && (!best || r.path.length > best.path.length)) {
      best = r;
    }
  }
  if (!best) {
    return { display: printable(printedPath(abs, api)), root: undefined, relative: undefined };
  }
  // in the path's own spelling: the folder's part is dropped by its count of names, as a
  // folding volume may spell it otherwise (`C:\\Repo` for `c:\\repo`)
  const rootParts = best.path.split(api.sep).filter(Boolean).length;
  const rel = abs.startsWith(best.path) ? api.relative(best.path, abs).split(api.sep).join('/') : abs.split(api.sep).filter(Boolean).slice(rootParts).join('/');
  const prefix = roots.length > 1 ? best.name : '';
  const display = prefix ? (rel ? `${prefix}/${rel}` : prefix) : rel || '.';
  return { display: printable(display), root: best, relative: rel };
}

/**
 * Whether a file or folder name is `.git`, in any case: on macOS and Windows `.GIT` is
 * the folder git uses, and elsewhere hiding a folder so named is the safe side. Walks
 * never enter one, and reads refuse what is below one (see `isGitInternal` in policy.ts).
 */
export function isGitName(name: string): boolean {
  return name.length === 4 && /^\.git$/i.test(name);
}

/** A located path as a call takes it: the printed form before escaping (see Located.display), for the calls a result suggests. */
export function callPathOf(l: Located, abs: string, roots: readonly Root[]): string {
  if (!l.root || l.relative === undefined) {
    return abs;
  }
  const prefix = roots.length > 1 ? l.root.name : '';
  return prefix ? (l.relative ? `${prefix}/${l.relative}` : prefix) : l.relative || '.';
}
