import * as nodePath from 'node:path';
import { throwIfCancelled, type CancelSignal } from '../cancel';
import { Pacer } from '../pace';
import { IGNORE_FILE_NAMES } from '../ignore/rules';
import { ToolError } from '../errors';
import { MAX_MTIME_SORT_FILES } from '../limits';
import { comparePaths, smallestSorted } from '../list/order';
import type { SearchEngine } from './engine';
import { globMatcher, normalizeGlob, ripgrepKeeps } from './glob';
import { fitBytes } from './grep';
import { checkerFor, emptyReport, prunedTopFolders, reachableTops, reportable, type IgnoreReport, type StatHost } from './report';
import type { Scope } from './scope';

export interface GlobRequest {
  pattern: string;
  sort: 'path' | 'mtime';
  skip: number;
  limit: number;
}

export interface GlobEnv {
  engine: SearchEngine;
  scopes: Scope[];
  host: StatHost & {
    /** Modification times of many files (0 for one that is gone), checking `signal` as it goes. */
    mtimes(paths: readonly string[], signal?: CancelSignal): Promise<number[]>;
  };
  signal?: CancelSignal;
}

export interface GlobResult {
  /** Files that match (and are not hidden). */
  total: number;
  reports: { scope: Scope; report: IgnoreReport }[];
  /** The page's paths, `limit` at most. */
  lines: string[];
  /** How many of them fit the output cap. */
  shown: number;
}

/**
 * The files under each scope whose path (relative to the searched folder) matches the
 * glob. With a glob ripgrep reads as the matcher does, ripgrep whitelists it (the fast path)
 * and also whitelists the ignore files' names, so the same run tells where every ignore
 * file is; the matches it brought back past those files' rules are then found in
 * JavaScript and reported as hidden, not listed.
 */
export async function globSearch(req: GlobRequest, env: GlobEnv): Promise<GlobResult> {
  const norm = normalizeGlob(req.pattern);
  // One scope prints its paths with the same prefix, so they sort as their relative paths do
  // and only the page's paths need their printed form.
  const found: { key: string; scope: Scope; rel: string }[] = [];
  const single = env.scopes.length === 1;
  const reports: GlobResult['reports'] = [];
  for (const scope of env.scopes) {
    throwIfCancelled(env.signal);
    const baseRel = scope.policy.baseRel;
    const test = globMatcher(norm, scope.names);
    const keeps = ripgrepKeeps(norm, baseRel, scope.names) ?? [];
    const respect = scope.policy.spec.respectIgnore;
    const trailing = keeps.length && respect ? [...IGNORE_FILE_NAMES] : [];
    const report = emptyReport(keeps.length > 0);
    const boundary: string[] | undefined = keeps.length ? undefined : [];
    // read while ripgrep walks: one folder read, off the critical path
    const pruned = keeps.length ? prunedTopFolders(env.host, scope).catch(() => []) : undefined;
    const files = await env.engine.files(scope, keeps, trailing, boundary);
    report.skipped = (boundary ?? []).filter(reportable);
    const known = new Set(files.filter((f) => (IGNORE_FILE_NAMES as readonly string[]).includes(nodePath.posix.basename(f))));
    const checker = checkerFor(scope, known);
    const check = keeps.length > 0 && respect;
    if (check) {
      await checker.preload();
    }
    const pacer = new Pacer(env.signal);
    for (const rel of files) {
      if (pacer.due()) {
        await pacer.pause();
      }
      const relToBase = baseRel ? rel.slice(baseRel.length + 1) : rel;
      if (!test(relToBase)) {
        continue;
      }
      if (check && checker.isIgnoredNow(rel)) {
        report.hiddenMatches.push(rel);
        continue;
      }
      found.push({ key: single ? rel : scope.display(rel), scope, rel });
    }
    if (pruned) {
      report.prunedTopFolders = reachableTops(norm, await pruned);
    }
    reports.push({ scope, report });
  }
  let ordered: typeof found;
  if (req.sort === 'mtime') {
    // Every match is stat'ed to know the newest: bounded, and in bulk rather than one await each.
    if (found.length > MAX_MTIME_SORT_FILES) {
      throw new ToolError(
        'too-large',
        `sort: "mtime" needs the modification time of every matching file, and ${found.length} files match, over the ${MAX_MTIME_SORT_FILES} it sorts. Narrow the pattern or the path, or sort by path.`,
      );
    }
    const times = await env.host.mtimes(
      found.map((f) => nodePath.join(f.scope.rootPath, ...f.rel.split('/'))),
      env.signal,
    );
    const index = new Map(found.map((f, i) => [f, times[i]]));
    ordered = smallestSorted(found, req.skip + req.limit, (a, b) => index.get(b)! - index.get(a)! || comparePaths(a.key, b.key));
  } else {
    // a page needs only the first skip+limit paths in order, not all of them sorted
    ordered = smallestSorted(found, req.skip + req.limit, (a, b) => comparePaths(a.key, b.key));
  }
  const total = found.length;
  const lines = ordered.slice(req.skip, req.skip + req.limit).map((f) => f.scope.display(f.rel));
  return { total, reports, lines, shown: fitBytes(lines.length, (k) => lines.slice(0, k)) };
}
