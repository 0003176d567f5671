/**
 * Passes a stream of root-relative, "/"-separated paths on once their folder has been asked
 * about: each folder is asked once (`ask` may need I/O), and the paths of a folder being
 * asked wait for its answer, so a stream of any length holds only the waiting paths. Each
 * path is passed on with its folder's answer, so what the answer holds (a folder's ignore
 * rules) is looked up once per folder, not once per path.
 *
 * A walk gives a folder's files one after another, but ripgrep's threads interleave a few
 * folders (200,000 paths in 2,000 folders switched folder 88,000 times): the last few
 * folders are kept and compared in place, so most paths cost a comparison, no slice and no
 * lookup. Paths are passed on in no particular order.
 */
import type { CancelSignal } from './cancel';
import { PACE_SLICE_MS } from './limits';
import { Pacer } from './pace';
import { sameBytes, type PathText } from './pathBytes';

/** Folders compared in place before the map is asked: a few more than a walk's threads. */
const RECENT_FOLDERS = 4;

/** One folder: its answer (false: its paths are dropped), or the paths waiting for it. */
interface FolderState<T, A> {
  folder: string;
  /** Undefined while the folder is being asked. */
  answer: A | false | undefined;
  rels: string[];
  values: T[];
  /** The folder as UTF-8 bytes, once a path of it came as bytes (see pushBytes). */
  bytes?: Uint8Array;
}

/**
 * Decides a path from its folder's answer and the bytes of its name (`buf[at..end)`),
 * without its text: true when the path needs nothing more (it was counted, or is left out).
 */
export type QuickPath<A> = (answer: A, buf: Uint8Array, at: number, end: number) => boolean;

export class FolderGate<T, A extends object | true = true> {
  private readonly folders = new Map<string, FolderState<T, A>>();
  /** The paths that waited for a folder's answer: passed on a slice at a time once it comes (there may be a whole walk of them). */
  private readonly backlog: PacedQueue<string, [T, A]>;
  private readonly asked: Promise<void>[] = [];
  /** The last folders met, newest at `next - 1` (a ring). */
  private readonly recent: (FolderState<T, A> | undefined)[] = new Array<FolderState<T, A> | undefined>(RECENT_FOLDERS).fill(undefined);
  private next = 0;
  private failure: { error: unknown } | undefined;

  constructor(
    /** About a folder ("" for the root's own files): false leaves its paths out, anything else is passed with each of them. */
    private readonly ask: (folder: string) => A | false | Promise<A | false>,
    /** A path whose folder's answer was not false; `cut` is where its folder ends (its last "/", or -1). */
    private readonly pass: (rel: string, value: T, answer: A, cut: number) => void,
    signal?: CancelSignal,
  ) {
    this.backlog = new PacedQueue<string, [T, A]>((rel, [value, answer]) => this.pass(rel, value, answer, rel.lastIndexOf('/')), signal);
  }

  push(rel: string, value: T): void {
    this.place(rel, value);
  }

  /**
   * A path given as UTF-8 bytes (`buf[start..end)`, "/"-separated): where its folder is one
   * of the last few met and answered, its folder is found by comparing bytes and `quick`
   * may decide it without its text; otherwise it is decoded (`text`) and pushed.
   */
  pushBytes(buf: Uint8Array, start: number, end: number, value: T, text: PathText, quick?: QuickPath<A>): void {
    let cut = end - 1;
    while (cut >= start && buf[cut] !== 47) {
      cut--;
    }
    const len = cut < start ? 0 : cut - start;
    for (let k = 0; k < RECENT_FOLDERS; k++) {
      const s = this.recent[k];
      const bytes = s?.bytes;
      if (bytes !== undefined && bytes.length === len && sameBytes(bytes, buf, start)) {
        const answer = s!.answer;
        if (answer === false || (answer !== undefined && quick !== undefined && quick(answer, buf, cut + 1, end))) {
          return;
        }
        break;
      }
    }
    const state = this.place(text.text(buf, start, end), value);
    if (state !== undefined && state.bytes === undefined) {
      state.bytes = Uint8Array.prototype.slice.call(buf, start, start + len);
    }
  }

