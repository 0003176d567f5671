import { GATHER_MS, GATHER_SAFE_BYTES, GATHER_SAFE_RECORDS } from './limits';

/** A gap between reads over this many times the longest wait: the child was idle. */
const IDLE_MS_OVER = 4;

/**
 * When to read a child's output again, from the reads so far. A child that prints a
 * little at a time would otherwise be read once per write: ripgrep's threads print each
 * file's lines apart, so a grep of 200,000 files is 200,000 writes, and reading them one
 * by one took the reading thread 1.8 s of CPU. After a small read, the output is left to
 * gather in the pipe for as long as the child takes to print GATHER_SAFE_BYTES, or
 * GATHER_SAFE_RECORDS lines where the reader counts them, at the rate it printed, and at
 * most GATHER_MS: a pipe holds more than that, so the child does not wait on a full pipe
 * (a child printing faster than that is read as it prints). A socket pair holds a number
 * of writes rather than of bytes, hence the lines: each write is one line or more.
 *
 * The rate is measured only on reads that came as soon as the output did. A read after a
 * wait may have found the pipe full, and would make a child that waited on it look slow:
 * it is followed by a read as soon as more comes, which measures the rate afresh. A
 * faster rate is taken at once. A read after the child was idle reads on and measures
 * anew. Times are in milliseconds.
 */
export class ReadPace {
  /** Bytes, and lines where counted, per millisecond, smoothed; undefined until measured. */
  private rate: number | undefined;
  private recordRate: number | undefined;
  private lastAt: number | undefined;
  /** Whether the last answer was a wait. */
  private waited = false;

  constructor(
    private readonly safeBytes = GATHER_SAFE_BYTES,
    private readonly maxMs = GATHER_MS,
    private readonly safeRecords = GATHER_SAFE_RECORDS,
  ) {}

  /** A read of `bytes` (holding `records` lines, where counted) at `now`: how many whole milliseconds to leave the output before the next read (0: read on). */
  next(now: number, bytes: number, records?: number): number {
    const last = this.lastAt;
    this.lastAt = now;
    if (this.waited) {
      // what a wait gathered is no measure of the rate: the pipe may have been full
      this.waited = false;
      return 0;
    }
    if (last === undefined || now - last > IDLE_MS_OVER * this.maxMs) {
      // the child was idle, not slow: its next burst is read as it comes, and measured
      this.rate = undefined;
      this.recordRate = undefined;
      return 0;
    }
    const dt = Math.max(now - last, 0.01);
    this.rate = smoothed(this.rate, bytes / dt);
    let most = Math.min(this.maxMs, this.safeBytes / this.rate);
    if (records !== undefined) {
      this.recordRate = smoothed(this.recordRate, records / dt);
      most = Math.min(most, this.safeRecords / this.recordRate);
    }
    const ms = Math.floor(most);
    this.waited = ms >= 1;
    return this.waited ? ms : 0;
  }
}

/** A rate measured anew: a faster one taken at once, a slower one half way. */
function smoothed(old: number | undefined, r: number): number {
  return old === undefined || r > old ? r : (old + r) / 2;
}
