/**
 * Passes a stream of root-relative, "/"-separated paths on once their folder has been asked
 * about: each folder is asked once (`ask` may need I/O), and the paths of a folder being
 * asked wait for its answer, so a stream of any length holds only the waiting paths. A walk
 * gives a folder's files one after another (a few walking threads interleave a few
 * folders), so most paths cost a comparison or two with the folders of the last ones.
 * Paths are passed on in no particular order.
 */
import type { CancelSignal } from './cancel';
import { Pacer } from './pace';

/** Paths passed on between two looks at the clock, when passing may be slow (see FolderGate's `paced`). */
const PASSES_PER_LOOK = 16;

/** Folders whose answers are compared first: ripgrep walks with a few threads. */
const RECENT_FOLDERS = 4;

export class FolderGate<T> {
  private readonly answers = new Map<string, boolean>();
  private readonly waiting = new Map<string, { rels: string[]; values: T[] }>();
  private readonly asked: Promise<void>[] = [];
  /** The folders answered most recently, and their answers. */
  private readonly recent: { folder: string; passes: boolean }[] = [];
  private nextRecent = 0;
  private failure: { error: unknown } | undefined;

  /** With `paced`: paths whose folder passed, waiting to be passed on by {@link drain}. */
  private readyRels: string[] = [];
  private readyValues: T[] = [];
  private draining: Promise<void> | undefined;

  constructor(
    /** Whether the paths of a folder ("" for the root's own files) pass. */
    private readonly ask: (folder: string) => boolean | Promise<boolean>,
    private readonly pass: (rel: string, value: T) => void,
    /**
     * Passing a path on may take long (matching hostile ignore rules): paths are then passed
     * on from a loop that gives the thread back every slice, never in the stream's own turn.
     */
    private readonly paced?: { signal?: CancelSignal },
  ) {}

  push(rel: string, value: T): void {
    const cut = rel.lastIndexOf('/');
    const recent = this.recent;
    for (let j = 0; j < recent.length; j++) {
      const f = recent[j].folder;
      if (cut < 0 ? f === '' : cut === f.length && rel.startsWith(f)) {
        if (recent[j].passes) {
          this.forward(rel, value);
        }
        return;
      }
    }
    if (this.failure) {
      return;
    }
    const folder = cut < 0 ? '' : rel.slice(0, cut);
    const known = this.answers.get(folder);
    if (known !== undefined) {
      this.remember(folder, known);
      if (known) {
        this.forward(rel, value);
      }
      return;
    }
    const queue = this.waiting.get(folder);
    if (queue) {
      queue.rels.push(rel);
      queue.values.push(value);
      return;
    }
    let answer: boolean | Promise<boolean>;
    try {
      answer = this.ask(folder);
    } catch (e) {
      this.failure = { error: e };
      return;
    }
    if (typeof answer === 'boolean') {
      this.answers.set(folder, answer);
      this.remember(folder, answer);
      if (answer) {
        this.forward(rel, value);
      }
      return;
    }
    this.waiting.set(folder, { rels: [rel], values: [value] });
    this.asked.push(
      answer.then(
        (passes) => {
          this.answers.set(folder, passes);
          const q = this.waiting.get(folder)!;
          this.waiting.delete(folder);
          if (passes && !this.failure) {
            for (let i = 0; i < q.rels.length; i++) {
              this.forward(q.rels[i], q.values[i]);
            }
          }
        },
        (e: unknown) => {
          this.failure ??= { error: e };
        },
      ),
    );
  }

  private forward(rel: string, value: T): void {
    if (!this.paced) {
      this.pass(rel, value);
      return;
    }
    this.readyRels.push(rel);
    this.readyValues.push(value);
    this.draining ??= this.drain().catch((e: unknown) => {
      this.failure ??= { error: e };
    });
  }

  /** Passes the ready paths on, a slice at a time, until none is left. */
  private async drain(): Promise<void> {
    const pacer = new Pacer(this.paced!.signal);
    // the stream's own turn ends first
    await pacer.pause();
    try {
      while (this.readyRels.length && !this.failure) {
        const rels = this.readyRels;
        const values = this.readyValues;
        this.readyRels = [];
        this.readyValues = [];
        for (let i = 0; i < rels.length; i++) {
          if (i % PASSES_PER_LOOK === 0 && pacer.due()) {
            await pacer.pause();
          }
          this.pass(rels[i], values[i]);
        }
      }
    } finally {
      this.draining = undefined;
    }
  }

  private remember(folder: string, passes: boolean): void {
    if (this.recent.length < RECENT_FOLDERS) {
      this.recent.push({ folder, passes });
    } else {
      this.recent[this.nextRecent] = { folder, passes };
      this.nextRecent = (this.nextRecent + 1) % RECENT_FOLDERS;
    }
  }

  /** Resolves once every path pushed so far has been passed on or dropped; rejects with the first failure of `ask`. */
  async done(): Promise<void> {
    while (this.asked.length || this.draining) {
      await Promise.all(this.asked.splice(0));
      await this.draining;
    }
    if (this.failure) {
      throw this.failure.error;
    }
  }
}
