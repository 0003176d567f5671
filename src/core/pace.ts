import { throwIfCancelled, type CancelSignal } from './cancel';
import { PACE_SLICE_MS } from './limits';

/**
 * Gives the thread back during a long loop of synchronous work (matching thousands of
 * paths against ignore rules): the editor's other work runs, and a cancellation is seen.
 * A loop checks {@link due} (cheap) and, when it is, awaits {@link pause}.
 */
export class Pacer {
  private last = performance.now();

  constructor(
    private readonly signal?: CancelSignal,
    private readonly sliceMs: number = PACE_SLICE_MS,
  ) {}

  /** Whether the loop has held the thread for a slice. */
  due(): boolean {
    return performance.now() - this.last >= this.sliceMs;
  }

  /** Lets pending events run, then throws CancelledError if the call was cancelled meanwhile. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = performance.now();
    throwIfCancelled(this.signal);
  }

  /** {@link pause} when {@link due}. */
  async tick(): Promise<void> {
    if (this.due()) {
      await this.pause();
    }
  }
}

/**
 * Work written as a generator that yields now and then (each `yield` a point where the
 * thread may be given back), run to its end at once: for small inputs and tests.
 */
export function drain<T>(g: Generator<void, T>): T {
  for (;;) {
    const r = g.next();
    if (r.done) {
      return r.value;
    }
  }
}

/** Work written as such a generator, run pausing (see Pacer) whenever it has held the thread for a slice. */
export async function paced<T>(g: Generator<void, T>, signal?: CancelSignal): Promise<T> {
  const pacer = new Pacer(signal);
  for (;;) {
    const r = g.next();
    if (r.done) {
      return r.value;
    }
    await pacer.tick();
  }
}
