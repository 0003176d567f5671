import { PROC_FD_PATHS } from './procfs';
import { WINDOWS_PATHS } from './volume';
import { accessSync, constants as fsConstants, mkdtempSync, readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as nodePath from 'node:path';
import { throwIfCancelled, type CancelSignal } from '../core/cancel';
import { CancelledError } from '../core/errors';
import { CANCEL_POLL_MS, CHILD_WATCH_MS, MAX_OUTPUT_LINE_CHARS, STREAM_TURN_MS } from '../core/limits';
import { ReadPace } from '../core/readPace';
import { nodeChildProcess, nodeOs } from './lazyModules';
import { startTask } from './tasks';
import { findProgram, ProcessStopped, SpawnError, type ProcessHost, type RunOptions, type RunResult } from '../core/process';

/**
 * Splits a stream of text into lines, each chunk scanned once: a gigabyte-long line
 * costs one pass, and keeps only its first `maxChars` characters.
 */
export class LineSplitter {
  private parts: string[] = [];
  private kept = 0;

  constructor(
    private readonly sep: string,
    private readonly maxChars: number,
    private readonly onLine: (line: string) => void,
  ) {}

  /** Hands on the lines the chunk ends; their number. */
  push(chunk: string): number {
    let start = 0;
    let lines = 0;
    for (let i = chunk.indexOf(this.sep); i >= 0; i = chunk.indexOf(this.sep, start)) {
      lines++;
      if (this.parts.length === 0 && i - start <= this.maxChars) {
        // a whole line in this chunk, the common case: no pieces to join
        this.onLine(chunk.slice(start, i));
      } else {
        this.keep(chunk.slice(start, i));
        this.flush();
      }
      start = i + 1;
    }
    if (start < chunk.length) {
      this.keep(chunk.slice(start));
    }
    return lines;
  }

  /** The last line, when the stream did not end with a separator. */
  end(): void {
    if (this.parts.length) {
      this.flush();
    }
  }

  private keep(piece: string): void {
    const room = this.maxChars - this.kept;
    if (room > 0 && piece) {
      const p = piece.length > room ? piece.slice(0, room) : piece;
      this.parts.push(p);
      this.kept += p.length;
    } else if (this.parts.length === 0) {
      this.parts.push('');
    }
  }

  private flush(): void {
    const line = this.parts.length === 1 ? this.parts[0] : this.parts.join('');
    this.parts = [];
    this.kept = 0;
    this.onLine(line);
  }
}

/** What Node's pipe of a child's output holds (its libuv stream), as far as gatherSmallReads uses it. */
interface PipeHandle {
  /** Node's own flag: whether it has the stream read (Node reads again where it finds this false). */
  reading?: boolean;
  readStop?: () => number;
  readStart?: () => number;
}

/**
 * Reads a child's output no more often than its rate needs (see ReadPace): call `after`
 * with each chunk's length in bytes, and the lines it ended where they are counted; `stop`
 * once the stream is done.
 *
 * Node has no public way to stop reading a pipe (pausing the stream leaves it reading into
 * its buffer), so this stops its handle as Node itself does, leaving Node's flag `reading`
 * set so that Node neither starts it again nor counts it stopped. Where the handle is not
 * as described, or Node stopped it itself (its buffer was full), nothing is done.
 */
export function gatherSmallReads(stream: object, pace = new ReadPace(), now: () => number = () => performance.now()): { after(chunkBytes: number, lines?: number): void; stop(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const handle = (): PipeHandle | undefined => {
    const h = (stream as { _handle?: PipeHandle | null })._handle;
    return h && typeof h.readStop === 'function' && typeof h.readStart === 'function' ? h : undefined;
  };
  const restart = () => {
    timer = undefined;
    const h = handle();
    // Node's flag still set: the handle is stopped by this alone
    if (h?.reading === true) {
      h.readStart!();
    }
  };
  return {
    after(chunkBytes: number, lines?: number) {
      if (done || timer !== undefined) {
        return;
      }
      const ms = pace.next(now(), chunkBytes, lines);
      const h = ms > 0 ? handle() : undefined;
      if (h?.reading === true && h.readStop!() === 0) {
        timer = setTimeout(restart, ms);
      }
    },
    stop() {
      done = true;
      if (timer !== undefined) {
        // a stream that outlives its child's run (an error without a close) is not left stopped
        clearTimeout(timer);
        restart();
      }
    },
  };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

/** What Linux says of a running process: its own memory, its CPU time, and what it has read. */
function procSample(pid: number): { anonBytes: number; cpuMs: number; io: string } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const anon = /^RssAnon:\s+(\d+) kB/m.exec(status);
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    let io = '';
    try {
      io = readFileSync(`/proc/${pid}/io`, 'latin1');
    } catch {
      // not readable here: CPU time and output still tell progress
    }
    const rchar = /^rchar: (\d+)/m.exec(io)?.[1] ?? '';
    const syscr = /^syscr: (\d+)/m.exec(io)?.[1] ?? '';
    return { anonBytes: anon ? Number(anon[1]) * 1024 : 0, cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ, io: `${rchar}:${syscr}` };
  } catch {
    return undefined;
  }
}

/**
 * Calls `onCancel` once the signal is set: through a VS Code token's event when it has
 * one, otherwise by polling, since the core only knows the flag. Returns the stop.
 */
function watchCancellation(signal: CancelSignal | undefined, onCancel: () => void): () => void {
  const token = signal as (CancelSignal & { onCancellationRequested?: (f: () => void) => { dispose(): void } }) | undefined;
  const sub = typeof token?.onCancellationRequested === 'function' ? token.onCancellationRequested(onCancel) : undefined;
  const timer = signal && !sub ? setInterval(() => signal.isCancellationRequested && onCancel(), CANCEL_POLL_MS) : undefined;
  return () => {
    sub?.dispose();
    if (timer) {
      clearInterval(timer);
    }
  };
}

/**
 * Memory and progress of a running child, from /proc, every CHILD_WATCH_MS: where there
 * is none, the deadline alone bounds the run. `output` names how much the child printed
 * so far; `stop` kills it for the limit it passed.
 */
function watchChild(pid: number | undefined, opts: RunOptions, output: () => string, stop: (reason: ProcessStopped['reason'], limit: number) => void): ReturnType<typeof setInterval> | undefined {
  if (!PROC_FD_PATHS || pid === undefined || (opts.maxMemoryBytes === undefined && opts.stallMs === undefined)) {
    return undefined;
  }
  let lastIo = '';
  let progressAt = Date.now();
  let cpuAt = 0;
  let tickAt = Date.now();
  return setInterval(() => {
    const now = Date.now();
    const sample = procSample(pid);
    const late = now - tickAt > 4 * CHILD_WATCH_MS;
    tickAt = now;
    if (!sample) {
      return;
    }
    if (opts.maxMemoryBytes !== undefined && sample.anonBytes > opts.maxMemoryBytes) {
      stop('memory', opts.maxMemoryBytes);
      return;
    }
    const io = `${sample.io}:${output()}`;
    // Progress: it read or printed something, or computed for a fair share of the
    // time (a thread blocked on a FIFO leaves others idling at a percent or two).
    // A late tick means this process was busy: the child may only have waited on us.
    if (io !== lastIo || late || (sample.cpuMs - cpuAt) * 4 > now - progressAt) {
      lastIo = io;
      progressAt = now;
      cpuAt = sample.cpuMs;
    } else if (opts.stallMs !== undefined && now - progressAt > opts.stallMs) {
      stop('stall', opts.stallMs);
    }
  }, CHILD_WATCH_MS);
}

/**
 * Runs a command to its end. Cancellation kills it: a VS Code token's event is used
 * when present, otherwise the token is polled, since the core only knows the flag. The
 * limits of `opts` (memory, progress, time) kill it too, and the call rejects with
 * ProcessStopped saying which.
 */
export function runProcess(command: string, args: readonly string[], opts: RunOptions): Promise<RunResult> {
  throwIfCancelled(opts.signal);
  return new Promise((resolve, reject) => {
    const env = opts.env ? withEnv(process.env, opts.env) : process.env;
    const program = programPath(command, env);
    if (!program) {
      reject(new SpawnError(command, 'ENOENT', `${command} was not found in a folder of PATH given as an absolute path`));
      return;
    }
    const child = nodeChildProcess().spawn(program, args as string[], { cwd: opts.cwd, env, stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], windowsHide: true });
    const sep = opts.separator ?? '\n';
    const maxLine = opts.maxLineChars ?? MAX_OUTPUT_LINE_CHARS;
    let cancelled = false;
    let stopped: ProcessStopped | undefined;
    let overflow = false;
    let outBytes = 0;
    const outChunks: string[] = [];
    let stderr = '';
    const outLines = opts.onLine ? new LineSplitter(sep, maxLine, opts.onLine) : undefined;
    const errLines = opts.onErrLine ? new LineSplitter('\n', maxLine, opts.onErrLine) : undefined;
    const kill = (signal: NodeJS.Signals = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
      }
    };
    const onCancel = () => {
      cancelled = true;
      kill();
    };
    const stop = (reason: ProcessStopped['reason'], limit: number) => {
      stopped ??= new ProcessStopped(command, reason, limit);
      kill('SIGKILL');
    };
    const stopCancelWatch = watchCancellation(opts.signal, onCancel);
    const deadline = opts.deadlineMs !== undefined ? setTimeout(() => stop('deadline', opts.deadlineMs!), opts.deadlineMs) : undefined;
    const watch = watchChild(child.pid, opts, () => `${outBytes}:${stderr.length}`, stop);
    // a reader of lines or bytes is there for a long run's output: its small reads are gathered
    const gather = outLines || opts.onBytes ? gatherSmallReads(child.stdout!) : undefined;
    const cleanup = () => {
      gather?.stop();
      stopCancelWatch();
      if (watch) {
        clearInterval(watch);
      }
      if (deadline) {
        clearTimeout(deadline);
      }
    };
    const out = child.stdout!;
    const err = child.stderr!;
    const onBytes = opts.onBytes;
    if (!onBytes) {
      out.setEncoding('utf8');
    }
    // A pipe read in one turn of the thread can bring megabytes (libuv reads on while data is
    // there): past STREAM_TURN_MS of lines handed on, the stream pauses until the next turn.
    let turnStart: number | undefined;
    out.on('data', (chunk: string | Buffer) => {
      outBytes += chunk.length;
      if (outLines || onBytes) {
        if (turnStart === undefined) {
          turnStart = performance.now();
          setImmediate(() => {
            turnStart = undefined;
          });
        }
        if (onBytes) {
          // a plain view: the reader then sees one kind of array, whether a path came whole in a chunk or across two
          const b = chunk as Buffer;
          onBytes(new Uint8Array(b.buffer, b.byteOffset, b.length));
          gather!.after(b.length);
        } else {
          const lines = outLines!.push(chunk as string);
          gather!.after(Buffer.byteLength(chunk as string), lines);
        }
        if (performance.now() - turnStart >= STREAM_TURN_MS && !out.isPaused()) {
          out.pause();
          setImmediate(() => out.resume());
        }
        return;
      }
      if (opts.maxOutputBytes !== undefined && outBytes > opts.maxOutputBytes) {
        overflow = true;
        kill();
        return;
      }
      outChunks.push(chunk as string);
    });
    err.setEncoding('utf8');
    err.on('data', (chunk: string) => {
      if (errLines) {
        errLines.push(chunk);
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
      outLines?.end();
      errLines?.end();
      if (cancelled) {
        reject(new CancelledError());
        return;
      }
      if (stopped) {
        reject(stopped);
        return;
      }
      resolve({ code, stdout: outChunks.join(''), stderr, overflow });
    });
  });
}

