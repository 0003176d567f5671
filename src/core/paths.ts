import * as nodePath from 'node:path';
import { printable } from './contract';

/** A workspace folder: its name (as VS Code shows it) and its absolute, real path. */
export interface Root {
  name: string;
  path: string;
}

const p = nodePath;

export function isAbsoluteInput(input: string): boolean {
  return p.isAbsolute(input) || /^[a-zA-Z]:[\\/]/.test(input);
}

/** Is `child` the same as or below `parent`? Both absolute and normalised. */
export function isWithin(parent: string, child: string): boolean {
  const rel = p.relative(parent, child);
  // `..x` is a name inside `parent`; only `..` itself, or `..` followed by a separator, leaves it
  const up = rel === '..' || rel.startsWith(`..${p.sep}`);
  return rel === '' || (!up && !p.isAbsolute(rel));
}

/**
 * Turns the model's path into an absolute, normalised one (symlinks not yet resolved).
 * Relative paths resolve against a workspace folder: in a multi-root workspace a first
 * segment naming a folder picks that folder (`asRelativePath` form), else the first.
 */
export function resolveInputPath(input: string, roots: readonly Root[]): string {
  const trimmed = input.trim();
  if (isAbsoluteInput(trimmed)) {
    return p.normalize(trimmed);
  }
  if (roots.length === 0) {
    return p.resolve(trimmed);
  }
  const rel = trimmed.replace(/\\/g, '/').replace(/^\.\/+/, '');
  if (roots.length > 1) {
    const first = rel.split('/')[0];
    const named = roots.find((r) => r.name === first);
    if (named) {
      return p.resolve(named.path, rel.slice(first.length + 1));
    }
  }
  return p.resolve(roots[0].path, rel);
}

export interface Located {
  /** What tools print: workspace-relative with "/", or absolute outside; escaped as every name is printed (see printable). */
  display: string;
  root: Root | undefined;
  /** Relative to its root with "/" ('' for the root itself); undefined outside. */
  relative: string | undefined;
}

/** How a real absolute path is shown, and which folder holds it. */
export function locate(abs: string, roots: readonly Root[]): Located {
  // the deepest root wins when folders nest
  let best: Root | undefined;
  for (const r of roots) {
    if (isWithin(r.path, abs) && (!best || r.path.length > best.path.length)) {
      best = r;
    }
  }
  if (!best) {
    return { display: printable(abs), root: undefined, relative: undefined };
  }
  const rel = p.relative(best.path, abs).split(p.sep).join('/');
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
  return name.length === 4 && name.toLowerCase() === '.git';
}

/** A located path as a call takes it: the printed form before escaping (see Located.display), for the calls a result suggests. */
export function callPathOf(l: Located, abs: string, roots: readonly Root[]): string {
  if (!l.root || l.relative === undefined) {
    return abs;
  }
  const prefix = roots.length > 1 ? l.root.name : '';
  return prefix ? (l.relative ? `${prefix}/${l.relative}` : prefix) : l.relative || '.';
}
