import * as nodePath from 'node:path';
import { throwIfCancelled, type CancelSignal } from '../cancel';
import { Pacer } from '../pace';
import type { IgnorePolicy } from '../ignore/policy';
import { IGNORE_FILE_NAMES, type Frame } from '../ignore/rules';
import { ToolError } from '../errors';
import { formatBytes } from '../format';
import { MAX_CHILD_RUN_MS, MAX_JS_SEARCH_FILE_BYTES, MAX_REGEX_FILE_MS, MAX_TASK_MEMORY_BYTES, TASK_IDLE_MS } from '../limits';
import { TaskStopped, type ProcessHost, type TaskSession } from '../process';
import { readRegularFile, type FileOpener } from '../file';
import { decodeText } from '../text/encoding';
import { isGitDirectoryListing } from '../gitDirectory';
import type { CompiledQuery } from './regex';
import { findRecords, linesFor, looksBinary, type FileHits, type MatchRecord } from './textSearch';

/** The part of the workspace seam the JavaScript search reads through. */
export interface JsHost extends FileOpener {
  readDirectory(path: string): Promise<{ name: string; type: string }[]>;
}

/** The match records of a text under a compiled query, found where a runaway match can be stopped. */
export type RecordFinder = (text: string, q: CompiledQuery) => Promise<MatchRecord[]>;

/**
 * Finds records on a task thread of the host (see ProcessHost.startTask): a pattern such
 * as `(a+)+$` backtracks for minutes on a line of a's, and only a thread can be stopped
 * in the middle of a match. A literal pattern cannot backtrack and is matched here.
 */
export function recordFinder(proc: Pick<ProcessHost, 'startTask'>, signal?: CancelSignal): RecordFinder {
  let session: TaskSession | undefined;
  return async (text, q) => {
    if (q.literal) {
      return findRecords(text, q).records;
    }
    session ??= proc.startTask({ deadlineMs: MAX_CHILD_RUN_MS, requestMs: MAX_REGEX_FILE_MS, maxMemoryBytes: MAX_TASK_MEMORY_BYTES, idleMs: TASK_IDLE_MS, signal });
    try {
      return await session.call<MatchRecord[]>({ task: 'regex', source: q.regex.source, flags: q.regex.flags, acrossLines: q.acrossLines, text });
    } catch (e) {
      if (!(e instanceof TaskStopped)) {
        throw e;
      }
      if (e.reason === 'memory') {
        throw new ToolError('too-large', `The built-in search was stopped: matching the pattern needed more than ${formatBytes(e.limit)} of memory. Simplify the pattern, or narrow the search with path or include.`);
      }
      if (e.limit === MAX_REGEX_FILE_MS) {
        throw new ToolError(
          'invalid-input',
          `The pattern was stopped after ${e.limit / 1000} seconds on one file: it backtracks without end (nested repetition such as (a+)+, or alternatives that overlap). Rewrite it without nested quantifiers, or set "fixed_strings": true.`,
        );
      }
      throw new ToolError('io', `The built-in search was stopped after ${e.limit / 1000} seconds. Narrow the search with path or include.`);
    }
  };
}

export interface JsScope {
  host: JsHost;
  find: RecordFinder;
  /** Real path the rules and returned paths are relative to. */
  rootPath: string;
  policy: IgnorePolicy;
  /** A single file to search (root-relative) instead of walking the policy's base. */
  file?: string;
  signal?: CancelSignal;
}

const abs = (s: JsScope, rel: string) => (rel ? nodePath.join(s.rootPath, ...rel.split('/')) : s.rootPath);

/**
 * `rg --files` in JavaScript: the same walk decisions (see {@link Matcher}), regular
 * files only (ripgrep lists neither symlinks, which it does not follow, nor devices).
 * `boundary` receives the paths ignore rules left out, as ripgrep's `--debug` would log
 * them, when no whitelist is given.
 */
