import * as nodePath from 'node:path';
import picomatch from 'picomatch';
import { PathChecker } from '../ignore/policy';
import { MAX_IGNORED_EXAMPLES } from '../limits';
import { comparePaths } from '../list/order';
import { isGitName } from '../paths';
import type { Scope } from './scope';

/** The part of the workspace seam the ignore reports need. */
export interface StatHost {
  stat(path: string): Promise<{ type: string } | undefined>;
  readDirectory(path: string): Promise<{ name: string; type: string }[]>;
}

/** What ignore rules hid from one search, in the terms both engines can report. */
export interface IgnoreReport {
  /** Paths a walk left out at the top of an ignored subtree (the walk saw them; their contents were not walked). */
  skipped: string[];
  /** Matching files a whitelist brought back that ignore rules leave out (shown as hidden, not as results). */
  hiddenMatches: string[];
  /** Records in `hiddenMatches` (fs_grep). */
  hiddenRecords: number;
  /** Folders at the top of the searched folder that ignore rules leave out entirely. */
  prunedTopFolders: string[];
  /** Whether the walk ran with a whitelist (then `skipped` is unknown). */
  whitelisted: boolean;
}

export function emptyReport(whitelisted: boolean): IgnoreReport {
  return { skipped: [], hiddenMatches: [], hiddenRecords: 0, prunedTopFolders: [], whitelisted };
}

/** Paths named `.git` are never walked and not worth reporting. */
export function reportable(rel: string): boolean {
  return !isGitName(rel.slice(rel.lastIndexOf('/') + 1));
}

/**
 * The searched folder's own subfolders that ignore rules leave out: one read of one
 * folder, so a whitelisted search (which cannot see what it skipped) can still say
 * "node_modules/ was not searched".
 */
export async function prunedTopFolders(host: StatHost, scope: Scope): Promise<string[]> {
  if (scope.isFile || !scope.policy.spec.respectIgnore) {
    return [];
  }
  let entries: { name: string; type: string }[];
  try {
    entries = await host.readDirectory(scope.base);
  } catch {
    return [];
  }
  const present = entries.filter((e) => e.type !== 'directory').map((e) => e.name);
  const frame = await scope.policy.frame(undefined, scope.policy.baseRel, present);
  const matcher = scope.policy.matcher();
  const out: string[] = [];
  for (const e of entries) {
    if (e.type !== 'directory' || isGitName(e.name)) {
      continue;
    }
    const rel = scope.policy.baseRel ? `${scope.policy.baseRel}/${e.name}` : e.name;
    if (matcher.match(frame, rel, true).verdict === 'ignore') {
      out.push(rel);
    }
  }
  return out.sort(comparePaths);
}

/**
 * Of the folders at the top of the searched folder that ignore rules left out (root-relative
 * paths), those that could hold a path the glob matches: a glob that starts with a literal
 * folder (`docs/*.md`) reaches only that one, so naming the others would be noise.
 */
export function reachableTops(normalized: string, tops: readonly string[]): string[] {
  const base = picomatch.scan(normalized).base;
  if (base === '' || base.includes('\\')) {
    return [...tops];
  }
  const first = base.split('/')[0];
  return tops.filter((t) => t.slice(t.lastIndexOf('/') + 1) === first);
}

/** Examples of skipped paths, folders marked with "/" (one stat each, for the few named). */
export async function examples(host: StatHost, scope: Scope, rels: readonly string[]): Promise<string[]> {
  const picked = [...rels].sort(comparePaths).slice(0, MAX_IGNORED_EXAMPLES);
  const out: string[] = [];
  for (const rel of picked) {
    const st = await host.stat(nodePath.join(scope.rootPath, ...rel.split('/')));
    out.push(scope.display(rel) + (st?.type === 'directory' ? '/' : ''));
  }
  return out;
}

/** Checks files a whitelisted walk returned against the ignore rules it bypassed. */
export function checkerFor(scope: Scope): PathChecker {
  return new PathChecker(scope.policy);
}

export function moreSuffix(total: number, shown: number): string {
  return total > shown ? ` and ${total - shown} more` : '';
}