/**
 * The file a command runs, decided here rather than by the system: a bare name is looked
 * up in PATH's absolute folders only (see findProgram), a relative path is taken from
 * this process's folder. Left to the system, both would resolve in the child's folder,
 * the workspace, where a repository can put a program of its own.
 */
function programPath(command: string, env: NodeJS.ProcessEnv): string | undefined {
  if (nodePath.isAbsolute(command)) {
    return command;
  }
  if (/[\\/]/.test(command)) {
    return nodePath.resolve(command);
  }
  return findProgram(command, { env, isExecutable });
}

function withEnv(base: NodeJS.ProcessEnv, changes: Readonly<Record<string, string | undefined>>): NodeJS.ProcessEnv {
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
    accessSync(p, WINDOWS_PATHS ? fsConstants.F_OK : fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Programs run on this machine, from the editor's extension host (`readerShared`) or a process of the tools' own (the CLI). */
function nodeProcesses(readerShared: boolean): ProcessHost {
  return {
    run: runProcess,
    startTask,
    async tempFile(name, text) {
      const dir = mkdtempSync(nodePath.join(nodeOs().tmpdir(), 'aft-'));
      const path = nodePath.join(dir, name);
      await fs.writeFile(path, text, { mode: 0o600 });
      return { path, dispose: () => fs.rm(dir, { recursive: true, force: true }) };
    },
    isExecutable,
    get env() {
      return process.env;
    },
    get cores() {
      return nodeOs().availableParallelism();
    },
    readerShared,
  };
}

/** As the extension host runs them: its thread is every extension's. */
export const NODE_PROCESSES = nodeProcesses(true);

/** As the CLI and its MCP server run them, in a process of their own. */
export const OWN_PROCESSES = nodeProcesses(false);
