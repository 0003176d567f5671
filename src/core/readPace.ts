import { GATHER_MS, GATHER_SAFE_BYTES } from './limits';

/**
 * When to read a child's output again, from the reads so far. A child that prints a
 * little at a time would otherwise be read once per write: ripgrep's threads print each
 * file's lines apart, so a grep of 200,000 files is 200,000 writes, and reading them one
 * by one took the reading thread 1.8 s of CPU. After a small read, the output is left to
 * gather in the pipe for as long as the child takes to print GATHER_SAFE_BYTES at the rate
 * it printed so far, and at most GATHER_MS: a pipe holds more than that, so the child
 * never waits on a full pipe (a child printing faster than that is read as it prints).
 * A read larger than the rate allowed (the child printed faster) raises the rate at once,
 * and shortens the next wait; a read after the child was idle starts the measure anew,
 * and reads on. Times are in milliseconds.
 */
/** A gap between reads over this many times the longest wait: the child was idle. */
const IDLE_MS_OVER = 4;

export class ReadPace {
  /** Bytes per millisecond, smoothed; undefined before two reads. */
  private rate: number | undefined;
  private lastAt: number | undefined;

  constructor(
    private readonly safeBytes = GATHER_SAFE_BYTES,
    private readonly maxMs = GATHER_MS,
  ) {}

  /** A read of `bytes` at `now`: how many whole milliseconds to leave the output before the next read (0: read on). */
  next(now: number, bytes: number): number {
    const last = this.lastAt;
    this.lastAt = now;
    if (last === undefined || now - last > IDLE_MS_OVER * this.maxMs) {
      // the child was idle, not slow: its next burst is read as it comes, and measured
      this.rate = undefined;
      return 0;
    }
    const r = bytes / Math.max(now - last, 0.01);
    // a faster rate is taken at once, a slower one half way
    this.rate = this.rate === undefined || r > this.rate ? r : (this.rate + r) / 2;
    const ms = Math.floor(Math.min(this.maxMs, this.safeBytes / this.rate));
    return ms >= 1 ? ms : 0;
  }
}