export async function jsFiles(s: JsScope, keeps: readonly string[], trailingKeeps: readonly string[], boundary?: string[]): Promise<string[]> {
  if (s.file !== undefined) {
    return [s.file];
  }
  const matcher = s.policy.matcher(keeps, trailingKeeps);
  const collect = keeps.length === 0 && trailingKeeps.length === 0 ? boundary : undefined;
  const files: string[] = [];
  const pacer = new Pacer(s.signal);
  const queue: { rel: string; frame: Frame | undefined }[] = [{ rel: s.policy.baseRel, frame: undefined }];
  while (queue.length) {
    throwIfCancelled(s.signal);
    const { rel, frame: parentFrame } = queue.shift()!;
    let entries: { name: string; type: string }[];
    try {
      entries = await s.host.readDirectory(abs(s, rel));
    } catch {
      // unreadable folder: ripgrep reports it on stderr (silenced) and goes on
      continue;
    }
    if (rel !== s.policy.baseRel && isGitDirectoryListing(entries)) {
      // a repository under another name: never walked, as `.git` is not (the base itself was refused before the walk)
      continue;
    }
    const present = entries.filter((e) => e.type !== 'directory' && (IGNORE_FILE_NAMES as readonly string[]).includes(e.name)).map((e) => e.name);
    const frame = await s.policy.frame(parentFrame, rel, present);
    for (const e of entries) {
      if (pacer.due()) {
        await pacer.pause();
      }
      const child = rel ? `${rel}/${e.name}` : e.name;
      const isDir = e.type === 'directory';
      if (matcher.match(frame, child, isDir).verdict === 'ignore') {
        collect?.push(child);
        continue;
      }
      if (isDir) {
        queue.push({ rel: child, frame });
      } else if (e.type === 'file') {
        files.push(child);
      }
    }
  }
  return files;
}

/**
 * Decoded text of a file as ripgrep searches it (BOM-sniffed), or undefined when it would
 * skip it: only regular files, up to MAX_JS_SEARCH_FILE_BYTES.
 */
export async function searchableText(host: JsHost, path: string): Promise<string | undefined> {
  const r = await readRegularFile(host, path, MAX_JS_SEARCH_FILE_BYTES + 1, { skipOver: MAX_JS_SEARCH_FILE_BYTES });
  if (!r || r.size > MAX_JS_SEARCH_FILE_BYTES) {
    return undefined;
  }
  const { text } = decodeText(r.bytes);
  return looksBinary(text) ? undefined : text;
}

async function eachLimited<T>(items: readonly T[], limit: number, fn: (x: T) => Promise<void>, signal?: CancelSignal): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      throwIfCancelled(signal);
      await fn(items[next++]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Parallel reads keep a slow disk busy without flooding it. */
const READ_CONCURRENCY = 8;

/** Records per file, like `rg --count` (line by line) or counted `--json` records (across lines). */
export async function jsCount(s: JsScope, q: CompiledQuery, keeps: readonly string[], boundary?: string[]): Promise<Map<string, number>> {
  const files = await jsFiles(s, keeps, [], boundary);
  const counts = new Map<string, number>();
  await eachLimited(
    files,
    READ_CONCURRENCY,
    async (rel) => {
      const text = await searchableText(s.host, abs(s, rel));
      if (text === undefined) {
        return;
      }
      const n = (await s.find(text, q)).length;
      if (n) {
        counts.set(rel, n);
      }
    },
    s.signal,
  );
  return counts;
}

/** Records (the first `maxCount`) and the lines around them, of chosen files. */
export async function jsDetails(s: JsScope, q: CompiledQuery, files: readonly string[], maxCount: number, context: number): Promise<Map<string, FileHits>> {
  const out = new Map<string, FileHits>();
  await eachLimited(
    files,
    READ_CONCURRENCY,
    async (rel) => {
      const text = await searchableText(s.host, abs(s, rel));
      if (text !== undefined) {
        out.set(rel, await textDetails(s.find, text, q, maxCount, context));
      }
    },
    s.signal,
  );
  return out;
}

export async function textDetails(find: RecordFinder, text: string, q: CompiledQuery, maxCount: number | undefined, context: number): Promise<FileHits> {
  const records = (await find(text, q)).slice(0, maxCount);
  return { records, ...linesFor(text, records, context) };
}
