/**
 * Passes a stream of root-relative, "/"-separated paths on once their folder has been asked
 * about: each folder is asked once (`ask` may need I/O), and the paths of a folder being
 * asked wait for its answer, so a stream of any length holds only the waiting paths. A walk
 * gives a folder's files one after another (a few walking threads interleave a few
 * folders), so most paths cost a comparison with the folder of the last one.
 * Paths are passed on in no particular order.
 */
import type { CancelSignal } from './cancel';
import { PACE_SLICE_MS } from './limits';
import { Pacer } from './pace';

/** Paths passed on between two looks at the clock, when passing may be slow (see FolderGate's `paced`). */
const PASSES_PER_LOOK = 16;

/** The paths of a folder being asked about, waiting for its answer. */
interface Waiting<T> {
  rels: string[];
  values: T[];
}

export class FolderGate<T> {
  private readonly answers = new Map<string, boolean>();
  private readonly waiting = new Map<string, Waiting<T>>();
  private readonly asked: Promise<void>[] = [];
  /** The folder of the last path, and its answer or the queue of its paths while it is asked. */
  private lastFolder: string | undefined;
  private last: boolean | Waiting<T> = false;
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
    // a slice and a comparison: cheaper than comparing in place (startsWith)
    const folder = cut < 0 ? '' : rel.slice(0, cut);
    if (folder !== this.lastFolder) {
      if (this.failure) {
        return;
      }
      this.lastFolder = folder;
      this.last = this.answers.get(folder) ?? this.waiting.get(folder) ?? this.start(folder);
    }
    const last = this.last;
    if (last === true) {
      this.forward(rel, value);
    } else if (last !== false) {
      last.rels.push(rel);
      last.values.push(value);
    }
  }

  /** Asks about a folder met for the first time: its answer, or the queue of its paths while it is asked. */
  private start(folder: string): boolean | Waiting<T> {
    let answer: boolean | Promise<boolean>;
    try {
      answer = this.ask(folder);
    } catch (e) {
      this.failure = { error: e };
      return false;
    }
    if (typeof answer === 'boolean') {
      this.answers.set(folder, answer);
      return answer;
    }
    const queue: Waiting<T> = { rels: [], values: [] };
    this.waiting.set(folder, queue);
    this.asked.push(
      answer.then(
        (passes) => {
          this.answers.set(folder, passes);
          this.waiting.delete(folder);
          if (this.lastFolder === folder) {
            this.last = passes;
          }
          if (passes && !this.failure) {
            for (let i = 0; i < queue.rels.length; i++) {
              this.forward(queue.rels[i], queue.values[i]);
            }
          }
        },
        (e: unknown) => {
          this.failure ??= { error: e };
          this.waiting.delete(folder);
          this.answers.set(folder, false);
          if (this.lastFolder === folder) {
            this.last = false;
          }
        },
      ),
    );
    return queue;
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
    // half a slice: the stream's own turns (see STREAM_TURN_MS) come between these, and a timer waits for both
    const pacer = new Pacer(this.paced!.signal, PACE_SLICE_MS / 2);
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
