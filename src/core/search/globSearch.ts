import * as nodePath from 'node:path';
import { throwIfCancelled, type CancelSignal } from '../cancel';
import { PacedQueue } from '../folderGate';
import { PathChecker, type FolderAnswer } from '../ignore/policy';
import { ToolError } from '../errors';
import { MAX_MTIME_SORT_FILES } from '../limits';
import { comparePaths, Smallest, smallestSorted } from '../list/order';
import type { SearchEngine } from './engine';
import { globMatcher, normalizeGlob, ripgrepKeeps, ripgrepReadsExactly } from './glob';
import { fitBytes } from './grep';
import { checkerFor, emptyReport, prunedTopFolders, reachableTops, reportable, type IgnoreReport, type StatHost } from './report';
import { sortKey, type Scope } from './scope';

export interface GlobRequest {
  pattern: string;
  sort: 'path' | 'mtime';
  skip: number;
  limit: number;
  /**
   * Sorted by path, start right after this path (as a key: relative to the root with one
   * scope, else see sortKey) instead of after `skip` matches: the page is then a selection of
   * `limit` paths, however deep it lies.
   */
  after?: string;
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
  /** Matches that sort at or before `after` (0 without it): the page starts after them. */
  before: number;
  /** The page's paths, `limit` at most. */
  lines: string[];
  /** The same paths as keys, the form `after` takes. */
  keys: string[];
  /** How many of them fit the output cap. */
  shown: number;
}

/** A folder of a walk, as the page's selection sees it. */
interface WalkedFolder {
  /** The folder's path and "/" ("" for the root's own files): the start of each of its paths. */
  prefix: string;
  /** Its ignore rules, where the walk may have brought back files they leave out. */
  rules: FolderAnswer | undefined;
  /** Whether every path in it sorts after the bar `barSeen`, which only ever moves down. */
  beyond: boolean;
  barSeen: string | undefined;
  /** Where its paths sort against `after`: 0 not yet known, -1 all at or before it, 1 all after, 2 either. */
  side: -1 | 0 | 1 | 2;
}

/**
 * Whether every path starting with `prefix` (a folder and "/") sorts after `bar`: where
 * `bar` does not start with the prefix, the two differ within it, and so do all its paths.
 */
function sortsAfter(prefix: string, bar: string): boolean {
  return !bar.startsWith(prefix) && comparePaths(prefix, bar) > 0;
}

/** Where the paths starting with `prefix` (a folder and "/", or "") sort against the path `after` (see {@link WalkedFolder.side}). */
function sideOf(prefix: string, after: string): -1 | 1 | 2 {
  return after.startsWith(prefix) ? 2 : comparePaths(prefix, after) < 0 ? -1 : 1;
}

/** What a folder's paths come to (see fateOf in globSearch): each must be looked at, all sort before the cursor, or all after the page. */
type Fate = 0 | 1 | 2;
const EACH = 0;
const BEFORE = 1;
const BEYOND = 2;

/** A matching file (sorted by modification time): its path as it sorts (root-relative with one scope, else as printed, see sortKey). */
interface Match {
  key: string;
  scope: Scope;
  rel: string;
}

/**
 * The files under each scope whose path (relative to the searched folder) matches the
 * glob: their number, and the page's paths in order. Nothing is kept per match but the
 * count: the page comes from a bounded selection (the first offset+limit paths), so a
 * million matches cost a comparison each, not a sort. With a glob ripgrep reads as the
 * matcher does, ripgrep whitelists it (the fast path); the matches it brought back past
 * the ignore rules are then found in JavaScript, as they come, and reported as hidden,
 * not listed.
 */
