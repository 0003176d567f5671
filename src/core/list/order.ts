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
 * The smallest `k` items offered, by `compare`: a stream of any length costs, for most
 * items, one comparison with a bar (the largest item kept at the last cut), and memory for
 * `k` items and 256 to 1,024 more (an eighth of `k` past 8,192). Items under the bar gather
 * in a buffer; a full buffer is cut back to its `k` smallest by a selection (no sort), so a deep page (the
 * 100,001st to 100,100th of 200,000) costs a few passes, not a heap of 100,100 and a sort
 * of all of them. Items that compare equal are kept in no particular order, so a
 * deterministic answer needs a total order.
 */
/** Items a Smallest gathers past its `k` before a cut, at the least. */
const SMALLEST_SLACK = 256;

export class Smallest<T> {
  private buf: T[] = [];
  private cutBar: T | undefined;
  private readonly cap: number;

  constructor(
    readonly k: number,
    private readonly compare: (a: T, b: T) => number,
  ) {
    // A small buffer for a page's worth: the bar is set, and then moves down, every few hundred
    // items, and a walk's folders that sort after it are passed over sooner (fs_glob's 100 of
    // 200,000 paths: 8,300 offered with room for 1,024 more, 4,300 with 256). A larger k
    // gathers as many again as it keeps, up to 1,024, so each cut's selection stays a few
    // comparisons an item.
    this.cap = k + Math.max(SMALLEST_SLACK, Math.min(k, 1024), k >> 3);
  }

  /** An item a new one must compare below to be kept (the largest kept at the last cut), else undefined. */
  get bar(): T | undefined {
    return this.cutBar;
  }

  offer(x: T): void {
    if (this.k <= 0 || (this.cutBar !== undefined && this.compare(x, this.cutBar) >= 0)) {
      return;
    }
    this.buf.push(x);
    if (this.buf.length >= this.cap) {
      this.cut();
    }
  }

  /** What is kept, in order (the selection is spent). */
  sorted(): T[] {
    return this.from(0);
  }

  /** What is kept from the `start`th smallest on (0-based), in order: only those are sorted (the selection is spent). */
  from(start: number): T[] {
    if (this.buf.length > this.k) {
      this.cut();
    }
    const buf = this.buf;
    if (start >= buf.length) {
      return [];
    }
    if (start > 0) {
      select(buf, start, this.compare);
    }
    const tail = start > 0 ? buf.slice(start) : buf;
    return tail.sort(this.compare);
  }

  /** Keeps the `k` smallest of the buffer; the largest of them becomes the bar. */
  private cut(): void {
    const buf = this.buf;
    select(buf, this.k - 1, this.compare);
    buf.length = this.k;
    // after the selection, buf[k - 1] is the largest of the k smallest
    this.cutBar = buf[this.k - 1];
  }
}

/**
 * Reorders `a` so that a[n] is the item a sort would put there, with none after it smaller
 * and none before it larger (a selection: quickselect on a median of three, with a sort of
 * the part left when the parts keep coming out lopsided).
 */
export function select<T>(a: T[], n: number, compare: (a: T, b: T) => number): void {
  let lo = 0;
  let hi = a.length - 1;
  let budget = 2 * Math.ceil(Math.log2(a.length + 1)) + 8;
  while (hi > lo) {
    if (budget-- === 0 || hi - lo < 16) {
      const part = a.slice(lo, hi + 1).sort(compare);
      for (let i = 0; i < part.length; i++) {
        a[lo + i] = part[i];
      }
      return;
    }
    const mid = lo + ((hi - lo) >> 1);
    // the median of the first, middle and last as the pivot, moved to hi
    if (compare(a[mid], a[lo]) < 0) {swap(a, mid, lo);}
    if (compare(a[hi], a[lo]) < 0) {swap(a, hi, lo);}
    if (compare(a[mid], a[hi]) < 0) {swap(a, mid, hi);}
    const pivot = a[hi];
    // three-way partition: [lo, lt) < pivot, [lt, i) == pivot, (gt, hi] > pivot
    let lt = lo;
    let gt = hi;
    let i = lo;
    while (i <= gt) {
      const c = compare(a[i], pivot);
      if (c < 0) {
        swap(a, i++, lt++);
      } else if (c > 0) {
        swap(a, i, gt--);
      } else {
        i++;
      }
    }
    if (n < lt) {
      hi = lt - 1;
    } else if (n > gt) {
      lo = gt + 1;
    } else {
      return;
    }
  }
}

function swap<T>(a: T[], i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/** The smallest `k` of `items` by `compare`, sorted (a bounded heap; `items` is not changed). */
export function smallestSorted<T>(items: Iterable<T>, k: number, compare: (a: T, b: T) => number): T[] {
  const top = new Smallest(Math.max(0, k), compare);
  for (const x of items) {
    top.offer(x);
  }
  return top.sorted();
}
