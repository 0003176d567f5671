import * as nodePath from 'node:path';
import { throwIfCancelled, type CancelSignal } from '../cancel';
import { callText, span } from '../contract';
import { plural } from '../format';
import { PathChecker, relPosix, type FolderAnswer } from '../ignore/policy';
import { MAX_IGNORED_EXAMPLES, MAX_JS_SEARCH_FILE_BYTES, MAX_RG_COLUMN_BYTES, MAX_SEARCH_OUTPUT_BYTES } from '../limits';
import { comparePaths, Smallest } from '../list/order';
import { FolderGate, PacedQueue } from '../folderGate';
import { isWithin } from '../paths';
import { isGitInternal } from '../policy';
import { partitionPoint } from '../sorted';
import { ToolError } from '../errors';
import { readRegularFile, type FileOpener } from '../file';
import { decodeText } from '../text/encoding';
import { cutLine } from '../text/lines';
import type { SearchEngine } from './engine';
import { globMatcher, normalizeGlob, ripgrepKeeps } from './glob';
import type { Query } from './regex';
import { checkerFor, emptyReport, examples, moreSuffix, prunedTopFolders, reachableTops, reportable, type IgnoreReport, type StatHost } from './report';
import { sortKey, type Scope } from './scope';
import { looksBinary, type FileHits } from './textSearch';

export type GrepOutput = 'content' | 'files' | 'count';

export interface GrepRequest {
  query: Query;
  /** Glob of files to search, relative to the searched folder; a bare name matches at any depth. */
  include?: string;
  /** Lines of context on each side. @default 0 */
  context: number;
  /** @default "content" */
  output: GrepOutput;
  /** Records (content) or files (files, count) to skip. @default 0 */
  skip: number;
  /** Records (content) or files (files, count) to show. */
  limit: number;
  /**
   * Start right after a place a page ended instead of after `skip` items: the file (as a key,
   * see {@link Found.key}) and, in content output, how many of its records were shown (the
   * rest of it comes first); in files and count output the file itself was shown.
   */
  after?: { key: string; within: number };
}

export interface GrepEnv {
  engine: SearchEngine;
  scopes: Scope[];
  host: Omit<StatHost, 'stat'> & FileOpener & { realpath(p: string): Promise<string>; stat(p: string): Promise<{ type: string; size: number } | undefined> };
  /** Unsaved editor buffers: their text is what is searched for their file. */
  dirty: { path: string; text: string }[];
  /** Whether a file (root-relative, under a root that is a workspace folder or not) may hold secrets: see sensitiveFileTester. */
  sensitive: (rootPath: string, relative: string, inWorkspace: boolean) => boolean;
  /** Real path of the sensitive file (or folder) the user approved for this call: what is in it is searched like any file. */
  approved?: string;
  signal?: CancelSignal;
}

/**
 * A matching file as the selection keeps it: a deep page keeps every file before it, so
 * nothing is kept that only the page's own files need (how the path prints, how a call
 * names it): see {@link Scope.display} and {@link Scope.callPath}.
 */
interface Found {
  scope: Scope;
  rel: string;
  /** How it sorts: `rel` when one scope is searched (its paths share a prefix), else the printed path and the scope (see sortKey). */
  key: string;
  count: number;
  hits?: FileHits;
}

export interface GrepResult {
  /** The first matching files in path order, as many as a page of `skip + limit` items can reach (each holds a record); with `after`, those after it. */
  first: Found[];
  /** With `after`: the items (records in content output, else files) before the page, and the records of `first[0]` already shown. */
  before: number;
  skipFirst: number;
  /** Matching files that may be shown, and their records. */
  files: number;
  records: number;
  reports: { scope: Scope; report: IgnoreReport }[];
}

