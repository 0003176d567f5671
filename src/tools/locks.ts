/**
 * One queue per file: calls that change the same file run one after another, in the
 * order they arrived, so none is lost and each sees the text the previous one left.
 * A call that needs several files takes their locks in path order, so two calls cannot
 * wait on each other.
 */
export class FileLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async withLocks<T>(paths: readonly string[], work: () => Promise<T>): Promise<T> {
    const keys = [...new Set(paths)].sort();
    const releases: (() => void)[] = [];
    try {
      for (const key of keys) {
        releases.push(await this.acquire(key));
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

  private async acquire(key: string): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    return () => {
      release();
      if (this.tails.get(key) === tail) {
        this.tails.delete(key);
      }
    };
  }
}
