import type { CancelSignal } from './cancel';

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
  /** Called with each complete line of standard error. */
  onErrLine?: (line: string) => void;
  /** Standard output bytes kept when `onLine` is not given; more kills the process. */
  maxOutputBytes?: number;
  /** Line separator of standard output. @default "\n" */
  separator?: '\n' | '\0';
  /** Variables added to (or, when undefined, removed from) the inherited environment. */
  env?: Record<string, string | undefined>;
}

export interface RunResult {
  code: number | null;
  /** Standard output when no `onLine` was given. */
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

export interface ProcessHost {
  /** Runs a command to its end; cancellation kills it (and rejects with CancelledError). */
  run(command: string, args: readonly string[], opts: RunOptions): Promise<RunResult>;
  /** A private temporary file holding `text`; `dispose` removes it. */
  tempFile(name: string, text: string): Promise<{ path: string; dispose(): Promise<void> }>;
  /** Whether a file exists and may be executed. */
  isExecutable(path: string): boolean;
  /** The environment programs are looked up in (PATH, PATHEXT, overrides). */
  readonly env: Readonly<Record<string, string | undefined>>;
}