/**
 * Which files match and how often. ripgrep counts (`--count`, cheap: no line text
 * crosses the pipe), unsaved buffers replace their file's count, and files a whitelist
 * brought back from ignore rules are set aside as hidden. Files that may hold secrets
 * are dropped first, silently: nothing the search says (counts, totals, the files ignore
 * rules hid) may depend on what they contain, or a loop of guesses would read them out.
 * The counts are taken as ripgrep prints them and kept as totals, with only the files a
 * page can reach (a bounded selection in path order), so a search matching in a million
 * files holds a page's worth, and the thread is never held longer than a piece of output takes.
 */
export async function grepCounts(req: GrepRequest, env: GrepEnv): Promise<GrepResult> {
  const single = env.scopes.length === 1;
  const after = req.after;
  const content = req.output === 'content';
  const top = new Smallest<Found>(after ? req.limit : req.skip + req.limit, byKey);
  const result: GrepResult = { first: [], files: 0, records: 0, reports: [], before: 0, skipFirst: 0 };
  const secret = (scope: Scope, rel: string): boolean =>
    env.sensitive(scope.rootPath, rel, scope.root !== undefined) && !(env.approved !== undefined && isWithin(env.approved, nodePath.join(scope.rootPath, ...rel.split('/'))));
  for (const [index, scope] of env.scopes.entries()) {
    throwIfCancelled(env.signal);
    if (scope.isFile) {
      await refuseBinary(env, scope);
    }
    const baseRel = scope.policy.baseRel;
    const norm = req.include ? normalizeGlob(req.include) : undefined;
    const inc = norm ? globMatcher(norm, scope.names) : undefined;
    const relToBase = (rel: string) => (baseRel ? rel.slice(baseRel.length + 1) : rel);
    const included = (rel: string) => !inc || inc(scope.isFile ? nodePath.posix.basename(rel) : relToBase(rel));
    const keeps = norm && !scope.isFile ? (ripgrepKeeps(norm, baseRel, scope.names) ?? []) : [];
    const report = emptyReport(keeps.length > 0);
    const boundary: string[] | undefined = keeps.length || scope.isFile ? undefined : [];
    const pruned = keeps.length ? prunedTopFolders(env.host, scope).catch(() => []) : undefined;
    const checker = checkerFor(scope);
    // Unsaved buffers of files the search may show: their text is searched instead of the file.
    const dirty = new Map<string, string>();
    for (const doc of env.dirty) {
      const real = await env.host.realpath(doc.path);
      if (scope.isFile ? real !== scope.base : !isWithin(scope.base, real) || real === scope.base) {
        continue;
      }
      const rel = relPosix(scope.rootPath, real);
      if (isGitInternal(rel) || !included(rel) || secret(scope, rel)) {
        continue;
      }
      if (!scope.isFile && (await checker.isIgnored(rel))) {
        continue;
      }
      dirty.set(rel, doc.text);
    }
    const add = (rel: string, count: number, hits?: FileHits): void => {
      result.files++;
      result.records += count;
      const key = single ? rel : sortKey(scope.display(rel), index);
      if (after) {
        // before the page: counted, not kept; the file the last page ended in keeps what it did not show
        const c = comparePaths(key, after.key);
        if (c < 0 || (c === 0 && (!content || after.within >= count))) {
          result.before += content ? count : 1;
          return;
        }
        if (c === 0) {
          result.before += after.within;
          result.skipFirst = after.within;
        }
      }
      const bar = top.bar;
      if (bar === undefined || comparePaths(key, bar.key) < 0) {
        top.offer({ scope, rel, key, count, hits });
      }
    };
    // ripgrep cannot say which files its whitelist brought back past ignore rules, so with a
    // whitelist every matching file is checked; each folder is probed for ignore files once.
    const hide = (rel: string, n: number): void => {
      report.hiddenMatches.push(rel);
      report.hiddenRecords += n;
    };
    const matching = new PacedQueue<string, [FolderAnswer, number]>((rel, [at, n]) => (checker.matchIgnored(at, rel) ? hide(rel, n) : add(rel, n)), env.signal);
    const hiding =
      keeps.length && scope.policy.spec.respectIgnore
        ? new FolderGate<number, FolderAnswer>(
            (folder) => checker.folderAnswer(folder),
            (rel, n, at, cut) => {
              const s = PathChecker.screen(at, rel, cut);
              if (s === 'kept') {
                add(rel, n);
              } else if (s === 'ignored') {
                hide(rel, n);
              } else {
                // most names are decided by the folder's screen; the rest are matched a slice at a time
                matching.push(rel, [at, n]);
              }
            },
            env.signal,
          )
        : undefined;
    await env.engine.count(
      scope,
      req.query,
      keeps,
      (rel, n) => {
        if (!included(rel) || secret(scope, rel) || dirty.has(rel)) {
          return;
        }
        if (hiding) {
          hiding.push(rel, n);
        } else {
          add(rel, n);
        }
      },
      boundary,
    );
    await hiding?.done();
    await matching.done();
    report.skipped = (boundary ?? []).filter(reportable);
    for (const [rel, text] of dirty) {
      const hits = await env.engine.textDetails(scope, req.query, text, req.context);
      if (hits && hits.records.length) {
        add(rel, hits.records.length, hits);
      }
    }
    if (pruned) {
      report.prunedTopFolders = reachableTops(norm!, await pruned);
    }
    result.reports.push({ scope, report });
  }
  result.first = top.sorted();
  return result;
}

