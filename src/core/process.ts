import * as nodePath from 'node:path';
import type { CancelSignal } from './cancel';
import { ToolError } from './errors';
import { formatBytes } from './format';

/**
 * Running programs is the host's business (`src/host/process.ts`); the core only
 * describes what it needs, so it stays free of `child_process` and `node:fs`.
 */
export interface RunOptions {
  cwd: string;
  signal?: CancelSignal;
  /** Text written to the process's standard input, then closed. */
  stdin?: string;
  /** Called with each complete line of standard output (without its separator). */
  onLine?: (line: string) => void;
  /** Called with each chunk of standard output as it comes, undecoded (instead of `onLine`). */
  onBytes?: (chunk: Uint8Array) => void;
  /** Called with each complete line of standard error. */
  onErrLine?: (line: string) => void;
  /** Standard output bytes kept when neither `onLine` nor `onBytes` is given; more kills the process. */
  maxOutputBytes?: number;
  /** Line separator of standard output. @default "\n" */
  separator?: '\n' | '\0';
  /** Variables added to (or, when undefined, removed from) the inherited environment. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Stops the process once its own memory (resident, not file-backed) passes this
   * many bytes: a program fed an endless file (a link to /dev/zero) grows without end.
   * Checked where the system tells it (Linux).
   */
  maxMemoryBytes?: number;
  /**
   * Stops the process once it has used no CPU, read nothing and printed nothing for this
   * many milliseconds: it waits on something that never comes (a FIFO). Linux.
   */
  stallMs?: number;
  /** Stops the process after this many milliseconds, on every system. */
  deadlineMs?: number;
  /** Characters of one output line kept; the rest of a longer line is dropped. @default MAX_OUTPUT_LINE_CHARS */
  maxLineChars?: number;
}

/** A process stopped by one of its limits (see RunOptions); `limit` is in bytes or milliseconds. */
export class ProcessStopped extends Error {
  constructor(
    readonly command: string,
    readonly reason: 'memory' | 'stall' | 'deadline',
    readonly limit: number,
  ) {
    super(`${command} was stopped (${reason})`);
  }
}

export interface RunResult {
  code: number | null;
  /** Standard output when neither `onLine` nor `onBytes` was given. */
  stdout: string;
  /** The first 64 KiB of standard error not given to `onErrLine`. */
  stderr: string;
  /** The process was stopped because its output passed `maxOutputBytes`. */
  overflow: boolean;
}

/** A child process failed to start (missing executable, no permission). */
export class SpawnError extends Error {
  constructor(
    readonly command: string,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** A request to the host's task runner; each kind has its answer (see TaskAnswer). */
export type TaskRequest =
  /** The match records of one text (findRecords), under a compiled regex's source and flags. */
  | { task: 'regex'; source: string; flags: string; acrossLines: boolean; text: string }
  /** Opens a PDF in the task; answers its page count. */
  | { task: 'pdf-open'; bytes: Uint8Array; where: string }
  /** The text of one page of the PDF the task opened. */
  | { task: 'pdf-page'; n: number };

export interface TaskOptions {
  /** Milliseconds the session may run in all, from its start. */
  deadlineMs: number;
  /** Milliseconds one request may take. @default no limit but the deadline */
  requestMs?: number;
  /** Bytes of heap the task's thread may take. */
  maxMemoryBytes: number;
  /**
   * Bytes the whole process's resident memory may grow by while the task runs, for the
   * buffers a heap limit does not count; only for a task the calling thread waits on.
   */
  maxRssGrowthBytes?: number;
  /** Stops the task's thread after this many idle milliseconds; the next request starts it again. @default never */
  idleMs?: number;
  signal?: CancelSignal;
}

/** Work run apart from the calling thread, where it can be stopped while it computes. */
export interface TaskSession {
  call<O>(request: TaskRequest): Promise<O>;
  close(): Promise<void>;
}

/** A task stopped by a limit of its TaskOptions; `limit` is in bytes or milliseconds. */
export class TaskStopped extends Error {
  constructor(
    readonly reason: 'memory' | 'deadline',
    readonly limit: number,
  ) {
    super(`the task was stopped (${reason})`);
  }
}

export interface ProcessHost {
  /** Runs a command to its end; cancellation kills it (and rejects with CancelledError). */
  run(command: string, args: readonly string[], opts: RunOptions): Promise<RunResult>;
  /** A private temporary file holding `text`; `dispose` removes it. */
  tempFile(name: string, text: string): Promise<{ path: string; dispose(): Promise<void> }>;
  /**
   * A session of work run off the calling thread (a worker), stoppable at any point:
   * a regex that backtracks, a PDF whose streams expand without end. Its limits reject
   * pending calls with TaskStopped, cancellation with CancelledError.
   */
  startTask(options: TaskOptions): TaskSession;
  /** Whether a file exists and may be executed. */
  isExecutable(path: string): boolean;
  /** The environment programs are looked up in (PATH, PATHEXT, overrides). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Processors this process may use, where known: a program that uses all of them is given one fewer (see ripgrep's `--threads`). */
  readonly cores?: number;
  /**
   * Whether the thread that reads programs' output is one that other work waits on (an
   * editor's extension host, shared by every extension): a program that could outrun it is
   * then given one processor fewer. False in a process of its own (the CLI, its MCP server). @default true
   */
  readonly readerShared?: boolean;
}

/**
 * Where a program named without a folder (`git`, `rg`) is: the first executable of that
 * name in a folder of PATH that is absolute. A relative entry (`.`, `bin`,
 * `node_modules/.bin`) names a folder of whatever folder the program runs in, and the
 * tools run programs in the workspace: a repository would put its own `git` first. The
 * current folder itself is never searched either, as Windows' own lookup would. On
 * Windows the extensions of PATHEXT are tried.
 */
export function findProgram(name: string, proc: Pick<ProcessHost, 'env' | 'isExecutable'>, path: Pick<typeof nodePath, 'isAbsolute' | 'join' | 'delimiter'> = nodePath): string | undefined {
  const env = proc.env;
  const windows = path.delimiter === ';';
  const exts = windows ? (env.PATHEXT ?? '.EXE').split(';').filter(Boolean).map((e) => e.toLowerCase()) : [''];
  for (const dir of (env.PATH ?? (windows ? env.Path : undefined) ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) {
      continue;
    }
    for (const ext of exts) {
      const p = path.join(dir, `${name}${ext}`);
      if (proc.isExecutable(p)) {
        return p;
      }
    }
  }
  return undefined;
}

/** A search or listing program stopped by its limits, as the model reads it: what happened, and how to narrow the call. */
export function stoppedError(what: string, e: ProcessStopped): ToolError {
  const narrow = 'Narrow the search with path or include, or leave the file out with the ignore settings.';
  switch (e.reason) {
    case 'memory':
      return new ToolError('too-large', `${what} was stopped: it needed more than ${formatBytes(e.limit)} of memory. A file in the searched folders has an extremely long line, or an ignore file never ends (a link to /dev/zero). ${narrow}`);
    case 'stall':
      return new ToolError('io', `${what} was stopped: it made no progress for ${e.limit / 1000} seconds, as happens when it waits on a FIFO or device in the searched folders (an ignore file that is a pipe). ${narrow}`);
    default:
      // a walk of a large tree on a cold disk cache: no one file is to blame
      return new ToolError('io', `${what} was stopped after ${e.limit / 1000} seconds: the searched folders hold more than it read in that time. Narrow the search with path or include, or leave large folders out with the ignore settings.`);
  }
}
