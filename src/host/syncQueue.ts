/** What the queue orders: anything that syncs and then closes. */
export interface Syncable {
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Syncs, at most `limit` in flight, each one closed once its sync has settled. The queue
 * knows nothing of what it syncs: `describe` turns a failure and the words given with its
 * item (`writing a.ts`) into the error to throw. A failure is kept rather than thrown where
 * it is noticed, so that it names its own item; throwIfFailed and drain throw it, and drain
 * closes every item first, so nothing is held open while the change is taken back.
 */
export class SyncQueue {
  private readonly pending: { item: Syncable; done: Promise<void>; doing: string }[] = [];
  private failure: Error | undefined;

  constructor(
    private readonly limit: number,
    private readonly describe: (e: unknown, doing: string) => Error,
  ) {}

  /** Starts syncing `item`, which the queue now owns, once fewer than `limit` are in flight. Never throws. */
  async add(item: Syncable, doing: string): Promise<void> {
    while (this.pending.length >= this.limit) {
      await this.retire(this.pending.shift()!);
    }
    const done = (async () => item.sync())().catch((e: unknown) => this.fail(e, doing));
    this.pending.push({ item, done, doing });
  }

  throwIfFailed(): void {
    if (this.failure) {
      throw this.failure;
    }
  }

  /** Waits for every sync and closes every item, then throws the first failure. */
  async drain(): Promise<void> {
    while (this.pending.length) {
      await this.retire(this.pending.shift()!);
    }
    this.throwIfFailed();
  }

  private fail(e: unknown, doing: string): void {
    this.failure ??= this.describe(e, doing);
  }

  private async retire(x: { item: Syncable; done: Promise<void>; doing: string }): Promise<void> {
    await x.done;
    try {
      await x.item.close();
    } catch (e) {
      this.fail(e, x.doing);
    }
  }
}