/**
 * A file named as the path is searched even if ignore rules name it, but not if it is
 * binary: ripgrep skips binary files it walks to, yet searches one it is given, so the
 * check is made here, the same for both engines.
 */
async function refuseBinary(env: GrepEnv, scope: Scope): Promise<void> {
  if (env.dirty.length && env.dirty.some((d) => d.path === scope.base)) {
    return;
  }
  const r = await readRegularFile(env.host, scope.base, MAX_JS_SEARCH_FILE_BYTES + 1);
  if (!r || r.size > MAX_JS_SEARCH_FILE_BYTES) {
    return;
  }
  const text = decodeText(r.bytes).text;
  if (looksBinary(text)) {
    throw new ToolError('binary', `${scope.display(scope.baseRel)} is a binary file (it holds NUL bytes), so fs_grep does not search it. Search the folder that holds its text sources, or ask the user what it contains.`);
  }
}

const byKey = (a: Found, b: Found) => comparePaths(a.key, b.key);

export interface GrepPage {
  /** Items (records in content mode, files otherwise) the page holds within the output cap. */
  shown: number;
  /** Items the page would hold without the output cap. */
  wanted: number;
  /** The result lines of the first `k` items (k ≤ shown), so a token budget can cut further. */
  lines(k: number): string[];
  /** Where a page of the first `k` items (k ≥ 1) ends: the file of the last (its key) and, in content output, its records shown up to it. */
  end(k: number): { key: string; within: number };
}

/**
 * One line of a result, cut at the line cap with the fs_read call that shows the rest.
 * `long`: ripgrep gave only the line's start (see LineCollector), so its length is not known.
 */
function renderHitLine(callPath: string, n: number, text: string, kind: ':' | '-', long: boolean): string {
  const cut = cutLine(n, text.replace(/\r$/, ''));
  const next = () => callText('fs_read', { path: callPath, offset: n, limit: 1, column: cut.text.length + 1 });
  const body = long
    ? `${cut.text}… [line cut: characters ${span(1, cut.text.length)} shown of a line over ${MAX_RG_COLUMN_BYTES} bytes; next piece: ${next()}]`
    : cut.fullLength === undefined
      ? cut.text
      : `${cut.text}… [line cut: characters ${span(1, cut.text.length)} of ${cut.fullLength} shown; next piece: ${next()}]`;
  return `  L${n}${kind} ${body}`;
}

/**
 * The lines of one file's chosen records with their context, record by record: each
 * element holds what that record adds (lines already printed for an earlier record are
 * not repeated; a gap is marked "--").
 */
