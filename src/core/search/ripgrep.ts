import * as nodePath from 'node:path';
import type { CancelSignal } from '../cancel';
import type { PathApi } from '../names';
import { ToolError } from '../errors';
import type { IgnorePolicy } from '../ignore/policy';
import { findProgram, ProcessStopped, SpawnError, stoppedError, type ProcessHost, type RunResult } from '../process';
import type { Query } from './regex';
import { CHILD_STALL_MS, MAX_CHILD_MEMORY_BYTES, MAX_CHILD_RUN_MS, MAX_OUTPUT_LINE_CHARS, MAX_RG_COLUMN_BYTES } from '../limits';
import { NulRecords, type PathText } from '../pathBytes';
import type { FileHits } from './textSearch';

/**
 * Environment variable naming the ripgrep to use instead of the editor's or the one on
 * PATH; `none` makes the tools use the JavaScript search (for tests and comparisons).
 */
export const RIPGREP_ENV = 'AGENT_FILE_TOOLS_RG';

export interface RipgrepFound {
  path: string;
  /** Where it was found, for the log and the footer. */
  origin: 'editor' | 'PATH' | typeof RIPGREP_ENV;
}

/** The editor's ripgrep, else `rg` on PATH, else none (the JavaScript search runs). */
export function findRipgrep(bundled: string | undefined, proc: Pick<ProcessHost, 'env' | 'isExecutable'>): RipgrepFound | undefined {
  const env = proc.env;
  const forced = env[RIPGREP_ENV];
  if (forced) {
    return forced === 'none' ? undefined : { path: forced, origin: RIPGREP_ENV };
  }
  if (bundled && proc.isExecutable(bundled)) {
    return { path: bundled, origin: 'editor' };
  }
  const onPath = findProgram('rg', proc);
  return onPath ? { path: onPath, origin: 'PATH' } : undefined;
}

/** Where ripgrep runs and what it walks: cwd is the rules' root, so its paths come out root-relative. */
export interface RgScope {
  rg: string;
  proc: ProcessHost;
  cwd: string;
  /** Folder or file to search, relative to cwd; undefined for cwd itself. */
  target: string | undefined;
  policy: IgnorePolicy;
  signal?: CancelSignal;
}

function queryArgs(q: Query): string[] {
  const a: string[] = [];
  if (q.fixedStrings) {
    a.push('--fixed-strings');
  }
  a.push(q.caseMode === 'smart' ? '--smart-case' : q.caseMode === 'sensitive' ? '--case-sensitive' : '--ignore-case');
  if (q.multiline) {
    a.push('--multiline');
  }
  a.push('--regexp', q.pattern);
  return a;
}

/**
 * The rules of the folders above the walk go to ripgrep as an `--ignore-file`, which it
 * matches relative to its working folder, the root; the file lives only for the run.
 */
async function withExplicitFile<T>(proc: ProcessHost, policy: IgnorePolicy, run: (file: string | undefined) => Promise<T>): Promise<T> {
  if (!policy.spec.respectIgnore || policy.ancestorLines.length === 0) {
    return run(undefined);
  }
  const file = await proc.tempFile('parents.ignore', policy.ancestorLines.join('\n') + '\n');
  try {
    return await run(file.path);
  } finally {
    await file.dispose();
  }
}