  /** Passes on a path (or keeps it waiting), and gives its folder's state (undefined after a failure). */
  private place(rel: string, value: T): FolderState<T, A> | undefined {
    const cut = rel.lastIndexOf('/');
    const len = cut < 0 ? 0 : cut;
    let state: FolderState<T, A> | undefined;
    for (let k = 0; k < RECENT_FOLDERS; k++) {
      const s = this.recent[k];
      // the folder is rel's part before `cut`: equal length and the same start
      if (s !== undefined && s.folder.length === len && rel.startsWith(s.folder)) {
        state = s;
        break;
      }
    }
    if (state === undefined) {
      if (this.failure) {
        return undefined;
      }
      const folder = cut < 0 ? '' : rel.slice(0, cut);
      state = this.folders.get(folder) ?? this.start(folder);
      this.recent[this.next] = state;
      this.next = (this.next + 1) % RECENT_FOLDERS;
    }
    const answer = state.answer;
    if (answer === undefined) {
      state.rels.push(rel);
      state.values.push(value);
    } else if (answer !== false) {
      this.pass(rel, value, answer, cut);
    }
    return state;
  }

  /** Asks about a folder met for the first time. */
  private start(folder: string): FolderState<T, A> {
    const state: FolderState<T, A> = { folder, answer: undefined, rels: [], values: [] };
    this.folders.set(folder, state);
    let answer: A | false | Promise<A | false>;
    try {
      answer = this.ask(folder);
    } catch (e) {
      this.failure = { error: e };
      state.answer = false;
      return state;
    }
    // (asks answer with a value or a native promise of one)
    if (!(answer instanceof Promise)) {
      state.answer = answer;
      return state;
    }
    this.asked.push(
      answer.then(
        (a) => {
          state.answer = a;
          const { rels, values } = state;
          state.rels = [];
          state.values = [];
          if (a !== false && !this.failure) {
            for (let i = 0; i < rels.length; i++) {
              this.backlog.push(rels[i], [values[i], a]);
            }
          }
        },
        (e: unknown) => {
          this.failure ??= { error: e };
          state.answer = false;
          state.rels = [];
          state.values = [];
        },
      ),
    );
    return state;
  }

  /** Resolves once every path pushed so far has been passed on or dropped; rejects with the first failure of `ask`. */
  async done(): Promise<void> {
    while (this.asked.length) {
      await Promise.all(this.asked.splice(0));
    }
    if (this.failure) {
      throw this.failure.error;
    }
    await this.backlog.done();
  }
}

/**
 * Work on items that may each take long (matching a path against a repository's ignore
 * rules): done from a loop that gives the thread back every half slice, never in the
 * turn that pushed them (a stream's own turns come between, and a timer waits for both).
 */
export class PacedQueue<T, U> {
  private firsts: T[] = [];
  private seconds: U[] = [];
  private draining: Promise<void> | undefined;
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly work: (first: T, second: U) => void,
    private readonly signal?: CancelSignal,
  ) {}

  push(first: T, second: U): void {
    if (this.failure) {
      return;
    }
    this.firsts.push(first);
    this.seconds.push(second);
    this.draining ??= this.drain().catch((e: unknown) => {
      this.failure ??= { error: e };
    });
  }

  private async drain(): Promise<void> {
    const pacer = new Pacer(this.signal, PACE_SLICE_MS / 2);
    // the pushing turn ends first
    await pacer.pause();
    try {
      while (this.firsts.length && !this.failure) {
        const firsts = this.firsts;
        const seconds = this.seconds;
        this.firsts = [];
        this.seconds = [];
        for (let i = 0; i < firsts.length; i++) {
          if (i % PASSES_PER_LOOK === 0 && pacer.due()) {
            await pacer.pause();
          }
          this.work(firsts[i], seconds[i]);
        }
      }
    } finally {
      this.draining = undefined;
    }
  }

  /** Resolves once every item pushed so far has been worked on; rejects with the first failure. */
  async done(): Promise<void> {
    while (this.draining) {
      await this.draining;
    }
    if (this.failure) {
      throw this.failure.error;
    }
  }
}

/** Items worked on between two looks at the clock. */
const PASSES_PER_LOOK = 16;