export function renderFileHits(callPath: string, hits: FileHits, from: number, to: number, context: number): string[][] {
  const records = hits.records.slice(from, to);
  const matchLines = new Set<number>();
  for (const r of records) {
    for (let n = r.first; n <= r.last; n++) {
      matchLines.add(n);
    }
  }
  const out: string[][] = [];
  let last = 0;
  // A page that starts inside the file: the page before showed the record before this one
  // with its context after it; those lines are not shown again (this page's matches are).
  const shownBefore = from > 0 && context > 0 ? hits.records[from - 1].last + context : 0;
  for (const r of records) {
    const block: string[] = [];
    for (let n = Math.max(1, r.first - context, last + 1); n <= r.last + context; n++) {
      if (!hits.lines.has(n) || (n <= shownBefore && !matchLines.has(n))) {
        continue;
      }
      // Without context every line stands alone; with it, "--" tells groups apart as in rg -C.
      if (context > 0 && last > 0 && n > last + 1) {
        block.push('  --');
      }
      block.push(renderHitLine(callPath, n, hits.lines.get(n) ?? '', matchLines.has(n) ? ':' : '-', hits.long?.has(n) ?? false));
      last = n;
    }
    out.push(block);
  }
  return out;
}

/** What a record is called: a matching line, or in a search across lines a match. */
export function recordUnit(query: Query): [string, string] {
  return query.multiline ? ['match', 'matches'] : ['matching line', 'matching lines'];
}

/**
 * The page of a content search: records `skip`..`skip+limit`, grouped by file, within the
 * output cap. `files` are in path order and hold at least the files the page reaches.
 */
export async function contentPage(req: GrepRequest, env: GrepEnv, files: Found[]): Promise<GrepPage> {
  const end = req.skip + req.limit;
  const unit = recordUnit(req.query);
  const chosen: { f: Found; from: number; to: number }[] = [];
  let cum = 0;
  for (const f of files) {
    const from = Math.max(0, req.skip - cum);
    const to = Math.min(f.count, end - cum);
    if (from < to) {
      chosen.push({ f, from, to });
    }
    cum += f.count;
    if (cum >= end) {
      break;
    }
  }
  // The lines of the chosen files: one engine call per scope.
  const byScope = new Map<Scope, Found[]>();
  for (const c of chosen) {
    if (!c.f.hits) {
      byScope.set(c.f.scope, [...(byScope.get(c.f.scope) ?? []), c.f]);
    }
  }
  const maxCount = Math.max(0, ...chosen.map((c) => c.to));
  for (const [scope, fs] of byScope) {
    throwIfCancelled(env.signal);
    const got = await env.engine.details(
      scope,
      req.query,
      fs.map((f) => f.rel),
      maxCount,
      req.context,
    );
    for (const f of fs) {
      f.hits = got.get(f.rel) ?? { records: [], lines: new Map() };
    }
  }
  // One entry per record: its file's place in `chosen`.
  const items: number[] = [];
  chosen.forEach((c, file) => {
    const n = Math.min(c.to, c.f.hits!.records.length) - c.from;
    for (let i = 0; i < n; i++) {
      items.push(file);
    }
  });
  const printed = chosen.map((c) => c.f.scope.display(c.f.rel));
  // Rendered for exactly the first k records: a line of a record past the cut is context
  // here (marked "-"), never a match the next page would show again.
  const lines = (k: number): string[] => {
    const perFile = new Map<number, number>();
    for (const file of items.slice(0, k)) {
      perFile.set(file, (perFile.get(file) ?? 0) + 1);
    }
    const out: string[] = [];
    for (const [file, n] of perFile) {
      const c = chosen[file];
      const upto = c.from + n;
      // A file split across pages says which of its records this page holds.
      out.push(c.from === 0 && upto === c.f.count ? printed[file] : `${printed[file]} (${span(c.from + 1, upto)} of its ${plural(c.f.count, unit[0], unit[1])})`);
      for (const block of renderFileHits(c.f.scope.callPath(c.f.rel), c.f.hits!, c.from, upto, req.context)) {
        out.push(...block);
      }
    }
    return out;
  };
  const endAt = (k: number) => {
    const c = chosen[items[k - 1]];
    let n = 0;
    for (let i = k - 1; i >= 0 && items[i] === items[k - 1]; i--) {
      n++;
    }
    return { key: c.f.key, within: c.from + n };
  };
  return { shown: fitBytes(items.length, lines), wanted: items.length, lines, end: endAt };
}

