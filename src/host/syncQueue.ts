import { described, type ApplyHandle } from './applyDisk';

/**
 * Syncs of open files to the disk, at most `limit` in flight, each descriptor closed once
 * its sync has settled. A failure is kept rather than thrown where it is noticed, so that
 * it names its own file; throwIfFailed and drain throw it, and drain closes every
 * descriptor first, so nothing is held open while the change is taken back.
 */
export class SyncQueue {
  private readonly pending: { fh: ApplyHandle; done: Promise<void>; doing: string }[] = [];
  private failure: Error | undefined;

  constructor(private readonly limit: number) {}

  /** Starts syncing `fh`, which the queue now owns, once fewer than `limit` are in flight. Never throws. */
  async add(fh: ApplyHandle, doing: string): Promise<void> {
    while (this.pending.length >= this.limit) {
      await this.retire(this.pending.shift()!);
    }
    const done = (async () => fh.sync())().catch((e: unknown) => this.fail(e, doing));
    this.pending.push({ fh, done, doing });
  }

  throwIfFailed(): void {
    if (this.failure) {
      throw this.failure;
    }
  }

  /** Waits for every sync and closes every descriptor, then throws the first failure. */
  async drain(): Promise<void> {
    while (this.pending.length) {
      await this.retire(this.pending.shift()!);
    }
    this.throwIfFailed();
  }

  private fail(e: unknown, doing: string): void {
    this.failure ??= described(e, doing);
  }

  private async retire(x: { fh: ApplyHandle; done: Promise<void>; doing: string }): Promise<void> {
    await x.done;
    try {
      await x.fh.close();
    } catch (e) {
      this.fail(e, x.doing);
    }
  }
}
