/**
 * The one order every discovery tool prints paths in: segment by segment, each segment
 * by UTF-16 code units (locale-free, so the same on every machine). It equals a string
 * comparison in which "/" sorts before every other character, which keeps a folder's
 * contents right under it (`a/`, `a/z`, `a-b`) where plain string order would not.
 */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      if (x === 47) {
        return -1;
      }
      if (y === 47) {
        return 1;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

/** Names within one folder: by UTF-16 code units. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Folders above which a sorted walk reads everything at once. */
const SMALL_FOLDER_ENTRIES = 2048;
/** Entries the first selection of a large folder takes; later ones grow fourfold. */
const FIRST_CHUNK_ENTRIES = 256;

/**
 * A folder's entries in name order, produced lazily as indices into its names: a folder
 * of a million entries of which a page needs a hundred costs one pass that keeps the
 * smallest few (a bounded heap of indices), not a sort of a million names, and no object
 * per entry. Names below `lowerBound` are never produced, which lets a cursor skip what
 * earlier pages showed. The names must be distinct, as a folder's are.
 */
export class LazySorted {
  private buf: number[] = [];
  private i = 0;
  private done = false;
  private last: string | undefined;
  private chunk = FIRST_CHUNK_ENTRIES;

  constructor(
    private readonly names: readonly string[],
    private readonly lowerBound?: string,
  ) {
    if (names.length <= SMALL_FOLDER_ENTRIES) {
      const all: number[] = [];
      for (let k = 0; k < names.length; k++) {
        if (lowerBound === undefined || names[k] >= lowerBound) {
          all.push(k);
        }
      }
      this.buf = all.sort((a, b) => compareNames(names[a], names[b]));
      this.done = true;
    }
  }

  /** The index of the next name in order, or undefined after the last. */
  next(): number | undefined {
    if (this.i < this.buf.length) {
      return this.buf[this.i++];
    }
    if (this.done) {
      return undefined;
    }
    this.refill();
    return this.i < this.buf.length ? this.buf[this.i++] : undefined;
  }

  /** The `chunk` smallest names above the last one produced, by a max-heap over one pass. */
  private refill(): void {
    const k = this.chunk;
    this.chunk *= 4;
    const names = this.names;
    const heap: number[] = [];
    // names at or below `floor` (below it, for a lower bound not yet passed) are done
    const floor = this.last ?? this.lowerBound;
    const strict = this.last !== undefined;
    // the largest name kept, once the heap is full: most names of a large folder stop here
    let top: string | undefined;
    for (let j = 0; j < names.length; j++) {
      const name = names[j];
      if (floor !== undefined && (strict ? name <= floor : name < floor)) {
        continue;
      }
      if (top === undefined) {
        heap.push(j);
        siftUp(names, heap, heap.length - 1);
        if (heap.length === k) {
          top = names[heap[0]];
        }
      } else if (name < top) {
        heap[0] = j;
        siftDown(names, heap, 0);
        top = names[heap[0]];
      }
    }
    heap.sort((a, b) => compareNames(names[a], names[b]));
    this.buf = heap;
    this.i = 0;
    if (heap.length < k) {
      this.done = true;
    }
    if (heap.length) {
      this.last = names[heap[heap.length - 1]];
    }
  }
}

function siftUp(names: readonly string[], h: number[], i: number): void {
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (names[h[p]] >= names[h[i]]) {
      return;
    }
    [h[p], h[i]] = [h[i], h[p]];
    i = p;
  }
}

function siftDown(names: readonly string[], h: number[], i: number): void {
  const n = h.length;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < n && names[h[l]] > names[h[m]]) {
      m = l;
    }
    if (r < n && names[h[r]] > names[h[m]]) {
      m = r;
    }
    if (m === i) {
      return;
    }
    [h[m], h[i]] = [h[i], h[m]];
    i = m;
  }
}

/**
 * The smallest `k` items offered, by `compare` (a bounded max-heap): a stream of any length
 * costs one comparison with the largest kept for most items, and memory for `k`. Items
 * that compare equal are kept in no particular order, so a deterministic answer needs a
 * total order.
 */
export class Smallest<T> {
  private readonly heap: T[] = [];

  constructor(
    readonly k: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  /** The largest item kept once `k` are kept (a new one must compare below it), else undefined. */
  get bar(): T | undefined {
    return this.heap.length >= this.k ? this.heap[0] : undefined;
  }

  offer(x: T): void {
    const heap = this.heap;
    const compare = this.compare;
    if (heap.length < this.k) {
      heap.push(x);
      for (let i = heap.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (compare(heap[p], heap[i]) >= 0) {
          break;
        }
        [heap[p], heap[i]] = [heap[i], heap[p]];
        i = p;
      }
    } else if (this.k > 0 && compare(x, heap[0]) < 0) {
      heap[0] = x;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && compare(heap[l], heap[m]) > 0) {
          m = l;
        }
        if (r < heap.length && compare(heap[r], heap[m]) > 0) {
          m = r;
        }
        if (m === i) {
          break;
        }
        [heap[m], heap[i]] = [heap[i], heap[m]];
        i = m;
      }
    }
  }

  /** What is kept, in order (the heap is spent). */
  sorted(): T[] {
    return this.heap.sort(this.compare);
  }
}

/** The smallest `k` of `items` by `compare`, sorted (a bounded heap; `items` is not changed). */
export function smallestSorted<T>(items: Iterable<T>, k: number, compare: (a: T, b: T) => number): T[] {
  const top = new Smallest(Math.max(0, k), compare);
  for (const x of items) {
    top.offer(x);
  }
  return top.sorted();
}
