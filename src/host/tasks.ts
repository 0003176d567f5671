import * as nodePath from 'node:path';
import { Worker } from 'node:worker_threads';
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
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let idle: ReturnType<typeof setTimeout> | undefined;
  let failure: Error | undefined;
  let baseline = 0;
  const started = Date.now();

  const fail = (e: Error) => {
    failure ??= e;
    const w = worker;
    worker = undefined;
    void w?.terminate();
    for (const [id, p] of pending) {
      if (p.timer) {
        clearTimeout(p.timer);
      }
      pending.delete(id);
      p.reject(e);
    }
    stopWatching();
  };

  const signal = o.signal as (CancelSignal & { onCancellationRequested?: (f: () => void) => { dispose(): void } }) | undefined;
  let watch: ReturnType<typeof setInterval> | undefined;
  let sub: { dispose(): void } | undefined;
  const stopWatching = () => {
    if (watch) {
      clearInterval(watch);
      watch = undefined;
    }
    sub?.dispose();
    sub = undefined;
  };
  const startWatching = () => {
    if (watch) {
      return;
    }
    sub = typeof signal?.onCancellationRequested === 'function' ? signal.onCancellationRequested(() => fail(new CancelledError())) : undefined;
    watch = setInterval(() => {
      if (signal?.isCancellationRequested) {
        fail(new CancelledError());
      } else if (Date.now() - started > o.deadlineMs) {
        fail(new TaskStopped('deadline', o.deadlineMs));
      } else if (o.maxRssGrowthBytes !== undefined && process.memoryUsage.rss() - baseline > o.maxRssGrowthBytes) {
        fail(new TaskStopped('memory', o.maxRssGrowthBytes));
      }
    }, Math.min(TASK_WATCH_MS, CANCEL_POLL_MS * 2));
    watch.unref?.();
  };

  const ensureWorker = (): Worker => {
    if (worker) {
      return worker;
    }
    baseline = process.memoryUsage.rss();
    const w = new Worker(WORKER_SCRIPT, {
      resourceLimits: { maxOldGenerationSizeMb: Math.max(64, Math.round(o.maxMemoryBytes / (1024 * 1024))), maxYoungGenerationSizeMb: 32 },
    });
    w.on('message', (m: Reply) => {
      const p = pending.get(m.id);
      if (!p) {
        return;
      }
      pending.delete(m.id);
      if (p.timer) {
        clearTimeout(p.timer);
      }
      if (m.ok) {
        p.resolve(m.result);
      } else {
        p.reject(m.error.code ? new ToolError(m.error.code, m.error.message) : new Error(m.error.message));
      }
      armIdle();
    });
    w.on('error', (e: Error & { code?: string }) => fail(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new TaskStopped('memory', o.maxMemoryBytes) : e));
    w.on('exit', () => {
      if (worker === w) {
        worker = undefined;
        if (pending.size) {
          fail(new Error('the task thread ended unexpectedly'));
        }
        stopWatching();
      }
    });
    w.unref();
    worker = w;
    startWatching();
    return w;
  };

  const armIdle = () => {
    // An idle thread must not keep the process alive (the CLI exits when its work is done).
    if (pending.size === 0) {
      worker?.unref();
    }
    if (idle) {
      clearTimeout(idle);
      idle = undefined;
    }
    if (o.idleMs !== undefined && pending.size === 0) {
      idle = setTimeout(() => {
        if (pending.size === 0 && worker) {
          const w = worker;
          worker = undefined;
          stopWatching();
          void w.terminate();
        }
      }, o.idleMs);
      idle.unref?.();
    }
  };

  return {
    call<O>(request: TaskRequest): Promise<O> {
      if (failure) {
        return Promise.reject(failure);
      }
      if (signal?.isCancellationRequested) {
        return Promise.reject(new CancelledError());
      }
      if (idle) {
        clearTimeout(idle);
        idle = undefined;
      }
      const w = ensureWorker();
      const id = nextId++;
      return new Promise<O>((resolve, reject) => {
        const p: Pending = { resolve: resolve as (v: unknown) => void, reject };
        if (o.requestMs !== undefined) {
          p.timer = setTimeout(() => fail(new TaskStopped('deadline', o.requestMs!)), o.requestMs);
        }
        pending.set(id, p);
        w.ref();
        w.postMessage({ id, request });
      });
    },
    async close() {
      if (idle) {
        clearTimeout(idle);
      }
      stopWatching();
      const w = worker;
      worker = undefined;
      await w?.terminate();
    },
  };
}