/** The most items, at least one, whose lines fit the output cap (by bisection over k). */
export function fitBytes(n: number, lines: (k: number) => string[]): number {
  const bytes = (k: number) => lines(k).reduce((sum, l) => sum + Buffer.byteLength(l, 'utf8') + 1, 0);
  if (n <= 1 || bytes(n) <= MAX_SEARCH_OUTPUT_BYTES) {
    return n;
  }
  // The first k that does not fit, less one; 1 when none does.
  return Math.max(1, partitionPoint(1, n, (k) => bytes(k) > MAX_SEARCH_OUTPUT_BYTES) - 1);
}

/** The page of a files or count search: files `skip`..`skip+limit` of `files` (in path order, at least that many). */
export function filesPage(req: GrepRequest, files: Found[]): GrepPage {
  const page = files.slice(req.skip, req.skip + req.limit);
  const all = page.map((f) => (req.output === 'count' ? `${f.scope.display(f.rel)}: ${f.count}` : f.scope.display(f.rel)));
  const lines = (k: number) => all.slice(0, k);
  return { shown: fitBytes(all.length, lines), wanted: all.length, lines, end: (k) => ({ key: page[k - 1].key, within: page[k - 1].count }) };
}

/**
 * One note per searched folder whose ignore rules left something out, in the words fs_list
 * uses too ("Left out by ignore rules (...): ..."); nothing when nothing was.
 */
export async function ignoreNotes(host: StatHost, reports: { scope: Scope; report: IgnoreReport }[], noun: { one: string; many: string; unit?: [string, string] }, verb: string): Promise<string[]> {
  const out: string[] = [];
  for (const { scope, report } of reports) {
    if (!scope.policy.spec.respectIgnore) {
      continue;
    }
    const parts: string[] = [];
    if (report.hiddenMatches.length) {
      const ex = await examples(host, scope, report.hiddenMatches);
      const unit = noun.unit ? ` (${plural(report.hiddenRecords, noun.unit[0], noun.unit[1])})` : '';
      parts.push(`${plural(report.hiddenMatches.length, noun.one, noun.many)}${unit}: ${ex.join(', ')}${moreSuffix(report.hiddenMatches.length, ex.length)}`);
    }
    // A whitelisted walk cannot tell what it skipped: the top folders ignore rules leave out
    // stand for it, less any it went into (one holding a match it brought back).
    const hidden = report.hiddenMatches;
    const top = report.whitelisted ? report.prunedTopFolders.filter((t) => !hidden.some((h) => h.startsWith(`${t}/`))) : [];
    const skipped = report.whitelisted ? [] : await examples(host, scope, report.skipped);
    const notWalked = [...skipped, ...top.slice(0, MAX_IGNORED_EXAMPLES).map((r) => `${scope.display(r)}/`)];
    if (notWalked.length) {
      parts.push(`not ${verb}: ${notWalked.join(', ')}${moreSuffix(report.skipped.length + top.length, notWalked.length)}`);
    }
    if (parts.length) {
      const where = reports.length > 1 ? ` in ${scope.display(scope.policy.baseRel)}` : '';
      out.push(`Left out by ignore rules${where}: ${parts.join('; ')}. Add "respect_ignore": false to include them.`);
    }
  }
  return out;
}