export async function globSearch(req: GlobRequest, env: GlobEnv): Promise<GlobResult> {
  const norm = normalizeGlob(req.pattern);
  // One scope prints its paths with the same prefix, so they sort as their relative paths do
  // and only the page's paths need their printed form.
  const single = env.scopes.length === 1;
  // the keys alone: a deep page keeps half a million of them
  const after = req.sort === 'path' ? req.after : undefined;
  const skip = after === undefined ? req.skip : 0;
  const byPath = new Smallest<string>(req.sort === 'path' ? skip + req.limit : 0, comparePaths);
  const all: Match[] = [];
  let total = 0;
  let before = 0;
  const reports: GlobResult['reports'] = [];
  for (const [index, scope] of env.scopes.entries()) {
    throwIfCancelled(env.signal);
    const baseRel = scope.policy.baseRel;
    const test = globMatcher(norm, scope.names);
    const keeps = ripgrepKeeps(norm, baseRel, scope.names) ?? [];
    const report = emptyReport(keeps.length > 0);
    const boundary: string[] | undefined = keeps.length ? undefined : [];
    // read while ripgrep walks: one folder read, off the critical path
    const pruned = keeps.length ? prunedTopFolders(env.host, scope).catch(() => []) : undefined;
    const check = keeps.length > 0 && scope.policy.spec.respectIgnore;
    const cut = baseRel ? baseRel.length + 1 : 0;
    // What a folder's paths come to, where the folder decides it (one scope, sorted by path):
    // all sort before the cursor, or all after the page's bar (no path of it can reach the page).
    const fateOf = (folder: WalkedFolder): Fate => {
      if (after !== undefined) {
        const side = folder.side === 0 ? (folder.side = sideOf(folder.prefix, after)) : folder.side;
        if (side < 0) {
          return BEFORE;
        }
        if (side === 2) {
          return EACH;
        }
      }
      const bar = byPath.bar;
      if (bar === undefined) {
        return EACH;
      }
      if (folder.beyond) {
        return BEYOND;
      }
      if (folder.barSeen !== bar) {
        folder.barSeen = bar;
        if (sortsAfter(folder.prefix, bar)) {
          folder.beyond = true;
          return BEYOND;
        }
      }
      return EACH;
    };
    const count = (rel: string, folder: WalkedFolder): void => {
      total++;
      if (req.sort === 'mtime') {
        all.push({ key: single ? rel : sortKey(scope.display(rel), index), scope, rel });
        return;
      }
      if (!single) {
        const key = sortKey(scope.display(rel), index);
        if (after !== undefined && comparePaths(key, after) <= 0) {
          before++;
          return;
        }
        const bar = byPath.bar;
        if (bar === undefined || comparePaths(key, bar) < 0) {
          byPath.offer(key);
        }
        return;
      }
      // one scope: a path sorts as its key
      const fate = fateOf(folder);
      if (fate !== EACH) {
        if (fate === BEFORE) {
          before++;
        }
        return;
      }
      if (after !== undefined && folder.side === 2 && comparePaths(rel, after) <= 0) {
        before++;
        return;
      }
      const bar = byPath.bar;
      if (bar !== undefined && comparePaths(rel, bar) >= 0) {
        return;
      }
      byPath.offer(rel);
    };
    const checker = check ? checkerFor(scope) : undefined;
    const hide = (rel: string): void => {
      report.hiddenMatches.push(rel);
    };
    // Files a whitelisted walk brought back whose names the folder's screen cannot decide:
    // matched against the ignore rules a slice at a time, off the stream's turns.
    const matching = new PacedQueue<string, WalkedFolder>((rel, folder) => (checker!.matchIgnored(folder.rules!, rel) ? hide(rel) : count(rel, folder)), env.signal);
    await env.engine.files<WalkedFolder>(
      scope,
      keeps,
      [],
      (rel, folder, folderEnd) => {
        if (!test(cut ? rel.slice(cut) : rel)) {
          return;
        }
        const rules = folder.rules;
        if (rules) {
          // a whitelisted walk brings back files the ignore rules leave out (see PathChecker)
          const s = PathChecker.screen(rules, rel, folderEnd);
          if (s === 'ignored') {
            hide(rel);
            return;
          }
          if (s === 'ask') {
            matching.push(rel, folder);
            return;
          }
        }
        count(rel, folder);
      },
      boundary,
      // Each path waits for its folder's ignore files (each folder probed once, at once on a
      // local disk), and is then checked, while ripgrep walks on.
      (dir) => {
        const prefix = dir ? `${dir}/` : '';
        if (!checker) {
          return { prefix, rules: undefined, beyond: false, barSeen: undefined, side: 0 };
        }
        const rules = checker.folderAnswer(dir);
        return rules instanceof Promise ? rules.then((r) => ({ prefix, rules: r, beyond: false, barSeen: undefined, side: 0 })) : { prefix, rules, beyond: false, barSeen: undefined, side: 0 };
      },
      // Most paths of a broad glob are only counted: ripgrep matched the glob exactly, the
      // first and last bytes of the name tell that no ignore rule can match it, and its
      // folder that none of its paths can reach the page. Such a path is never decoded.
      keeps.length > 0 && ripgrepReadsExactly(norm, scope.names) && single && req.sort === 'path'
        ? (folder, buf, at, end) => {
            if (folder.rules && PathChecker.screenBytes(folder.rules, buf, at, end) !== 'kept') {
              return false;
            }
            const fate = fateOf(folder);
            if (fate === EACH) {
              return false;
            }
            total++;
            if (fate === BEFORE) {
              before++;
            }
            return true;
          }
        : undefined,
    );
    await matching.done();
    report.skipped = (boundary ?? []).filter(reportable);
    if (pruned) {
      report.prunedTopFolders = reachableTops(norm, await pruned);
    }
    reports.push({ scope, report });
  }
  // the page's paths, in order
  let lines: string[];
  let keys: string[];
  if (req.sort === 'mtime') {
    // Every match is stat'ed to know the newest: bounded, and in bulk rather than one await each.
    if (all.length > MAX_MTIME_SORT_FILES) {
      throw new ToolError(
        'too-large',
        `sort: "mtime" needs the modification time of every matching file, and ${all.length} files match, over the ${MAX_MTIME_SORT_FILES} it sorts. Narrow the pattern or the path, or sort by path.`,
      );
    }
    const times = await env.host.mtimes(
      all.map((f) => nodePath.join(f.scope.rootPath, ...f.rel.split('/'))),
      env.signal,
    );
    const index = new Map(all.map((f, i) => [f, times[i]]));
    const page = smallestSorted(all, req.skip + req.limit, (a, b) => index.get(b)! - index.get(a)! || comparePaths(a.key, b.key)).slice(req.skip);
    lines = page.map((f) => f.scope.display(f.rel));
    keys = page.map((f) => f.key);
  } else {
    // only the page is sorted: a deep page selects past the matches before it. With one scope a
    // key is the path relative to its root; with several it is the path as printed.
    const page = byPath.from(skip);
    lines = single ? page.map((rel) => env.scopes[0].display(rel)) : page.map((key) => key.slice(0, key.lastIndexOf('\0')));
    keys = page;
  }
  return { total, reports, before, lines, keys, shown: fitBytes(lines.length, (k) => lines.slice(0, k)) };
}