/** What `--debug` logs for each path the walk left out: `ignoring <path>: Ignore(IgnoreMatch(<kind>(`. */
const IGNORING = /\|ignore::walk\|.*?: ignoring (.+): Ignore\(IgnoreMatch\((Override|Gitignore)\(/;

function relOut(p: string): string {
  // asked of every path ripgrep prints: two characters compared, not a startsWith
  return p.charCodeAt(0) === 46 && p.charCodeAt(1) === 47 ? p.slice(2) : p;
}

/**
 * A path in ripgrep's `--debug` log ("ignoring PATH"), relative to the root as the tools
 * write it, for a platform whose paths read as `api` reads them. The log gives the path as
 * the walk built it, with the platform's separators (`--path-separator` shapes only the
 * results): on Windows `./pkg\node_modules`, where no name can hold a backslash.
 */
export function loggedPath(p: string, api: PathApi = nodePath): string {
  return relOut(api.sep === '\\' ? p.replaceAll('\\', '/') : p);
}

/** ripgrep's own default: a thread per processor, twelve at most. */
const RIPGREP_MAX_THREADS = 12;

/**
 * ripgrep's threads where it outruns the reader of its output, one fewer than the processors
 * (one at least), where that reader is the editor's extension host (see
 * ProcessHost.readerShared): its thread, which every extension shares, keeps a processor of
 * its own. That is a walk that lists the files a glob whitelists: ripgrep keeps them without
 * matching ignore rules, and prints them as fast as it reads folders. On 2 processors its two
 * threads held the extension host's thread back for up to 57 ms during a glob that matched
 * 200,000 files. In a process of the tools' own (the CLI) ripgrep keeps its own count: the
 * reader decides most paths from their bytes (see FolderGate.pushBytes), and one thread
 * fewer made a glob matching 1,000,000 files take 15% longer. Elsewhere ripgrep matches every file (its ignore rules, or
 * its contents), is the slow side, and keeps its own count.
 */
export function threadArgs(cores: number | undefined): string[] {
  return cores === undefined || !(cores >= 1) ? [] : [`--threads=${Math.max(1, Math.min(RIPGREP_MAX_THREADS, Math.floor(cores) - 1))}`];
}

async function rg(
  scope: RgScope,
  args: string[],
  opts: {
    onLine?: (l: string) => void;
    onBytes?: (chunk: Uint8Array) => void;
    separator?: '\n' | '\0';
    boundary?: string[];
    stdin?: string;
    /** ripgrep outruns the reader of its output: it gets one thread fewer (see threadArgs). */
    readerBound?: boolean;
  },
): Promise<RunResult> {
  let result: RunResult;
  const errLines: string[] = [];
  try {
    // paths come "/"-separated on every platform (ripgrep separates with a backslash on Windows), as the tools' folders and rules read them
    result = await scope.proc.run(scope.rg, [...(opts.readerBound && scope.proc.readerShared !== false ? threadArgs(scope.proc.cores) : []), '--path-separator=/', ...args], {
      cwd: scope.cwd,
      signal: scope.signal,
      onLine: opts.onLine,
      onBytes: opts.onBytes,
      separator: opts.separator,
      stdin: opts.stdin,
      maxMemoryBytes: MAX_CHILD_MEMORY_BYTES,
      stallMs: CHILD_STALL_MS,
      deadlineMs: MAX_CHILD_RUN_MS,
      onErrLine: (l) => {
        const m = IGNORING.exec(l);
        if (m) {
          opts.boundary?.push(loggedPath(m[1]));
        } else if (!l.includes('DEBUG|') && errLines.length < 50) {
          errLines.push(l.replace(/^rg: /, ''));
        }
      },
    });
  } catch (e) {
    if (e instanceof SpawnError) {
      throw new ToolError('io', `ripgrep at ${scope.rg} could not be started (${e.code ?? e.message}). Check that it exists and can run, or unset ${RIPGREP_ENV}.`);
    }
    if (e instanceof ProcessStopped) {
      throw stoppedError('ripgrep', e);
    }
    throw e;
  }
  // With --no-messages, per-file read errors are silent; what is left on stderr is fatal.
  const stderr = errLines.join('\n').trim();
  if (result.code !== null && result.code >= 2 && stderr) {
    if (/regex parse error|error parsing regex|the literal .* is not allowed|look-around|backreference/i.test(stderr)) {
      throw new ToolError('invalid-input', `Invalid pattern: ${shortParseError(stderr)}\nFix the regular expression (ripgrep syntax), or set "fixed_strings": true to search for the text literally.`);
    }
    throw new ToolError('io', `ripgrep failed: ${stderr}`);
  }
  return { ...result, stderr };
}

/** A program stopped by its limits, in words that say what in the workspace can cause it and what to do. */
/** Characters of a pattern line a parse error shows around its caret. */
const PARSE_ERROR_WIDTH = 80;
/** Lines of a parse error shown before its last (the reason). */
const PARSE_ERROR_LINES = 12;

/**
 * ripgrep's parse error with the pattern cut to the part around each caret: it echoes the
 * whole pattern (up to 8192 characters, a line per line of a multiline one) and a caret
 * line as long, where the model needs only the place and the reason.
 */
export function shortParseError(stderr: string): string {
  const lines = stderr.split('\n');
  const out: string[] = [];
  const isCaret = (l: string | undefined) => l !== undefined && /^\s*\^[\^\s]*$/.test(l);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const lead = /^(\s*\d+: |\s+)/.exec(line)?.[0] ?? '';
    if (/^~+$/.test(line)) {
      // a rule around a multiline pattern: decoration
      continue;
    }
    if (isCaret(lines[i + 1]) && line.length > lead.length + PARSE_ERROR_WIDTH) {
      const caret = lines[i + 1];
      const at = caret.indexOf('^');
      const from = Math.max(lead.length, at - PARSE_ERROR_WIDTH / 2);
      const to = Math.min(line.length, from + PARSE_ERROR_WIDTH);
      const before = from > lead.length ? '...' : '';
      const after = to < line.length ? '...' : '';
      out.push(`${lead}${before}${line.slice(from, to)}${after}`, `${' '.repeat(lead.length + before.length)}${caret.slice(from, to).trimEnd()}`);
      i++;
    } else if (isCaret(line)) {
      out.push(line.trimEnd());
    } else {
      out.push(line.length > lead.length + PARSE_ERROR_WIDTH ? `${line.slice(0, lead.length + PARSE_ERROR_WIDTH)}...` : line);
    }
  }
  if (out.length > PARSE_ERROR_LINES + 1) {
    return [...out.slice(0, PARSE_ERROR_LINES), `... (${out.length - PARSE_ERROR_LINES - 1} more lines)`, out[out.length - 1]].join('\n');
  }
  return out.join('\n');
}


function targetArgs(scope: RgScope): string[] {
  return scope.target === undefined ? [] : ['--', scope.target];
}

/**
 * `rg --files`: each path, relative to the root, given to `onFile` as ripgrep prints it (in
 * no order), as UTF-8 bytes: `buf[start..end)`, whose text `text` gives. `boundary` collects
 * what ignore rules left out (only when `keeps` is empty: with whitelists ripgrep logs every file).
 */
export async function rgFiles(scope: RgScope, keeps: readonly string[], trailingKeeps: readonly string[], onFile: (buf: Uint8Array, start: number, end: number, text: PathText) => void, boundary?: string[]): Promise<void> {
  const debug = boundary !== undefined && keeps.length === 0 && trailingKeeps.length === 0;
  const records: NulRecords = new NulRecords(MAX_OUTPUT_LINE_CHARS, (buf, start, end) => {
    // "./" before a path (see relOut)
    const from = buf[start] === 46 && buf[start + 1] === 47 ? start + 2 : start;
    if (from < end) {
      onFile(buf, from, end, records);
    }
  });
  await withExplicitFile(scope.proc, scope.policy, (explicit) =>
    rg(scope, ['--files', '--null', '--no-messages', ...(debug ? ['--debug'] : []), ...scope.policy.ripgrepArgs(keeps, trailingKeeps, explicit), ...targetArgs(scope)], {
      onBytes: (chunk) => records.push(chunk),
      boundary: debug ? boundary : undefined,
      readerBound: keeps.length > 0,
    }),
  );
  records.end();
}

/** `rg --count`: matching lines per file (root-relative), the unit of a search line by line, each given to `onCount` as ripgrep prints it. */
export async function rgCount(scope: RgScope, q: Query, keeps: readonly string[], onCount: (rel: string, n: number) => void, boundary?: string[]): Promise<void> {
  const debug = boundary !== undefined && keeps.length === 0;
  // A path with a line feed in it arrives over several lines: only the last holds the NUL.
  let pendingPath = '';
  await withExplicitFile(scope.proc, scope.policy, (explicit) =>
    rg(scope, ['--count', '--null', '--no-messages', ...(debug ? ['--debug'] : []), ...scope.policy.ripgrepArgs(keeps, [], explicit), ...queryArgs(q), ...targetArgs(scope)], {
      onLine: (l) => {
        const z = l.lastIndexOf('\0');
        if (z >= 0) {
          onCount(relOut(pendingPath ? pendingPath + l.slice(0, z) : l.slice(0, z)), Number(l.slice(z + 1)));
          pendingPath = '';
        } else if (pendingPath === '' && /^\d+$/.test(l) && scope.target !== undefined) {
          onCount(relOut(scope.target), Number(l));
        } else {
          pendingPath = pendingPath.length + l.length > 65536 ? '' : `${pendingPath}${l}\n`;
        }
      },
      boundary: debug ? boundary : undefined,
    }),
  );
}

/**
 * Folds ripgrep's standard output (`--null -H -n --no-heading`) into per-file records
 * and line texts. Each line is `path NUL number (":" match | "-" context) text`, or
 * "--" between groups. Lines longer than {@link MAX_RG_COLUMN_BYTES} come as a preview
 * (`--max-columns-preview`): their start and ripgrep's " [... omitted ...]" note, which
 * is dropped and the line marked long. ripgrep's JSON output is not used here because it
 * ignores `--max-columns`: one gigabyte-long line would cross the pipe whole.
 *
 * In multiline mode ripgrep prints every line of a match; matching lines that touch are
 * one record, as they are in the JavaScript search (see textSearch.ts).
 */
export class LineCollector {
  readonly files = new Map<string, FileHits>();
  /** A path with a line feed in it arrives over several lines. */
  private pendingPath = '';

  constructor(
    private readonly pathFor: (p: string) => string,
    private readonly multiline: boolean,
  ) {}

  line(l: string): void {
    const z = l.indexOf('\0');
    if (z < 0) {
      // Part of a path with a line feed in it; no real path is longer than PATH_MAX.
      this.pendingPath = l === '--' || this.pendingPath.length + l.length > 65536 ? '' : `${this.pendingPath}${l}\n`;
      return;
    }
    const path = this.pathFor(this.pendingPath + l.slice(0, z));
    this.pendingPath = '';
    const m = /^(\d+)([:-])/.exec(l.slice(z + 1, z + 24));
    if (!m) {
      return;
    }
    let f = this.files.get(path);
    if (!f) {
      f = { records: [], lines: new Map() };
      this.files.set(path, f);
    }
    const n = Number(m[1]);
    let text = l.slice(z + 1 + m[0].length);
    if (Buffer.byteLength(text, 'utf8') > MAX_RG_COLUMN_BYTES) {
      text = text.replace(/ \[\.\.\. [^\]]*\]$/, '');
      (f.long ??= new Set()).add(n);
    }
    f.lines.set(n, text);
    if (m[2] !== ':') {
      return;
    }
    const prev = f.records[f.records.length - 1];
    if (this.multiline && prev && prev.last + 1 === n) {
      prev.last = n;
    } else {
      f.records.push({ first: n, last: n });
    }
  }
}

/** Flags of every pass that reads ripgrep's lines: bounded columns, paths NUL-ended, numbered. */
function lineArgs(preview: boolean): string[] {
  return ['--null', '--with-filename', '--line-number', '--no-heading', '--color=never', `--max-columns=${MAX_RG_COLUMN_BYTES}`, ...(preview ? ['--max-columns-preview'] : [])];
}

/** ripgrep over chosen files: their records (at most `maxCount` each) and the lines around them. */
export async function rgDetails(scope: RgScope, q: Query, files: readonly string[], maxCount: number, context: number, batchChars: number): Promise<Map<string, FileHits>> {
  const collector = new LineCollector(relOut, q.multiline);
  const batches: string[][] = [];
  let cur: string[] = [];
  let len = 0;
  for (const f of files) {
    if (cur.length && len + f.length > batchChars) {
      batches.push(cur);
      cur = [];
      len = 0;
    }
    cur.push(f);
    len += f.length + 1;
  }
  if (cur.length) {
    batches.push(cur);
  }
  for (const batch of batches) {
    // Named files are searched as given: no ignore rules, no walk.
    await rg({ ...scope, target: undefined }, ['--no-config', '--no-messages', ...lineArgs(true), '--max-count', String(maxCount), '--context', String(context), ...queryArgs(q), '--', ...batch], {
      onLine: (l) => collector.line(l),
    });
  }
  return collector.files;
}

/** ripgrep over a text given on standard input (an unsaved editor buffer). */
export async function rgTextDetails(scope: RgScope, q: Query, text: string, maxCount: number | undefined, context: number): Promise<FileHits> {
  const collector = new LineCollector(() => '-', q.multiline);
  await rg({ ...scope, target: undefined }, ['--no-config', ...lineArgs(true), ...(maxCount !== undefined ? ['--max-count', String(maxCount)] : []), '--context', String(context), ...queryArgs(q), '-'], {
    onLine: (l) => collector.line(l),
    stdin: text,
  });
  return collector.files.get('-') ?? { records: [], lines: new Map() };
}

/**
 * Multiline searches count records, which `--count` does not: one pass over the matching
 * lines gives them (each printed as ripgrep's short "omitted" note, not its text). Matching
 * lines that touch are one record (see {@link LineCollector}); ripgrep prints a file's lines
 * together, so each file's count is given to `onCount` once its lines end.
 */
export async function rgMultilineCount(scope: RgScope, q: Query, keeps: readonly string[], onCount: (rel: string, n: number) => void, boundary?: string[]): Promise<void> {
  const debug = boundary !== undefined && keeps.length === 0;
  const counter = new RecordCounter(onCount);
  await withExplicitFile(scope.proc, scope.policy, (explicit) =>
    rg(scope, ['--no-messages', ...(debug ? ['--debug'] : []), ...scope.policy.ripgrepArgs(keeps, [], explicit), ...lineArgs(false).map((a) => (a.startsWith('--max-columns=') ? '--max-columns=1' : a)), ...queryArgs(q), ...targetArgs(scope)], {
      onLine: (l) => counter.line(l),
      boundary: debug ? boundary : undefined,
    }),
  );
  counter.end();
}

/** Records per file of ripgrep's standard output (as {@link LineCollector} reads it), each file's given once its lines end. */
class RecordCounter {
  private path: string | undefined;
  private records = 0;
  private last = -1;
  /** A path with a line feed in it arrives over several lines. */
  private pendingPath = '';

  constructor(private readonly onCount: (rel: string, n: number) => void) {}

  line(l: string): void {
    const z = l.indexOf('\0');
    if (z < 0) {
      this.pendingPath = l === '--' || this.pendingPath.length + l.length > 65536 ? '' : `${this.pendingPath}${l}\n`;
      return;
    }
    const path = relOut(this.pendingPath + l.slice(0, z));
    this.pendingPath = '';
    const m = /^(\d+):/.exec(l.slice(z + 1, z + 24));
    if (!m) {
      return;
    }
    if (path !== this.path) {
      this.end();
      this.path = path;
    }
    const n = Number(m[1]);
    if (n !== this.last + 1) {
      this.records++;
    }
    this.last = n;
  }

  end(): void {
    if (this.path !== undefined && this.records > 0) {
      this.onCount(this.path, this.records);
    }
    this.path = undefined;
    this.records = 0;
    this.last = -1;
  }
}
