import type { CancelSignal } from './cancel';
import { Pacer } from './pace';

/** Paths joined into one string at a time: few enough to die young, enough that the tape holds few objects. */
const PATHS_PER_PIECE = 1024;
/** Paths replayed between two looks at the clock (a look costs about as much as a cheap check). */
const PATHS_PER_LOOK = 16;

/**
 * Paths kept to be read again once a stream ends (a walk whose ignore files may come after
 * the paths they decide): joined a thousand at a time with NUL (which no path holds), so a
 * million paths are a few hundred strings of their bytes, not a million objects for the
 * collector to trace and move.
 */
export class PathTape {
  private readonly pieces: string[] = [];
  private batch: string[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(rel: string): void {
    this.batch.push(rel);
    this.count++;
    if (this.batch.length >= PATHS_PER_PIECE) {
      this.seal();
    }
  }

  /**
   * Gives each path to `each` in the order pushed, from a loop that gives the thread back
   * every slice (see {@link Pacer}): what `each` does per path may be slow.
   */
  async replay(each: (rel: string) => void, signal?: CancelSignal): Promise<void> {
    this.seal();
    const pacer = new Pacer(signal);
    let n = 0;
    for (const piece of this.pieces) {
      let start = 0;
      for (;;) {
        const end = piece.indexOf('\0', start);
        if (++n % PATHS_PER_LOOK === 0 && pacer.due()) {
          await pacer.pause();
        }
        each(end < 0 ? piece.slice(start) : piece.slice(start, end));
        if (end < 0) {
          break;
        }
        start = end + 1;
      }
    }
  }

  private seal(): void {
    if (this.batch.length) {
      this.pieces.push(this.batch.join('\0'));
      this.batch = [];
    }
  }
}
