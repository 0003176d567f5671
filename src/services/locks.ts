import type { CancelSignal } from '../core/cancel';
import { CancelledError } from '../core/errors';

/** How often a call waiting for a file checks for cancellation, when its signal cannot announce it. */
const CANCEL_POLL_MS = 100;

type Announcing = CancelSignal & { onCancellationRequested(listener: () => void): { dispose(): void } };

/** Resolves true when `signal` is cancelled before `turn` comes, false when the turn comes first. */
function turnOrCancel(turn: Promise<void>, signal: CancelSignal): Promise<boolean> {
  if (signal.isCancellationRequested) {
    return Promise.resolve(true);
  }
  return new Promise((resolve) => {
    let settled = false;
    const announcing = typeof (signal as Partial<Announcing>).onCancellationRequested === 'function';
    const settle = (cancelled: boolean) => {
      if (!settled) {
        settled = true;
        sub?.dispose();
        clearInterval(timer);
        resolve(cancelled);
      }
    };
    const sub = announcing ? (signal as Announcing).onCancellationRequested(() => settle(true)) : undefined;
    const timer = announcing ? undefined : setInterval(() => signal.isCancellationRequested && settle(true), CANCEL_POLL_MS);
    void turn.then(() => settle(false));
  });
}

/**
 * One queue per file: calls that change the same file run one after another, in the
 * order they arrived, so none is lost and each sees the text the previous one left.
 * A call that needs several files takes their locks in path order, so two calls cannot
 * wait on each other. A call cancelled while it waits leaves the queue at once (the calls
 * behind it keep their order).
 */
export class FileLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async withLocks<T>(paths: readonly string[], work: () => Promise<T>, signal?: CancelSignal): Promise<T> {
    const keys = [...new Set(paths)].sort();
    const releases: (() => void)[] = [];
    try {
      for (const key of keys) {
        releases.push(await this.acquire(key, signal));
      }
      return await work();
    } finally {
      for (const release of releases.reverse()) {
        release();
      }
    }
  }

  /** Whether a call holds or waits for this file's lock. */
  isBusy(path: string): boolean {
    return this.tails.has(path);
  }

  private async acquire(key: string, signal: CancelSignal | undefined): Promise<() => void> {
    const previous = this.tails.get(key);
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = (previous ?? Promise.resolve()).then(() => mine);
    this.tails.set(key, tail);
    const done = () => {
      release();
      if (this.tails.get(key) === tail) {
        this.tails.delete(key);
      }
    };
    if (!previous) {
      return done;
    }
    if (signal && (await turnOrCancel(previous, signal))) {
      // The place is given up once the call before is done, so the ones behind still wait for that call.
      void previous.then(done);
      throw new CancelledError();
    }
    await previous;
    return done;
  }
}
