import { spawn } from 'node:child_process';
import { throwIfCancelled, type CancelSignal } from '../cancel';
import { CancelledError } from '../errors';
import { CANCEL_POLL_MS } from '../limits';

export interface RunOptions {
  cwd: string;
  signal?: CancelSignal;
  /** Text written to the process's standard input, then closed. */
  stdin?: string;
  /** Called with each complete line of standard output (without its "\n"). */
  onLine?: (line: string) => void;
  /** Called with each complete line of standard error. */
  onErrLine?: (line: string) => void;
  /** Standard output bytes kept when `onLine` is not given; more kills the process. */
  maxOutputBytes?: number;
  /** Line separator of standard output. @default "\n" */
  separator?: '\n' | '\0';
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

/**
 * Runs a command to its end. Cancellation kills it: a VS Code token's event is used
 * when present, otherwise the token is polled, since the core only knows the flag.
 */
export function runProcess(command: string, args: readonly string[], opts: RunOptions): Promise<RunResult> {
  throwIfCancelled(opts.signal);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args as string[], { cwd: opts.cwd, stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], windowsHide: true });
    const sep = opts.separator ?? '\n';
    let cancelled = false;
    let overflow = false;
    let outBytes = 0;
    const outChunks: string[] = [];
    let pending = '';
    let errPending = '';
    let stderr = '';
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill();
      }
    };
    const onCancel = () => {
      cancelled = true;
      kill();
    };
    const token = opts.signal as (CancelSignal & { onCancellationRequested?: (f: () => void) => { dispose(): void } }) | undefined;
    const sub = typeof token?.onCancellationRequested === 'function' ? token.onCancellationRequested(onCancel) : undefined;
    const timer = opts.signal && !sub ? setInterval(() => opts.signal?.isCancellationRequested && onCancel(), CANCEL_POLL_MS) : undefined;
    const cleanup = () => {
      sub?.dispose();
      if (timer) {
        clearInterval(timer);
      }
    };
    const out = child.stdout!;
    const err = child.stderr!;
    out.setEncoding('utf8');
    out.on('data', (chunk: string) => {
      if (opts.onLine) {
        const text = pending + chunk;
        let start = 0;
        for (let i = text.indexOf(sep); i >= 0; i = text.indexOf(sep, start)) {
          opts.onLine(text.slice(start, i));
          start = i + 1;
        }
        pending = text.slice(start);
        return;
      }
      outBytes += chunk.length;
      if (opts.maxOutputBytes !== undefined && outBytes > opts.maxOutputBytes) {
        overflow = true;
        kill();
        return;
      }
      outChunks.push(chunk);
    });
    err.setEncoding('utf8');
    err.on('data', (chunk: string) => {
      if (opts.onErrLine) {
        const text = errPending + chunk;
        const lines = text.split('\n');
        errPending = lines.pop() ?? '';
        for (const l of lines) {
          opts.onErrLine(l);
        }
        return;
      }
      if (stderr.length < 65536) {
        stderr += chunk;
      }
    });
    if (opts.stdin !== undefined && child.stdin) {
      child.stdin.on('error', () => {
        // the process may exit before reading all input (e.g. after a fatal error)
      });
      child.stdin.end(opts.stdin);
    }
    child.on('error', (e: NodeJS.ErrnoException) => {
      cleanup();
      reject(new SpawnError(command, e.code, e.message));
    });
    child.on('close', (code) => {
      cleanup();
      if (pending && opts.onLine) {
        opts.onLine(pending);
      }
      if (errPending && opts.onErrLine) {
        opts.onErrLine(errPending);
      }
      if (cancelled) {
        reject(new CancelledError());
        return;
      }
      resolve({ code, stdout: outChunks.join(''), stderr, overflow });
    });
  });
}
