import { spawn } from 'node:child_process';
import { accessSync, constants as fsConstants, mkdtempSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { throwIfCancelled, type CancelSignal } from '../core/cancel';
import { CancelledError } from '../core/errors';
import { CANCEL_POLL_MS } from '../core/limits';
import { SpawnError, type ProcessHost, type RunOptions, type RunResult } from '../core/process';

/**
 * Runs a command to its end. Cancellation kills it: a VS Code token's event is used
 * when present, otherwise the token is polled, since the core only knows the flag.
 */
export function runProcess(command: string, args: readonly string[], opts: RunOptions): Promise<RunResult> {
  throwIfCancelled(opts.signal);
  return new Promise((resolve, reject) => {
    const env = opts.env ? withEnv(process.env, opts.env) : process.env;
    const child = spawn(command, args as string[], { cwd: opts.cwd, env, stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], windowsHide: true });
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

function withEnv(base: NodeJS.ProcessEnv, changes: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env = { ...base };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) {
      delete env[k];
    } else {
      env[k] = v;
    }
  }
  return env;
}

function isExecutable(p: string): boolean {
  try {
    accessSync(p, process.platform === 'win32' ? fsConstants.F_OK : fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Programs run on this machine, as the extension host's or the CLI's own process. */
export const NODE_PROCESSES: ProcessHost = {
  run: runProcess,
  async tempFile(name, text) {
    const dir = mkdtempSync(nodePath.join(os.tmpdir(), 'aft-'));
    const path = nodePath.join(dir, name);
    await fs.writeFile(path, text, { mode: 0o600 });
    return { path, dispose: () => fs.rm(dir, { recursive: true, force: true }) };
  },
  isExecutable,
  get env() {
    return process.env;
  },
};
