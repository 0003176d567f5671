import * as nodePath from 'node:path';
import type { Worker } from 'node:worker_threads';
import { nodeWorkerThreads } from './lazyModules';
import type { CancelSignal } from '../core/cancel';
import { CancelledError, ToolError, type ToolErrorCode } from '../core/errors';
import { CANCEL_POLL_MS, TASK_WATCH_MS } from '../core/limits';
import { TaskStopped, type TaskOptions, type TaskRequest, type TaskSession } from '../core/process';

/** The worker script: next to this module, bundled (dist/taskWorker.js) or compiled (out/src/host/taskWorker.js). */
const WORKER_SCRIPT = nodePath.join(__dirname, 'taskWorker.js');

type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: { code?: ToolErrorCode; message: string } };

interface Pending {
  resolve(v: unknown): void;
  reject(e: unknown): void;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Tasks on a worker thread. The session's limits are kept from here, the thread that
 * waits: a deadline, a time per request, and memory: the worker's heap limit, and when
 * asked the growth of the process's resident memory, which also counts the buffers a
 * heap limit does not (a PDF stream inflating). Any of them, or cancellation, terminates the worker, which
 * stops it even inside a regex match; the next call starts a fresh one.
 */
export function startTask(o: TaskOptions): TaskSession {
  return new TaskThread(o);
}

type WatchedSignal = CancelSignal & { onCancellationRequested?: (f: () => void) => { dispose(): void } };

/** One session's worker thread, its pending requests, and the watch over its limits. */
class TaskThread implements TaskSession {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private idle: ReturnType<typeof setTimeout> | undefined;
  private failure: Error | undefined;
  private baseline = 0;
  private readonly started = Date.now();
  private readonly signal: WatchedSignal | undefined;
  private watch: ReturnType<typeof setInterval> | undefined;
  private sub: { dispose(): void } | undefined;

  constructor(private readonly o: TaskOptions) {
    this.signal = o.signal as WatchedSignal | undefined;
  }

  /** Stops everything at the first failure: the thread ends and every pending request fails with `e`. */
  private fail(e: Error): void {
    this.failure ??= e;
    const w = this.worker;
    this.worker = undefined;
    void w?.terminate();
    for (const [id, p] of this.pending) {
      if (p.timer) {
        clearTimeout(p.timer);
      }
      this.pending.delete(id);
      p.reject(e);
    }
    this.stopWatching();
  }

  private stopWatching(): void {
    if (this.watch) {
      clearInterval(this.watch);
      this.watch = undefined;
    }
    this.sub?.dispose();
    this.sub = undefined;
  }

  /** Cancellation, the deadline and resident memory, checked from this thread while the worker runs. */
  private startWatching(): void {
    if (this.watch) {
      return;
    }
    const { o, signal } = this;
    this.sub = typeof signal?.onCancellationRequested === 'function' ? signal.onCancellationRequested(() => this.fail(new CancelledError())) : undefined;
    this.watch = setInterval(() => {
      if (signal?.isCancellationRequested) {
        this.fail(new CancelledError());
      } else if (Date.now() - this.started > o.deadlineMs) {
        this.fail(new TaskStopped('deadline', o.deadlineMs));
      } else if (o.maxRssGrowthBytes !== undefined && process.memoryUsage.rss() - this.baseline > o.maxRssGrowthBytes) {
        this.fail(new TaskStopped('memory', o.maxRssGrowthBytes));
      }
    }, Math.min(TASK_WATCH_MS, CANCEL_POLL_MS * 2));
    this.watch.unref?.();
  }

  private ensureWorker(): Worker {
    if (this.worker) {
      return this.worker;
    }
    const o = this.o;
    this.baseline = process.memoryUsage.rss();
    const w = new (nodeWorkerThreads().Worker)(WORKER_SCRIPT, {
      resourceLimits: { maxOldGenerationSizeMb: Math.max(64, Math.round(o.maxMemoryBytes / (1024 * 1024))), maxYoungGenerationSizeMb: 32 },
    });
    w.on('message', (m: Reply) => this.answered(m));
    w.on('error', (e: Error & { code?: string }) => this.fail(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new TaskStopped('memory', o.maxMemoryBytes) : e));
    w.on('exit', () => {
      if (this.worker === w) {
        this.worker = undefined;
        if (this.pending.size) {
          this.fail(new Error('the task thread ended unexpectedly'));
        }
        this.stopWatching();
      }
    });
    w.unref();
    this.worker = w;
    this.startWatching();
    return w;
  }

  /** A reply from the worker settles its request. */
  private answered(m: Reply): void {
    const p = this.pending.get(m.id);
    if (!p) {
      return;
    }
    this.pending.delete(m.id);
    if (p.timer) {
      clearTimeout(p.timer);
    }
    if (m.ok) {
      p.resolve(m.result);
    } else {
      p.reject(m.error.code ? new ToolError(m.error.code, m.error.message) : new Error(m.error.message));
    }
    this.armIdle();
  }

  private armIdle(): void {
    // An idle thread must not keep the process alive (the CLI exits when its work is done).
    if (this.pending.size === 0) {
      this.worker?.unref();
    }
    if (this.idle) {
      clearTimeout(this.idle);
      this.idle = undefined;
    }
    if (this.o.idleMs !== undefined && this.pending.size === 0) {
      this.idle = setTimeout(() => {
        if (this.pending.size === 0 && this.worker) {
          const w = this.worker;
          this.worker = undefined;
          this.stopWatching();
          void w.terminate();
        }
      }, this.o.idleMs);
      this.idle.unref?.();
    }
  }

  call<O>(request: TaskRequest): Promise<O> {
    if (this.failure) {
      return Promise.reject(this.failure);
    }
    if (this.signal?.isCancellationRequested) {
      return Promise.reject(new CancelledError());
    }
    if (this.idle) {
      clearTimeout(this.idle);
      this.idle = undefined;
    }
    const w = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<O>((resolve, reject) => {
      const p: Pending = { resolve: resolve as (v: unknown) => void, reject };
      if (this.o.requestMs !== undefined) {
        const ms = this.o.requestMs;
        p.timer = setTimeout(() => this.fail(new TaskStopped('deadline', ms)), ms);
      }
      this.pending.set(id, p);
      w.ref();
      w.postMessage({ id, request });
    });
  }

  async close(): Promise<void> {
    if (this.idle) {
      clearTimeout(this.idle);
    }
    this.stopWatching();
    const w = this.worker;
    this.worker = undefined;
    await w?.terminate();
  }
}
